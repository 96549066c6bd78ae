# BROKEN ON PURPOSE. A recipe that circulates for "dy/dx with the shape of y":
# map a gradient function over the elements of y. It fails at run time:
#   Could not write to TensorArray index 0 because it has already been read.
# (map_fn feeds each element through a TensorArray, which disconnects it from x;
# map over indices, tf.range(n), instead - see 16_per_example_jacobian.py)
import numpy as np
import tensorflow as tf

x = tf.Variable(tf.random_normal((50, 1), seed=1))
A = tf.constant(np.random.RandomState(0).randn(100, 50).astype(np.float32))
y = tf.matmul(A, x)  # (100, 1)


def single_element_grad(y_element):
    return tf.gradients(y_element, x)[0]


per_element_grads = tf.map_fn(single_element_grad, tf.squeeze(y))
dy_dx = tf.expand_dims(tf.reduce_sum(per_element_grads, axis=1), axis=1)
print(dy_dx.shape)  # (100, 1)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(dy_dx)[:5])
