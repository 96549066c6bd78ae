# Jacobian of y = A @ x in TF1: there is no tf.jacobian, so loop over the rows
# of y and call tf.gradients once per element (recipe from a Q&A answer).
import numpy as np
import tensorflow as tf

n_y, n_x = 12, 5

x = tf.Variable(tf.random_normal((n_x, 1), seed=1))
A = tf.constant(np.random.RandomState(0).randn(n_y, n_x).astype(np.float32))
y = tf.matmul(A, x)  # (n_y, 1)

# full Jacobian: one gradient per element of y
grads_list = []
for i in range(y.shape[0]):
    grad = tf.gradients(y[i], x)[0]
    # add a leading dim so we can stack
    grads_list.append(tf.expand_dims(grad, axis=0))

jacobian = tf.stack(grads_list)
jacobian = tf.expand_dims(jacobian, axis=1)
# the answer claimed (n_y, 1, n_x, 1); it really is (n_y, 1, 1, n_x, 1)
print(jacobian.shape)

# dy/dx with the shape of y: sum the Jacobian over x's axes
dy_dx = tf.reduce_sum(jacobian, axis=[2, 3, 4])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    J, d, x_val = sess.run([jacobian, dy_dx, x])
    print("x =", np.round(x_val.ravel(), 4))
    print("J[:3] =\n", np.round(J[:3, 0, 0, :, 0], 4))
    print("A[:3] =\n", np.round(sess.run(A)[:3], 4))
    print("dy/dx =", np.round(d.ravel(), 4))
    print("row sums of A match:", np.allclose(d.ravel(), sess.run(A).sum(axis=1)))
