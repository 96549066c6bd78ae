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
    """function(**feeds), called through the concrete function of its one trace."""
    # A tf.function call binds and looks up its arguments in Python, as long as a small training step;
    # its concrete function, given tensors, does not.
    traced = compiled_traces.get(function)
    if traced is None:  # the first call traces it, and creates the state the trace makes
        specs = function.input_signature or ()
        names = list(inspect.signature(function.python_function).parameters)[-len(specs):] if specs else []
        fetched = function(**{key: feeds[key] for key in names})
        compiled_traces[function] = function.get_concrete_function(), list(zip(names, specs))
        return fetched
    concrete, parameters = traced
    return concrete(*[tf.convert_to_tensor(feeds[key], spec.dtype) for key, spec in parameters])


compiled_traces = weakref.WeakKeyDictionary()  # tf.function -> (its concrete function, its parameters)


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


def build(x):
    # a pure graph function: no variables
    return tf.nn.relu(x) * 2.0


def main():

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def run_outputs(inputs):
        outputs = build(inputs)
        return outputs

    print(to_numpy(call_compiled(run_outputs, inputs=np.array([-1.0, 2.0]))))


if __name__ == "__main__":
    main()
