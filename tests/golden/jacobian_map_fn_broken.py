# BROKEN ON PURPOSE: map_fn over y's values cuts each value off from x, and TF1
# fails at run time. Left as it is (compat mode), with a warning naming the rewrite.
import numpy as np
import tensorflow as tf

x = tf.Variable(np.ones((5, 1), np.float32))
A = tf.constant(np.arange(50.0).reshape(10, 5), tf.float32)
y = tf.matmul(A, x)


def single_element_grad(y_element):
    return tf.gradients(y_element, x)[0]


per_element_grads = tf.map_fn(single_element_grad, tf.squeeze(y))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(per_element_grads)[:2])
# output
# BROKEN ON PURPOSE: map_fn over y's values cuts each value off from x, and TF1
# fails at run time. Left as it is (compat mode), with a warning naming the rewrite.
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()

x = tf.Variable(np.ones((5, 1), np.float32))
A = tf.constant(np.arange(50.0).reshape(10, 5), tf.float32)
y = tf.matmul(A, x)


def single_element_grad(y_element):
    return tf.gradients(y_element, x)[0]


per_element_grads = tf.map_fn(single_element_grad, tf.squeeze(y))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(per_element_grads)[:2])
