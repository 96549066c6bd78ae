# numeric
# File, logging and flag calls act when Python reaches them: kept where they are, not dropped as unrun ops.
import os
import tempfile
import tensorflow as tf

root = tempfile.mkdtemp()
tf.logging.info("starting")
tf.gfile.MakeDirs(os.path.join(root, "logs", "run1"))
with tf.gfile.GFile(os.path.join(root, "logs", "note.txt"), "w") as f:
    f.write("3")
found = tf.gfile.Glob(os.path.join(root, "logs", "*"))
x = tf.placeholder(tf.float32, [None])
y = tf.reduce_sum(x * 2.0)
with tf.Session() as sess:
    print(sess.run(y, {x: [1.0] * len(found)}))
print(os.path.isdir(os.path.join(root, "logs", "run1")))
# output
# numeric
# File, logging and flag calls act when Python reaches them: kept where they are, not dropped as unrun ops.
import inspect
import os
import tempfile
import weakref
import tensorflow as tf
from absl import logging


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


root = tempfile.mkdtemp()
logging.info("starting")
tf.io.gfile.makedirs(os.path.join(root, "logs", "run1"))
with tf.io.gfile.GFile(os.path.join(root, "logs", "note.txt"), "w") as f:
    f.write("3")
found = tf.io.gfile.glob(os.path.join(root, "logs", "*"))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_y(x):
    y = tf.reduce_sum(x * 2.0)
    return y


print(to_numpy(call_compiled(run_y, x=[1.0] * len(found))))
print(os.path.isdir(os.path.join(root, "logs", "run1")))
