# TensorBoard logging in TF1: scalar + histogram summaries merged with
# merge_all() and written by a FileWriter (into a temporary log dir here).
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

logdir = tempfile.mkdtemp()

x = tf.placeholder(tf.float32, [None])
w = tf.Variable(0.0, name="w")
loss = tf.reduce_mean(tf.square(w * x - 2.0 * x))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

tf.summary.scalar("loss", loss)
tf.summary.scalar("w", w)
tf.summary.histogram("inputs", x)
merged = tf.summary.merge_all()

data = np.random.RandomState(0).rand(10).astype(np.float32) + 1.0
with tf.Session() as sess:
    writer = tf.summary.FileWriter(logdir, sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(10):
        summary, _, l = sess.run([merged, train_op, loss], feed_dict={x: data})
        writer.add_summary(summary, step)
        if step % 3 == 0:
            print("step %d loss %.5f" % (step, l))
    writer.close()
    print("w = %.5f" % sess.run(w))

print("event files written:", len([f for f in os.listdir(logdir) if f.startswith("events.out")]))
shutil.rmtree(logdir)
