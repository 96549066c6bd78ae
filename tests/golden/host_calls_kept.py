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
