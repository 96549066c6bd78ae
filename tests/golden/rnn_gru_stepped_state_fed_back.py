# numeric, separate processes
import numpy as np
import tensorflow as tf

inputs = tf.placeholder(tf.float32, [None, 2])
state_in = tf.placeholder(tf.float32, [None, 3])
cell = tf.nn.rnn_cell.GRUCell(3)
simple = tf.nn.rnn_cell.BasicRNNCell(3, activation=tf.nn.relu)
output, state_out = cell(inputs, state_in)
relu_output, _ = simple(output, simple.zero_state(tf.shape(inputs)[0], tf.float32))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    state = sess.run(cell.zero_state(2, tf.float32))
    for step in range(3):
        out, state = sess.run([output, state_out], {inputs: np.ones((2, 2)) * step, state_in: state})
        print(np.round(out, 5))
    print(np.round(sess.run(relu_output, {inputs: np.ones((2, 2)), state_in: state}), 5))
# output
# numeric, separate processes
import inspect
import weakref

import numpy as np
import tensorflow as tf


def keras_rnn_weights(kind, tf1_weights, input_size, forget_bias=0.0):
    """TF1 rnn cell weights (TF1's layout and gate order) as the Keras layer's [kernel, recurrent_kernel, bias]."""
    import numpy

    tf1_weights = [numpy.asarray(weight) for weight in tf1_weights]
    if kind == "gru":  # gates r, u and a candidate kernel -> Keras z(=u), r, h with reset_after=False
        gates_kernel, gates_bias, candidate_kernel, candidate_bias = tf1_weights
        reset, update = numpy.split(gates_kernel, 2, axis=1)
        kernel = numpy.concatenate([update, reset, candidate_kernel], axis=1)
        reset_bias, update_bias = numpy.split(gates_bias, 2)
        bias = numpy.concatenate([update_bias, reset_bias, candidate_bias])
    else:
        kernel, bias = tf1_weights
        if kind == "lstm":  # i, j, f, o with forget_bias added at run time -> Keras i, f, c, o
            i, j, f, o = numpy.split(kernel, 4, axis=1)
            kernel = numpy.concatenate([i, f, j, o], axis=1)
            bias_i, bias_j, bias_f, bias_o = numpy.split(bias, 4)
            bias = numpy.concatenate([bias_i, bias_f + forget_bias, bias_j, bias_o])
    return [kernel[:input_size], kernel[input_size:], bias]


def assign_tf1_rnn_weights(kind, layer, variables, forget_bias=0.0):
    """The inverse of keras_rnn_weights: a Keras layer's weights assigned, in TF1's layout, to TF1-named variables."""
    import numpy

    kernel, recurrent_kernel, bias = layer.get_weights()
    kernel = numpy.concatenate([kernel, recurrent_kernel])
    if kind == "gru":
        update, reset, candidate = numpy.split(kernel, 3, axis=1)
        update_bias, reset_bias, candidate_bias = numpy.split(bias, 3)
        values = [numpy.concatenate([reset, update], axis=1), numpy.concatenate([reset_bias, update_bias]),
                  candidate, candidate_bias]
    elif kind == "lstm":
        i, f, j, o = numpy.split(kernel, 4, axis=1)
        bias_i, bias_f, bias_j, bias_o = numpy.split(bias, 4)
        values = [numpy.concatenate([i, j, f, o], axis=1),
                  numpy.concatenate([bias_i, bias_j, bias_f - forget_bias, bias_o])]
    else:
        values = [kernel, bias]
    for variable, value in zip(variables, values):
        variable.assign(value)


def call_compiled(function, /, **feeds):
    """function(**feeds), run through the trace of its one concrete function."""
    # A tf.function call binds and looks up its arguments in Python, as long as a small training step;
    # its trace, given tensors, runs without that.
    traced = compiled_traces.get(function)
    if traced is None:  # the first call traces it, and creates the state the trace makes
        specs = function.input_signature or ()
        names = list(inspect.signature(function.python_function).parameters)[-len(specs):] if specs else []
        fetched = function(**{key: feeds[key] for key in names})
        concrete = function.get_concrete_function()
        run_trace = getattr(getattr(concrete, "inference_fn", None), "call_preflattened", None)
        compiled_traces[function] = concrete, list(zip(names, specs)), run_trace
        return fetched
    concrete, parameters, run_trace = traced
    tensors = []
    for key, spec in parameters:
        tensor = tf.convert_to_tensor(feeds[key], spec.dtype)
        if not spec.is_compatible_with(tensor):
            raise ValueError(f"Cannot feed value of shape {tensor.shape} for `{key}`, which has shape {spec.shape}")
        tensors.append(tensor)
    if run_trace is None:
        return concrete(*tensors)
    return run_trace(tensors + concrete.captured_inputs)  # what concrete(*tensors) runs when no tape watches


compiled_traces = weakref.WeakKeyDictionary()  # tf.function -> (its concrete function, its parameters, its trace)


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


def tf1_cell_initializers(kind, units, forget_bias=0.0, kernel_initializer=None, bias_initializer=None):
    """Initializers that give a Keras rnn cell TF1's initial values: drawn in TF1's layout (one kernel over
    [inputs, state], Glorot uniform unless given) when Keras builds the cell at its first call, where TF1 built
    it, and mapped by keras_rnn_weights."""
    kernel_initializer = kernel_initializer or tf.keras.initializers.GlorotUniform()
    mapped = []

    def tf1_values(input_size):
        rows, columns = input_size + units, {"rnn": 1, "lstm": 4, "gru": 2}[kind] * units
        shapes = [[rows, columns], [columns]] + ([[rows, units], [units]] if kind == "gru" else [])
        values = []
        for index, shape in enumerate(shapes):
            if index % 2 == 0:
                values.append(kernel_initializer(shape=shape, dtype=tf.float32))
            elif bias_initializer is not None:
                values.append(bias_initializer(shape=shape, dtype=tf.float32))
            else:  # TF1's GRU gates start at 1.0 (no reset, no update); every other bias at zero
                values.append(tf.ones(shape) if kind == "gru" and index == 1 else tf.zeros(shape))
        return values

    def part(index):
        def initializer(shape, dtype=None):
            if not mapped:  # the kernel comes first: its rows are the input width
                with tf.init_scope():  # drawn eagerly, once, also where the first call is traced
                    mapped.extend(keras_rnn_weights(kind, tf1_values(shape[0]), shape[0], forget_bias))
            return mapped[index]

        return initializer

    return {"kernel_initializer": part(0), "recurrent_initializer": part(1), "bias_initializer": part(2)}


cell = tf.keras.layers.GRUCell(units=3, reset_after=False, **tf1_cell_initializers("gru", 3))
simple = tf.keras.layers.SimpleRNNCell(units=3, activation=tf.nn.relu, **tf1_cell_initializers("rnn", 3))


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 3], tf.float32)])
def run_output_state_out(inputs, state_in):
    output, state_out = cell(inputs, state_in)
    return [output, state_out]


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 3], tf.float32)])
def run_relu_output(inputs, state_in):
    output, state_out = cell(inputs, state_in)
    relu_output, _ = simple(output, tf.zeros([tf.shape(inputs)[0], 3]))
    return relu_output


state = tf.zeros([2, 3]).numpy()
for step in range(3):
    out, state = to_numpy(call_compiled(run_output_state_out, inputs=np.ones((2, 2)) * step, state_in=state))
    print(np.round(out, 5))
print(np.round(run_relu_output(inputs=np.ones((2, 2)), state_in=state).numpy(), 5))
