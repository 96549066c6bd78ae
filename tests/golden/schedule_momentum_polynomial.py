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
loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))

step = tf.train.get_or_create_global_step()
momentum = tf.train.MomentumOptimizer(tf.train.piecewise_constant(step, [4, 8], [0.1, 0.05, 0.02]), momentum=0.9)
train_momentum = momentum.minimize(loss, global_step=step)
adam = tf.train.AdamOptimizer(tf.train.polynomial_decay(0.05, step, 6, 0.001, power=0.5, cycle=True))
train_adam = adam.minimize(loss, global_step=tf.train.get_global_step())

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(12):
        _, loss_value = sess.run([train_momentum, loss], feed_dict={x: features, y: labels})
        print(i, loss_value)
    for i in range(12):
        _, loss_value = sess.run([train_adam, loss], feed_dict={x: features, y: labels})
        print(i, loss_value)
    print(sess.run([W, b, step]))
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

step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
lr_schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay(boundaries=[4, 8], values=[0.1, 0.05, 0.02])
momentum = tf.compat.v1.train.MomentumOptimizer(lambda: lr_schedule(step), momentum=0.9)


def compute_loss(x, y):
    loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
    return loss


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_train_momentum_loss(x, y):
    with tf.GradientTape() as tape:
        loss = compute_loss(x, y)
    gradients = tape.gradient(loss, [W, b])
    momentum.apply_gradients([(grad, var) for grad, var in zip(gradients, [W, b]) if grad is not None], global_step=step)
    return [None, loss]


lr_schedule_2 = tf.keras.optimizers.schedules.PolynomialDecay(0.05, decay_steps=6, end_learning_rate=0.001, power=0.5, cycle=True)
adam = tf.compat.v1.train.AdamOptimizer(lambda: lr_schedule_2(step))


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_train_adam_loss(x, y):
    with tf.GradientTape() as tape:
        loss = compute_loss(x, y)
    gradients = tape.gradient(loss, [W, b])
    adam.apply_gradients([(grad, var) for grad, var in zip(gradients, [W, b]) if grad is not None], global_step=step)
    return [None, loss]


for i in range(12):
    _, loss_value = to_numpy(call_compiled(run_train_momentum_loss, x=features, y=labels))
    print(i, loss_value)
for i in range(12):
    _, loss_value = to_numpy(call_compiled(run_train_adam_loss, x=features, y=labels))
    print(i, loss_value)
print([W.numpy(), b.numpy(), step.numpy()])
