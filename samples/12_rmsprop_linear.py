# RMSPropOptimizer with its TF1 defaults (decay=0.9, epsilon=1e-10) on a tiny
# linear model; the learning rate decays with tf.train.exponential_decay.
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
x_train = rng.uniform(-1, 1, size=(80, 1)).astype(np.float32)
y_train = -1.5 * x_train + 0.3

x = tf.placeholder(tf.float32, shape=(None, 1))
y = tf.placeholder(tf.float32, shape=(None, 1))
W = tf.get_variable("W", shape=(1, 1), initializer=tf.zeros_initializer())
b = tf.get_variable("b", shape=(1,), initializer=tf.zeros_initializer())
loss = tf.reduce_mean((tf.matmul(x, W) + b - y) ** 2)

global_step = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.05, global_step, decay_steps=10, decay_rate=0.5, staircase=True)
opt = tf.train.RMSPropOptimizer(lr)
train_op = opt.minimize(loss, global_step=global_step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(30):
        loss_val, _ = sess.run([loss, train_op], feed_dict={x: x_train, y: y_train})
        if i % 5 == 4:
            print("iter {:2d} lr {:.5f} loss {:.6f}".format(i + 1, sess.run(lr), loss_val))
    print("W, b =", sess.run(W)[0, 0].round(4), sess.run(b)[0].round(4))
