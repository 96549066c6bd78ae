# Variables, get_variable with initializers, and assign ops.
import numpy as np
import tensorflow as tf

W = tf.Variable(tf.zeros([2, 2]), name="W")
step = tf.Variable(0, name="step", trainable=False)
bias = tf.get_variable("bias", shape=[2], initializer=tf.constant_initializer(0.5))
ones = tf.get_variable("ones", shape=[2, 2], initializer=tf.ones_initializer())
v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0, 3.0]))

set_W = tf.assign(W, [[1.0, 2.0], [3.0, 4.0]])
bump = tf.assign_add(step, 1)
shrink = W.assign(W * 0.5)
grow_v = v.assign_add(tf.ones_like(v))
sub_bias = tf.assign_sub(bias, [0.1, 0.2])

init = tf.global_variables_initializer()

with tf.Session() as sess:
    sess.run(init)
    print("W0 =", sess.run(W).tolist())
    sess.run(set_W)
    for i in range(3):
        # the value of an assign op is the variable's new value
        print("step", sess.run(bump), "W =", sess.run(shrink).tolist())
    print("bias:", sess.run(sub_bias))
    print("v:", sess.run(grow_v), sess.run(grow_v))
    print("W + ones:", sess.run(W + ones).tolist())
    print("trainable:", [var.name for var in tf.trainable_variables()])
