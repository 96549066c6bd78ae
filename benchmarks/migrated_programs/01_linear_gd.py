# Linear regression trained with plain gradient descent on minibatches of 128.
# The data is float64 numpy, as quick scripts make it; the placeholders are float32.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
N_FEATURES, BATCH, N_BATCHES = 8, 128, 16

rng = np.random.RandomState(0)
true_w = rng.randn(N_FEATURES, 1)
X_data = rng.randn(BATCH * N_BATCHES, N_FEATURES)
Y_data = X_data.dot(true_w) + 0.1 * rng.randn(BATCH * N_BATCHES, 1)

x = tf.placeholder(tf.float32, [None, N_FEATURES])
y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(tf.zeros([N_FEATURES, 1]))
b = tf.Variable(0.0)
loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        i = step % N_BATCHES
        x_batch, y_batch = X_data[i * BATCH:(i + 1) * BATCH], Y_data[i * BATCH:(i + 1) * BATCH]
        start = time.perf_counter()
        _, loss_value = sess.run([train_op, loss], feed_dict={x: x_batch, y: y_batch})
        times.append(time.perf_counter() - start)
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f" % loss_value)
