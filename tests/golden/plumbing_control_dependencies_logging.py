# numeric
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
tf.logging.set_verbosity(tf.logging.ERROR)
x = tf.placeholder(tf.float32, [3])
counter = tf.Variable(0.0)
total = tf.Variable(np.zeros(3, np.float32))
increment = tf.assign_add(counter, 1.0)
tf.logging.info("graph built")
with tf.control_dependencies([increment]):
    doubled = tf.identity(x * 2.0)
accumulate = tf.assign_add(total, doubled)
step = tf.group(accumulate, name="step")
nothing = tf.no_op()

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(step, feed_dict={x: np.arange(3, dtype=np.float32) + i})
    print(sess.run(doubled, {x: np.ones(3, np.float32)}))
    sess.run(nothing)
    print(sess.run([counter, total]))
# output
# numeric
import inspect
import weakref

import numpy as np
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


tf.random.set_seed(0)
logging.set_verbosity(logging.ERROR)
counter = tf.Variable(0.0)
total = tf.Variable(np.zeros(3, np.float32))
logging.info("graph built")


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_doubled(x):
    increment = counter.assign_add(1.0)
    doubled = tf.identity(x * 2.0)
    return doubled


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_step(x):
    increment = counter.assign_add(1.0)
    doubled = tf.identity(x * 2.0)
    accumulate = total.assign_add(doubled)


@tf.function
def run_nothing():
    pass


for i in range(3):
    call_compiled(run_step, x=np.arange(3, dtype=np.float32) + i)
print(run_doubled(x=np.ones(3, np.float32)).numpy())
run_nothing()
print([counter.numpy(), total.numpy()])
