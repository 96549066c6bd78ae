# R3: an optimizer class passed in, a graph built in __init__, runs of instance members from
# module code: the analysis does not know what `make_opt(0.05)` builds, nor what `net.step` is,
# so the file stays in compat mode with the reasons at their lines.
import numpy as np
import tensorflow as tf


class Net:
    def __init__(self, make_opt):
        self.x = tf.placeholder(tf.float32, [None, 1])
        self.y = tf.placeholder(tf.float32, [None, 1])
        self.w = tf.Variable(tf.ones([1, 1]))
        self.loss = tf.reduce_mean(tf.square(tf.matmul(self.x, self.w) - self.y))
        self.step = make_opt(0.05).minimize(self.loss)


nets = [Net(tf.train.GradientDescentOptimizer), Net(tf.train.AdamOptimizer)]
X = np.arange(4, dtype=np.float32).reshape(4, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for net in nets:
        for i in range(3):
            _, l = sess.run([net.step, net.loss], {net.x: X, net.y: 3 * X})
            print(l)
# output
# R3: an optimizer class passed in, a graph built in __init__, runs of instance members from
# module code: the analysis does not know what `make_opt(0.05)` builds, nor what `net.step` is,
# so the file stays in compat mode with the reasons at their lines.
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()


class Net:
    def __init__(self, make_opt):
        self.x = tf.placeholder(tf.float32, [None, 1])
        self.y = tf.placeholder(tf.float32, [None, 1])
        self.w = tf.Variable(tf.ones([1, 1]))
        self.loss = tf.reduce_mean(tf.square(tf.matmul(self.x, self.w) - self.y))
        self.step = make_opt(0.05).minimize(self.loss)


nets = [Net(tf.train.GradientDescentOptimizer), Net(tf.train.AdamOptimizer)]
X = np.arange(4, dtype=np.float32).reshape(4, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for net in nets:
        for i in range(3):
            _, l = sess.run([net.step, net.loss], {net.x: X, net.y: 3 * X})
            print(l)
