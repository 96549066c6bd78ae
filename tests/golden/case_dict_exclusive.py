# numeric
import tensorflow as tf

x = tf.placeholder(tf.float32, [])
y = tf.constant(5.0)
out = tf.case({tf.less(x, y): lambda: tf.add(x, y),
               tf.greater(x, y): lambda: tf.subtract(x, y)},
              default=lambda: tf.constant(0.0), exclusive=True)
with tf.Session() as sess:
    for value in (3.0, 5.0, 8.0):
        print(sess.run(out, {x: value}))
# output
# numeric
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


y = tf.constant(5.0)


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def run_out(x):
    out = tf.case([(tf.less(x, y), lambda: tf.add(x, y)),
                   (tf.greater(x, y), lambda: tf.subtract(x, y))],
                  default=lambda: tf.constant(0.0), exclusive=True)
    return out


for value in (3.0, 5.0, 8.0):
    print(to_numpy(call_compiled(run_out, x=value)))
