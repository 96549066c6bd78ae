# numeric, separate processes
import numpy as np
import tensorflow as tf

n_input, n_hidden = 3, 5
x = tf.placeholder(tf.float32, [None, None, n_input])  # time-major: [steps, batch, features]
keep_prob = tf.placeholder_with_default(1.0, [])
kernel_values = np.linspace(-0.5, 0.5, (n_input + n_hidden) * 4 * n_hidden).reshape(n_input + n_hidden, 4 * n_hidden)
cell = tf.nn.rnn_cell.LSTMCell(n_hidden, initializer=tf.constant_initializer(kernel_values), forget_bias=0.5)
cell = tf.nn.rnn_cell.DropoutWrapper(cell, output_keep_prob=keep_prob)
outputs, state = tf.nn.dynamic_rnn(cell, x, time_major=True, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.sin(np.arange(24.0)).reshape(4, 2, 3)
    out, (c, h) = sess.run([outputs, state], {x: data})
    print(out.shape)
    print(np.round(out[-1], 5))
    print(np.round(c, 5), np.round(h, 5))
# output
# numeric, separate processes
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


n_input, n_hidden = 3, 5
kernel_values = np.linspace(-0.5, 0.5, (n_input + n_hidden) * 4 * n_hidden).reshape(n_input + n_hidden, 4 * n_hidden)
lstm = tf.keras.layers.LSTM(units=n_hidden, unit_forget_bias=False, return_sequences=True, return_state=True, zero_output_for_mask=True, **tf1_cell_initializers("lstm", n_hidden, forget_bias=0.5, kernel_initializer=tf.compat.v1.constant_initializer(kernel_values)))
lstm.build((None, None, n_input))


@tf.function(input_signature=[tf.TensorSpec([None, None, n_input], tf.float32)])
def run_outputs_state(x):
    keep_prob = 1.0
    rnn_inputs = tf.transpose(x, [1, 0, 2])
    lstm_outputs, lstm_h, lstm_c = lstm(rnn_inputs)
    lstm_outputs = tf.nn.dropout(lstm_outputs, rate=1 - (keep_prob))
    outputs, state = tf.transpose(lstm_outputs, [1, 0, 2]), (lstm_c, lstm_h)
    return [outputs, state]


data = np.sin(np.arange(24.0)).reshape(4, 2, 3)
out, (c, h) = to_numpy(run_outputs_state(x=data))
print(out.shape)
print(np.round(out[-1], 5))
print(np.round(c, 5), np.round(h, 5))
