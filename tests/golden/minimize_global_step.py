# numeric
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
features = rng.randn(16, 2).astype(np.float32)
labels = features.dot([[2.0], [-1.0]]) + 0.5

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(np.zeros((2, 1), np.float32))
b = tf.Variable(tf.zeros([1]))
global_step = tf.Variable(0, trainable=False)
loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
optimizer = tf.train.MomentumOptimizer(0.05, momentum=0.9)
train_op = optimizer.minimize(loss, global_step=global_step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(20):
        _, loss_value = sess.run([train_op, loss], feed_dict={x: features, y: labels})
        if step % 5 == 0:
            print(step, loss_value)
    print(sess.run([W, b, global_step]))
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


rng = np.random.RandomState(0)
features = rng.randn(16, 2).astype(np.float32)
labels = features.dot([[2.0], [-1.0]]) + 0.5
W = tf.Variable(np.zeros((2, 1), np.float32))
b = tf.Variable(tf.zeros([1]))
global_step = tf.Variable(0, trainable=False)
optimizer = tf.compat.v1.train.MomentumOptimizer(0.05, momentum=0.9)


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_train_op_loss(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
    gradients = tape.gradient(loss, [W, b])
    optimizer.apply_gradients([(grad, var) for grad, var in zip(gradients, [W, b]) if grad is not None], global_step=global_step)
    return [None, loss]


for step in range(20):
    _, loss_value = to_numpy(call_compiled(run_train_op_loss, x=features, y=labels))
    if step % 5 == 0:
        print(step, loss_value)
print([W.numpy(), b.numpy(), global_step.numpy()])
