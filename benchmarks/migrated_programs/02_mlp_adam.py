# A 2-layer MLP classifier (32 -> 64 -> 10) on batches of 256, trained with Adam.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
N_IN, N_HIDDEN, N_CLASSES, BATCH, N_BATCHES = 32, 64, 10, 256, 8

rng = np.random.RandomState(1)
X_data = rng.randn(BATCH * N_BATCHES, N_IN).astype(np.float32)
labels_data = (np.abs(X_data[:, :N_CLASSES]).argmax(axis=1)).astype(np.int64)

x = tf.placeholder(tf.float32, [None, N_IN], name="x")
labels = tf.placeholder(tf.int64, [None], name="labels")
W1 = tf.Variable(tf.truncated_normal([N_IN, N_HIDDEN], stddev=0.1, seed=1))
b1 = tf.Variable(tf.zeros([N_HIDDEN]))
W2 = tf.Variable(tf.truncated_normal([N_HIDDEN, N_CLASSES], stddev=0.1, seed=2))
b2 = tf.Variable(tf.zeros([N_CLASSES]))
hidden = tf.nn.relu(tf.matmul(x, W1) + b1)
logits = tf.matmul(hidden, W2) + b2
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        i = step % N_BATCHES
        feed = {x: X_data[i * BATCH:(i + 1) * BATCH], labels: labels_data[i * BATCH:(i + 1) * BATCH]}
        start = time.perf_counter()
        _, loss_value = sess.run([train_op, loss], feed_dict=feed)
        times.append(time.perf_counter() - start)
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f" % loss_value)
