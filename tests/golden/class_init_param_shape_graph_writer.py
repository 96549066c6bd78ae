# numeric
import tempfile

import numpy as np
import tensorflow as tf

LOGDIR = tempfile.mkdtemp()


class Critic(object):
    """AC_CartPole-style: the state placeholder's width is a constructor argument."""

    def __init__(self, sess, n_features, lr=0.1):
        self.sess = sess
        self.s = tf.placeholder(tf.float32, [1, n_features], "state")
        self.w = tf.Variable(np.full((n_features, 1), 0.5, np.float32))
        self.v = tf.matmul(self.s, self.w)
        self.train_op = tf.train.GradientDescentOptimizer(lr).minimize(tf.reduce_sum(tf.square(self.v - 1.0)))

    def learn(self, s):
        _, v = self.sess.run([self.train_op, self.v], {self.s: s[np.newaxis, :]})
        return v


sess = tf.Session()
critic = Critic(sess, n_features=3)
sess.run(tf.global_variables_initializer())
if LOGDIR:
    tf.summary.FileWriter(LOGDIR, sess.graph)
for step in range(3):
    print(critic.learn(np.arange(3.0, dtype=np.float32)))
# output
# numeric
import tempfile

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


LOGDIR = tempfile.mkdtemp()


class Critic(object):
    """AC_CartPole-style: the state placeholder's width is a constructor argument."""

    def __init__(self, n_features, lr=0.1):
        self.w = tf.Variable(np.full((n_features, 1), 0.5, np.float32))
        optimizer = tf.keras.optimizers.SGD(learning_rate=lr)
        self.optimizer = optimizer

    @tf.function
    def run_train_op_v(self, s):
        s = tf.cast(s, tf.float32)
        with tf.GradientTape(persistent=True) as tape:
            v = tf.matmul(s, self.w)
            gradients = tape.gradient(tf.reduce_sum(tf.square(v - 1.0)), [self.w])
            self.optimizer.apply_gradients(zip(gradients, [self.w]))
        return [None, v]

    def learn(self, s):
        _, v = to_numpy(self.run_train_op_v(s=tf.cast(s[np.newaxis, :], tf.float32)))
        return v


critic = Critic(n_features=3)
if LOGDIR:
    tf.summary.create_file_writer(LOGDIR)
for step in range(3):
    print(critic.learn(np.arange(3.0, dtype=np.float32)))
