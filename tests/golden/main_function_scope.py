# numeric
import numpy as np
import tensorflow as tf


def build(x):
    # a pure graph function: no variables
    return tf.nn.relu(x) * 2.0


def main():
    inputs = tf.placeholder(tf.float32, [None])
    outputs = build(inputs)
    with tf.Session() as sess:
        print(sess.run(outputs, {inputs: np.array([-1.0, 2.0])}))


if __name__ == "__main__":
    main()
# output
# numeric
import inspect
import weakref

import numpy as np
import tensorflow as tf


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


def build(x):
    # a pure graph function: no variables
    return tf.nn.relu(x) * 2.0


def main():

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def run_outputs(inputs):
        outputs = build(inputs)
        return outputs

    print(call_compiled(run_outputs, inputs=np.array([-1.0, 2.0])).numpy())


if __name__ == "__main__":
    main()
