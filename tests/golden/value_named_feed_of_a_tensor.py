# numeric
import tensorflow as tf

# A feed dict passed by name may replace any tensor, not only a placeholder (chiphuyen 02_feed_dict.py)
a = tf.placeholder(tf.float32, shape=[3])
c = a + tf.constant([5, 5, 5], tf.float32)
with tf.Session() as sess:
    print(sess.run(c, {a: [1, 2, 3]}))
a = tf.add(2, 5)
b = tf.multiply(a, 3)
with tf.Session() as sess:
    replace_dict = {a: 15}
    print(sess.run(b), sess.run(b, feed_dict=replace_dict))
# output
# numeric
import inspect
import weakref

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


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_c(a):
    c = a + tf.constant([5, 5, 5], tf.float32)
    return c


print(to_numpy(call_compiled(run_c, a=[1, 2, 3])))


@tf.function
def run_b():
    a = tf.add(2, 5)
    b = tf.multiply(a, 3)
    return b


@tf.function
def run_b_2(a):
    a = tf.cast(a, tf.int32)
    b = tf.multiply(a, 3)
    return b


replace_dict = {'a': 15}
print(to_numpy(call_compiled(run_b)), to_numpy(run_b_2(**replace_dict)))
