# Batch normalization with a training flag: placeholder_with_default(False), fed
# True in the training step; the moving averages are updated by UPDATE_OPS, on
# which the train op depends. The last line also gives the inference loss, which
# reads the moving averages.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
N_IN, N_HIDDEN, BATCH, N_BATCHES = 16, 32, 64, 8

rng = np.random.RandomState(3)
X_data = (rng.randn(BATCH * N_BATCHES, N_IN) * np.linspace(0.1, 5.0, N_IN) + 2.0).astype(np.float32)
y_data = (X_data[:, :1] - 0.3 * X_data[:, 1:2] > 1.0).astype(np.float32)

x = tf.placeholder(tf.float32, [None, N_IN], name="x")
y = tf.placeholder(tf.float32, [None, 1], name="y")
training = tf.placeholder_with_default(False, [], name="training")

h = tf.layers.dense(x, N_HIDDEN, use_bias=False, name="hidden")
h = tf.layers.batch_normalization(h, training=training, momentum=0.9, name="bn")
h = tf.nn.relu(h)
logits = tf.layers.dense(h, 1, name="logits")
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))

update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        i = step % N_BATCHES
        feed = {x: X_data[i * BATCH:(i + 1) * BATCH], y: y_data[i * BATCH:(i + 1) * BATCH], training: True}
        start = time.perf_counter()
        _, loss_value = sess.run([train_op, loss], feed_dict=feed)
        times.append(time.perf_counter() - start)
    eval_loss = sess.run(loss, feed_dict={x: X_data, y: y_data})
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f %.6f" % (loss_value, eval_loss))
