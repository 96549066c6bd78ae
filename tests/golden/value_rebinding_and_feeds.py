# numeric
# R1: a name rebound to another tensor; feeding a tensor that is not a placeholder; ints fed
# to a float32 placeholder. Each binding is its own value: a fetch reads the binding visible
# where it stands, and a feed replaces that binding for one run, converted to its dtype.
import tensorflow as tf

a = tf.placeholder(tf.float32, [3])
c = a + tf.constant([1.0, 1.0, 1.0])
with tf.Session() as sess:
    print(sess.run(c, {a: [1, 2, 3]}))
a = tf.add(2, 5)
b = a * 3
with tf.Session() as sess:
    print(sess.run(b), sess.run(b, {a: 15}))
# output
# numeric
# R1: a name rebound to another tensor; feeding a tensor that is not a placeholder; ints fed
# to a float32 placeholder. Each binding is its own value: a fetch reads the binding visible
# where it stands, and a feed replaces that binding for one run, converted to its dtype.
import inspect
import weakref

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


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_c(a):
    c = a + tf.constant([1.0, 1.0, 1.0])
    return c


print(to_numpy(call_compiled(run_c, a=[1, 2, 3])))


@tf.function
def run_b():
    a = tf.add(2, 5)
    b = a * 3
    return b


@tf.function
def run_b_2(a):
    a = tf.cast(a, tf.int32)
    b = a * 3
    return b


print(to_numpy(call_compiled(run_b)), to_numpy(run_b_2(a=15)))
