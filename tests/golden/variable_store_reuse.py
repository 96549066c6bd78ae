# numeric
import numpy as np
import tensorflow as tf


def tower(inputs, reuse=False):
    with tf.variable_scope("tower", reuse=reuse):
        w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(0.5))
        return tf.matmul(inputs, w)


a = tf.placeholder(tf.float32, [None, 3])
b = tf.placeholder(tf.float32, [None, 3])
gap = tf.reduce_sum(tower(a) - tower(b, reuse=True))
with tf.variable_scope("tower", reuse=True):
    shared = tf.get_variable("w")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(gap, {a: np.ones((2, 3)), b: np.zeros((2, 3))}))
    print(sess.run(shared))
# output
# numeric
import numpy as np
import tensorflow as tf


tower_w = tf.Variable(tf.constant_initializer(0.5)([3, 2]), name="tower/w")


def tower(inputs):
    w = tower_w
    return tf.matmul(inputs, w)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 3], tf.float32)])
def run_gap(a, b):
    gap = tf.reduce_sum(tower(a) - tower(b))
    return gap


shared = tower_w
print(run_gap(a=np.ones((2, 3)), b=np.zeros((2, 3))).numpy())
print(shared.numpy())
