# numeric
# RMSProp (TF1's accumulator starts at ones: kept as tf.compat.v1) with an
# exponentially decaying learning rate on the global step, fetched as it trains.
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
x_train = rng.uniform(-1, 1, size=(80, 1)).astype(np.float32)
y_train = -1.5 * x_train + 0.3

x = tf.placeholder(tf.float32, shape=(None, 1))
y = tf.placeholder(tf.float32, shape=(None, 1))
W = tf.Variable(tf.zeros([1, 1]))
b = tf.Variable(tf.zeros([1]))
loss = tf.reduce_mean((tf.matmul(x, W) + b - y) ** 2)

global_step = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.05, global_step, decay_steps=10, decay_rate=0.5, staircase=True)
opt = tf.train.RMSPropOptimizer(lr)
train_op = opt.minimize(loss, global_step=global_step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(30):
        loss_val, _ = sess.run([loss, train_op], feed_dict={x: x_train, y: y_train})
        if i % 5 == 4:
            print("iter {:2d} lr {:.5f} loss {:.6f}".format(i + 1, sess.run(lr), loss_val))
    print("W, b =", sess.run(W)[0, 0].round(4), sess.run(b)[0].round(4), sess.run(global_step))
# output
# numeric
# RMSProp (TF1's accumulator starts at ones: kept as tf.compat.v1) with an
# exponentially decaying learning rate on the global step, fetched as it trains.
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
x_train = rng.uniform(-1, 1, size=(80, 1)).astype(np.float32)
y_train = -1.5 * x_train + 0.3
W = tf.Variable(tf.zeros([1, 1]))
b = tf.Variable(tf.zeros([1]))

global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
lr_schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.05, decay_steps=10, decay_rate=0.5, staircase=True)


@tf.function
def run_lr():
    lr = lr_schedule(global_step)
    return lr


opt = tf.compat.v1.train.RMSPropOptimizer(lambda: lr_schedule(global_step))


@tf.function(input_signature=[tf.TensorSpec((None, 1), tf.float32), tf.TensorSpec((None, 1), tf.float32)])
def run_loss_train_op(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.matmul(x, W) + b - y) ** 2)
    gradients = tape.gradient(loss, [W, b])
    opt.apply_gradients([(grad, var) for grad, var in zip(gradients, [W, b]) if grad is not None], global_step=global_step)
    return [loss, None]


for i in range(30):
    loss_val, _ = to_numpy(call_compiled(run_loss_train_op, x=x_train, y=y_train))
    if i % 5 == 4:
        print("iter {:2d} lr {:.5f} loss {:.6f}".format(i + 1, to_numpy(call_compiled(run_lr)), loss_val))
print("W, b =", W.numpy()[0, 0].round(4), b.numpy()[0].round(4), global_step.numpy())
