# numeric
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(1)
features = rng.randn(32, 3).astype(np.float32)
targets = features.dot([[1.0], [-2.0], [0.5]]).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(np.zeros((3, 1), np.float32))
loss = tf.reduce_mean(tf.square(tf.matmul(x, W) - y))

global_step = tf.train.get_or_create_global_step()
decayed = tf.train.natural_exp_decay(0.2, global_step, 3, 0.5, staircase=False)
lr = tf.maximum(decayed, 0.05)
inverse = tf.train.inverse_time_decay(0.1, global_step, decay_steps=2, decay_rate=0.3, staircase=True)
restarts = tf.train.cosine_decay_restarts(0.1, global_step, first_decay_steps=4, t_mul=2.0, m_mul=0.5, alpha=0.01)
piecewise = tf.train.piecewise_constant(global_step, [5, 10], [0.1, 0.05, 0.01])
optimizer = tf.train.GradientDescentOptimizer(learning_rate=lr)
train_op = optimizer.minimize(loss, global_step=global_step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(16):
        _, loss_value = sess.run([train_op, loss], feed_dict={x: features, y: targets})
        print(step, loss_value, sess.run([lr, inverse, restarts, piecewise]))
    print(sess.run([W, global_step]))
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


rng = np.random.RandomState(1)
features = rng.randn(32, 3).astype(np.float32)
targets = features.dot([[1.0], [-2.0], [0.5]]).astype(np.float32)
W = tf.Variable(np.zeros((3, 1), np.float32))

global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
decayed_schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.2, decay_steps=3, decay_rate=tf.exp(-0.5), staircase=False)
inverse_schedule = tf.keras.optimizers.schedules.InverseTimeDecay(0.1, decay_steps=2, decay_rate=0.3, staircase=True)
restarts_schedule = tf.keras.optimizers.schedules.CosineDecayRestarts(0.1, first_decay_steps=4, t_mul=2.0, m_mul=0.5, alpha=0.01)
piecewise_schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay(boundaries=[5, 10], values=[0.1, 0.05, 0.01])


@tf.function
def run_lr_inverse_restarts():
    decayed = decayed_schedule(global_step)
    lr = tf.maximum(decayed, 0.05)
    inverse = inverse_schedule(global_step)
    restarts = restarts_schedule(global_step)
    piecewise = piecewise_schedule(global_step)
    return [lr, inverse, restarts, piecewise]


optimizer = tf.keras.optimizers.SGD(learning_rate=lambda: tf.maximum(decayed_schedule(global_step), 0.05))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_train_op_loss(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, W) - y))
    gradients = tape.gradient(loss, [W])
    optimizer.apply_gradients(zip(gradients, [W]))
    global_step.assign_add(1)
    return [None, loss]


for step in range(16):
    _, loss_value = to_numpy(call_compiled(run_train_op_loss, x=features, y=targets))
    print(step, loss_value, to_numpy(call_compiled(run_lr_inverse_restarts)))
print([W.numpy(), global_step.numpy()])
