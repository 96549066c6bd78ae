# numeric
# tf.map_fn over indices (tf.range), as a lambda and as a def: one vectorized
# Jacobian each; the def is removed, since only map_fn used it.
import numpy as np
import tensorflow as tf

A_val = np.random.RandomState(0).randn(6, 4).astype(np.float32)
x = tf.Variable(np.linspace(0.5, 2.0, 4).reshape(4, 1).astype(np.float32))
A = tf.constant(A_val)
y = tf.matmul(tf.tanh(A), x ** 2)  # (6, 1)


def row_grad(i):
    """d y[i, 0] / d x"""
    return tf.gradients(y[i, 0], x)[0]


jacobian = tf.map_fn(row_grad, tf.range(6), dtype=tf.float32)  # (6, 4, 1)
jacobian = tf.reshape(jacobian, [6, 1, 4, 1])
every_other = tf.map_fn(lambda i: tf.gradients(y[i], x)[0], tf.range(0, 6, 2), dtype=tf.float32)
y_flat = tf.reshape(y, [-1])
flat = tf.map_fn(lambda k: tf.gradients(y_flat[k], A)[0], tf.range(tf.size(y_flat)), dtype=tf.float32)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    J, E, F = sess.run([jacobian, every_other, flat])
    print(J.shape, np.round(J[:2, 0, :, 0], 5))
    print(E.shape, np.round(E[:, :, 0], 5))
    print(F.shape, np.round(F[1], 5))
# output
# numeric
# tf.map_fn over indices (tf.range), as a lambda and as a def: one vectorized
# Jacobian each; the def is removed, since only map_fn used it.
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


A_val = np.random.RandomState(0).randn(6, 4).astype(np.float32)
x = tf.Variable(np.linspace(0.5, 2.0, 4).reshape(4, 1).astype(np.float32))


@tf.function
def run_jacobian_every_other_flat():
    with tf.GradientTape(persistent=True) as tape:
        A = tf.constant(A_val)
        tape.watch(A)
        y = tf.matmul(tf.tanh(A), x ** 2)  # (6, 1)
        y_row_sums = y[:6, 0]
        jacobian = tape.jacobian(y_row_sums, x)  # (6, 4, 1)
        jacobian = tf.reshape(jacobian, [6, 1, 4, 1])
        y_row_sums_2 = tf.reduce_sum(y, axis=1)[:6:2]
        every_other = tape.jacobian(y_row_sums_2, x)
        y_flat = tf.reshape(y, [-1])
        flat = tape.jacobian(y_flat, A)
    return [jacobian, every_other, flat]


J, E, F = to_numpy(run_jacobian_every_other_flat())
print(J.shape, np.round(J[:2, 0, :, 0], 5))
print(E.shape, np.round(E[:, :, 0], 5))
print(F.shape, np.round(F[1], 5))
