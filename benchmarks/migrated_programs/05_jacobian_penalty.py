# An MLP regressor (8 -> 32 -> 4) whose loss adds a penalty on its input-output
# Jacobian, built row by row with a loop of tf.gradients (each output column's
# gradient with respect to the input; the examples do not mix, so each row is
# per example). Batches of 64, Adam.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
N_IN, N_HIDDEN, N_OUT, BATCH, N_BATCHES = 8, 32, 4, 64, 8

rng = np.random.RandomState(4)
X_data = rng.randn(BATCH * N_BATCHES, N_IN).astype(np.float32)
Y_data = np.tanh(X_data.dot(rng.randn(N_IN, N_OUT))).astype(np.float32)

x = tf.placeholder(tf.float32, [None, N_IN], name="x")
y_true = tf.placeholder(tf.float32, [None, N_OUT], name="y_true")
W1 = tf.Variable(tf.random_normal([N_IN, N_HIDDEN], stddev=0.3, seed=1))
b1 = tf.Variable(tf.zeros([N_HIDDEN]))
W2 = tf.Variable(tf.random_normal([N_HIDDEN, N_OUT], stddev=0.3, seed=2))
y = tf.matmul(tf.tanh(tf.matmul(x, W1) + b1), W2)

rows = [tf.gradients(y[:, i], x)[0] for i in range(N_OUT)]
jacobian = tf.stack(rows, axis=1)  # (batch, N_OUT, N_IN)
penalty = tf.reduce_mean(tf.square(jacobian))
loss = tf.reduce_mean(tf.square(y - y_true)) + 0.1 * penalty
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        i = step % N_BATCHES
        feed = {x: X_data[i * BATCH:(i + 1) * BATCH], y_true: Y_data[i * BATCH:(i + 1) * BATCH]}
        start = time.perf_counter()
        _, loss_value = sess.run([train_op, loss], feed_dict=feed)
        times.append(time.perf_counter() - start)
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f" % loss_value)
