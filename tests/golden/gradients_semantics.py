# numeric
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, (None, 3))
y = 2 * x ** 2
z = tf.stack([y, y])
w = tf.placeholder(tf.float32, (None, 3))
unused = tf.placeholder(tf.float32, (3,))
# tf.gradients sums over every y: stacking y twice doubles the result
dy_dx = tf.gradients(y, x)
dz_dx = tf.gradients(z, x)
weighted = tf.gradients(y, [x], grad_ys=w)
partial = tf.gradients(y * x, x, stop_gradients=[y])
zeros = tf.gradients(y, [x, unused], unconnected_gradients=tf.UnconnectedGradients.ZERO)
with tf.Session() as sess:
    x_val = np.arange(12.0).reshape(4, 3)
    a, b = sess.run([dy_dx, dz_dx], {x: x_val})
    print(a[0], b[0])
    print(sess.run(weighted, {x: x_val, w: np.ones((4, 3)) * 0.5})[0])
    print(sess.run(partial, {x: x_val})[0])
    print(sess.run(zeros, {x: x_val, unused: np.ones(3)})[1])
# output
# numeric
import numpy as np
import tensorflow as tf


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


@tf.function(input_signature=[tf.TensorSpec((None, 3), tf.float32)])
def run_dy_dx_dz_dx(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = 2 * x ** 2
        z = tf.stack([y, y])
    # tf.gradients sums over every y: stacking y twice doubles the result
    dy_dx = tape.gradient(y, [x])
    dz_dx = tape.gradient(z, [x])
    return [dy_dx, dz_dx]


@tf.function(input_signature=[tf.TensorSpec((None, 3), tf.float32), tf.TensorSpec((None, 3), tf.float32)])
def run_weighted(x, w):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = 2 * x ** 2
    weighted = tape.gradient(y, [x], output_gradients=w)
    return weighted


@tf.function(input_signature=[tf.TensorSpec((None, 3), tf.float32)])
def run_partial(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = 2 * x ** 2
        y = tf.stop_gradient(y)
        ys = y * x
    partial = tape.gradient(ys, [x])
    return partial


@tf.function(input_signature=[tf.TensorSpec((None, 3), tf.float32), tf.TensorSpec((3,), tf.float32)])
def run_zeros(x, unused):
    with tf.GradientTape() as tape:
        tape.watch(x)
        tape.watch(unused)
        y = 2 * x ** 2
    zeros = tape.gradient(y, [x, unused], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return zeros


x_val = np.arange(12.0).reshape(4, 3)
a, b = to_numpy(run_dy_dx_dz_dx(x=x_val))
print(a[0], b[0])
print(to_numpy(run_weighted(x=x_val, w=np.ones((4, 3)) * 0.5))[0])
print(to_numpy(run_partial(x=x_val))[0])
print(to_numpy(run_zeros(x=x_val, unused=np.ones(3)))[1])
