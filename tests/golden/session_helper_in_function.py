# numeric
# A helper defined inside main() takes the session: in eager code it loses the parameter, and its caller the argument.
import numpy as np
import tensorflow as tf


def main():
    x = tf.placeholder(tf.float32, [None, 3])
    w = tf.Variable(tf.ones([3, 1]))
    y = tf.matmul(x, w)

    def evaluate(sess, batch):
        return sess.run(y, feed_dict={x: batch})

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(evaluate(sess, np.arange(6.0).reshape(2, 3)))


if __name__ == "__main__":
    main()
# output
# numeric
# A helper defined inside main() takes the session: in eager code it loses the parameter, and its caller the argument.
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


def main():
    w = tf.Variable(tf.ones([3, 1]))

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def run_y(x):
        y = tf.matmul(x, w)
        return y

    def evaluate(batch):
        return call_compiled(run_y, x=batch).numpy()
    print(evaluate(np.arange(6.0).reshape(2, 3)))


if __name__ == "__main__":
    main()
