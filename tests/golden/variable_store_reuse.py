# numeric
import numpy as np
import tensorflow as tf


def tower(inputs, reuse=False):
    with tf.variable_scope("tower", reuse=reuse):
        w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(0.5))
        return tf.matmul(inputs, w)


a = tf.placeholder(tf.float32, [None, 3])
b = tf.placeholder(tf.float32, [None, 3])
gap = tf.reduce_sum(tower(a) - tower(b, reuse=True))
with tf.variable_scope("tower", reuse=True):
    shared = tf.get_variable("w")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(gap, {a: np.ones((2, 3)), b: np.zeros((2, 3))}))
    print(sess.run(shared))
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


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


tower_w = tf.Variable(tf.constant_initializer(0.5)([3, 2]), name="tower/w")


def tower(inputs):
    w = tower_w
    return tf.matmul(inputs, w)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 3], tf.float32)])
def run_gap(a, b):
    gap = tf.reduce_sum(tower(a) - tower(b))
    return gap


shared = tower_w
print(to_numpy(call_compiled(run_gap, a=np.ones((2, 3)), b=np.zeros((2, 3)))))
print(shared.numpy())
