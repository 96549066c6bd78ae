# numeric
# The seed recipe: one tf.gradients per element of y, expand_dims, stack. The
# shape it really has is (12, 1, 1, 5, 1); the vectorized form keeps it.
import numpy as np
import tensorflow as tf

n_y, n_x = 12, 5
x = tf.Variable(np.linspace(-1.0, 1.0, n_x).reshape(n_x, 1).astype(np.float32))
A = tf.constant(np.random.RandomState(0).randn(n_y, n_x).astype(np.float32))
y = tf.tanh(tf.matmul(A, x))  # (n_y, 1)

grads_list = []
for i in range(y.shape[0]):
    grad = tf.gradients(y[i], x)[0]
    # add a leading dim so we can stack
    grads_list.append(tf.expand_dims(grad, axis=0))

jacobian = tf.stack(grads_list)
jacobian = tf.expand_dims(jacobian, axis=1)
dy_dx = tf.reduce_sum(jacobian, axis=[2, 3, 4])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    J, d = sess.run([jacobian, dy_dx])
    print(J.shape, np.round(J[:3, 0, 0, :, 0], 5))
    print(np.round(d.ravel(), 5))
# output
# numeric
# The seed recipe: one tf.gradients per element of y, expand_dims, stack. The
# shape it really has is (12, 1, 1, 5, 1); the vectorized form keeps it.
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


n_y, n_x = 12, 5
x = tf.Variable(np.linspace(-1.0, 1.0, n_x).reshape(n_x, 1).astype(np.float32))


@tf.function
def run_jacobian_dy_dx():
    with tf.GradientTape() as tape:
        A = tf.constant(np.random.RandomState(0).randn(n_y, n_x).astype(np.float32))
        y = tf.tanh(tf.matmul(A, x))  # (n_y, 1)
        y_row_sums = tf.reduce_sum(y, axis=1)
    # add a leading dim so we can stack
    grads_list = tf.expand_dims(tape.jacobian(y_row_sums, x), axis=1)
    jacobian = grads_list
    jacobian = tf.expand_dims(jacobian, axis=1)
    dy_dx = tf.reduce_sum(jacobian, axis=[2, 3, 4])
    return [jacobian, dy_dx]


J, d = to_numpy(run_jacobian_dy_dx())
print(J.shape, np.round(J[:3, 0, 0, :, 0], 5))
print(np.round(d.ravel(), 5))
