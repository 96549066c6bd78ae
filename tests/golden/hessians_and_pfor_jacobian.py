# numeric
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.parallel_for.gradients import batch_jacobian, jacobian

x = tf.placeholder(tf.float32, [3])
A = tf.constant(np.arange(12.0).reshape(4, 3), tf.float32)
y = tf.tanh(tf.linalg.matvec(A, x))
energy = tf.reduce_sum(x ** 3) + tf.reduce_prod(x)
hess = tf.hessians(energy, x)
jac = jacobian(y, x)
batch = tf.placeholder(tf.float32, [None, 2])
per_example = batch_jacobian(tf.sin(batch) * batch, batch)
with tf.Session() as sess:
    x_val = np.array([0.1, -0.2, 0.3])
    h, j = sess.run([hess, jac], {x: x_val})
    print(np.round(h[0], 5))
    print(j.shape, np.round(j, 5))
    print(np.round(sess.run(per_example, {batch: np.ones((2, 2))}), 5))
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


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_hess_jac(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.GradientTape(persistent=True) as inner_tape:
            inner_tape.watch(x)
            A = tf.constant(np.arange(12.0).reshape(4, 3), tf.float32)
            y = tf.tanh(tf.linalg.matvec(A, x))
            energy = tf.reduce_sum(x ** 3) + tf.reduce_prod(x)
        denergy_dx = inner_tape.gradient(energy, [x])[0]
    hess = [tape.jacobian(denergy_dx, x)]
    jac = inner_tape.jacobian(y, x)
    return [hess, jac]


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def run_per_example(batch):
    with tf.GradientTape() as tape:
        tape.watch(batch)
        ys = tf.sin(batch) * batch
    per_example = tape.batch_jacobian(ys, batch)
    return per_example


x_val = np.array([0.1, -0.2, 0.3])
h, j = to_numpy(run_hess_jac(x=x_val))
print(np.round(h[0], 5))
print(j.shape, np.round(j, 5))
print(np.round(run_per_example(batch=np.ones((2, 2))).numpy(), 5))
