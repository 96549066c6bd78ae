# numeric
# Derivatives of derivatives, compiled: a Jacobian penalty over a few known
# columns (the loop of gradients stays: cheaper compiled than one vectorized
# jacobian) and a gradient penalty on interpolated inputs (WGAN-GP: the critic's
# output is named before the gradient). Each derivative order gets its own tape,
# the first-order tape inside the training step's.
import numpy as np
import tensorflow as tf

N_IN, N_OUT = 3, 2
rng = np.random.RandomState(1)
x = tf.placeholder(tf.float32, [None, N_IN])
target = tf.placeholder(tf.float32, [None, N_OUT])
W1 = tf.Variable(rng.randn(N_IN, 4).astype(np.float32) * 0.5)
W2 = tf.Variable(rng.randn(4, N_OUT).astype(np.float32) * 0.5)
y = tf.matmul(tf.tanh(tf.matmul(x, W1)), W2)

rows = [tf.gradients(y[:, i], x)[0] for i in range(N_OUT)]
jacobian = tf.stack(rows, axis=1)  # (batch, N_OUT, N_IN)
penalty = tf.reduce_mean(tf.square(jacobian))
loss = tf.reduce_mean(tf.square(y - target)) + 0.1 * penalty
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)



def critic(inputs):
    return tf.reduce_sum(tf.tanh(tf.matmul(inputs, W1)), axis=1)


eps = tf.placeholder(tf.float32, [None, 1])
mixed = eps * x + (1.0 - eps) * target[:, :1]
slopes = tf.gradients(critic(mixed), mixed)[0]  # ys built in the call: named before it
gp = tf.reduce_mean(tf.square(tf.norm(slopes, axis=1) - 1.0))
critic_loss = tf.reduce_mean(critic(x)) + 10.0 * gp
critic_step = tf.train.GradientDescentOptimizer(0.01).minimize(critic_loss, var_list=[W1])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    x_val = rng.randn(5, N_IN).astype(np.float32)
    t_val = rng.randn(5, N_OUT).astype(np.float32)
    e_val = rng.uniform(size=(5, 1)).astype(np.float32)
    for step in range(3):
        _, l = sess.run([train_op, loss], {x: x_val, target: t_val})
        _, c = sess.run([critic_step, critic_loss], {x: x_val, target: t_val, eps: e_val})
        print(step, np.round(l, 5), np.round(c, 5))
    print(np.round(sess.run(W1), 5))
# output
# numeric
# Derivatives of derivatives, compiled: a Jacobian penalty over a few known
# columns (the loop of gradients stays: cheaper compiled than one vectorized
# jacobian) and a gradient penalty on interpolated inputs (WGAN-GP: the critic's
# output is named before the gradient). Each derivative order gets its own tape,
# the first-order tape inside the training step's.
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


N_IN, N_OUT = 3, 2
rng = np.random.RandomState(1)
W1 = tf.Variable(rng.randn(N_IN, 4).astype(np.float32) * 0.5)
W2 = tf.Variable(rng.randn(4, N_OUT).astype(np.float32) * 0.5)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function(input_signature=[tf.TensorSpec([None, N_IN], tf.float32), tf.TensorSpec([None, N_OUT], tf.float32)])
def run_train_op_loss(x, target):
    with tf.GradientTape() as tape:
        with tf.GradientTape(persistent=True) as inner_tape:
            inner_tape.watch(x)
            y = tf.matmul(tf.tanh(tf.matmul(x, W1)), W2)
            rows = [inner_tape.gradient(y[:, i], [x])[0] for i in range(N_OUT)]
        jacobian = tf.stack(rows, axis=1)  # (batch, N_OUT, N_IN)
        penalty = tf.reduce_mean(tf.square(jacobian))
        loss = tf.reduce_mean(tf.square(y - target)) + 0.1 * penalty
    gradients = tape.gradient(loss, [W1, W2])
    optimizer.apply_gradients(zip(gradients, [W1, W2]))
    return [None, loss]


def critic(inputs):
    return tf.reduce_sum(tf.tanh(tf.matmul(inputs, W1)), axis=1)


optimizer_2 = tf.keras.optimizers.SGD(learning_rate=0.01)


@tf.function(input_signature=[tf.TensorSpec([None, N_IN], tf.float32), tf.TensorSpec([None, N_OUT], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_critic_step_critic_loss(x, target, eps):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as inner_tape:
            mixed = eps * x + (1.0 - eps) * target[:, :1]
            inner_tape.watch(mixed)
            critic_mixed = critic(mixed)
        slopes = inner_tape.gradient(critic_mixed, [mixed])[0]  # ys built in the call: named before it
        gp = tf.reduce_mean(tf.square(tf.norm(slopes, axis=1) - 1.0))
        critic_loss = tf.reduce_mean(critic(x)) + 10.0 * gp
    gradients = tape.gradient(critic_loss, [W1])
    optimizer_2.apply_gradients(zip(gradients, [W1]))
    return [None, critic_loss]


x_val = rng.randn(5, N_IN).astype(np.float32)
t_val = rng.randn(5, N_OUT).astype(np.float32)
e_val = rng.uniform(size=(5, 1)).astype(np.float32)
for step in range(3):
    _, l = to_numpy(call_compiled(run_train_op_loss, x=x_val, target=t_val))
    _, c = to_numpy(call_compiled(run_critic_step_critic_loss, x=x_val, target=t_val, eps=e_val))
    print(step, np.round(l, 5), np.round(c, 5))
print(np.round(W1.numpy(), 5))
