# Sharing weights with tf.variable_scope and get_variable(reuse=...): a siamese
# tower applied to two inputs, plus an explicit reuse_variables() call.
import numpy as np
import tensorflow as tf


def tower(inputs, reuse=False):
    with tf.variable_scope("tower", reuse=reuse):
        w = tf.get_variable("w", [3, 2], initializer=tf.random_normal_initializer(stddev=0.5, seed=3))
        b = tf.get_variable("b", [2], initializer=tf.constant_initializer(0.1))
        return tf.nn.sigmoid(tf.matmul(inputs, w) + b)


left = tf.placeholder(tf.float32, [None, 3])
right = tf.placeholder(tf.float32, [None, 3])
out_left = tower(left)
out_right = tower(right, reuse=True)  # same weights
distance = tf.reduce_sum(tf.square(out_left - out_right), axis=1)

with tf.variable_scope("head") as scope:
    v = tf.get_variable("v", [2], initializer=tf.ones_initializer())
    scope.reuse_variables()
    v_again = tf.get_variable("v")

print("shared:", tf.get_variable_scope().name == "", len(tf.trainable_variables()), "variables")
print("same variable:", v is v_again)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    rng = np.random.RandomState(0)
    a, b = rng.rand(4, 3), rng.rand(4, 3)
    print("distance:", np.round(sess.run(distance, {left: a, right: b}), 5))
    print("distance to itself:", sess.run(distance, {left: a, right: a}))
    with tf.variable_scope("tower", reuse=True):
        print("w:\n", np.round(sess.run(tf.get_variable("w")), 5))
