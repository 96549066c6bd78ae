# Checkpoints with tf.train.Saver: train a little, save, keep training, then
# restore the saved values (into a temporary directory here).
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

ckpt_dir = tempfile.mkdtemp()
ckpt_path = os.path.join(ckpt_dir, "model.ckpt")

x = tf.placeholder(tf.float32, [None, 1])
y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable([[0.0]], name="W")
b = tf.Variable([0.0], name="b")
loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
saver = tf.train.Saver()

xs = np.linspace(0, 1, 20).reshape(-1, 1).astype(np.float32)
ys = 4.0 * xs - 1.0

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(20):
        sess.run(train_op, feed_dict={x: xs, y: ys})
    save_path = saver.save(sess, ckpt_path)
    print("saved:", os.path.basename(save_path), "W =", sess.run(W).ravel())
    for _ in range(20):
        sess.run(train_op, feed_dict={x: xs, y: ys})
    print("after more training W =", sess.run(W).ravel())

with tf.Session() as sess:
    saver.restore(sess, ckpt_path)
    print("restored W =", sess.run(W).ravel(), "b =", sess.run(b))
    print("restored loss %.5f" % sess.run(loss, feed_dict={x: xs, y: ys}))

shutil.rmtree(ckpt_dir)
