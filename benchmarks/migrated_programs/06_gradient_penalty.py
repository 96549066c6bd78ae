# A WGAN-GP style critic update: the penalty is (||d critic / d x_hat|| - 1)^2 at
# points between real and fake samples, so the train op differentiates through a
# tf.gradients (double backprop). Real, fake and mixing weights come from numpy.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
DIM, N_HIDDEN, BATCH = 16, 64, 64

rng = np.random.RandomState(5)
W1 = tf.Variable(tf.random_normal([DIM, N_HIDDEN], stddev=0.2, seed=1))
b1 = tf.Variable(tf.zeros([N_HIDDEN]))
W2 = tf.Variable(tf.random_normal([N_HIDDEN, 1], stddev=0.2, seed=2))


def critic(inputs):
    return tf.matmul(tf.nn.softplus(tf.matmul(inputs, W1) + b1), W2)


real = tf.placeholder(tf.float32, [None, DIM], name="real")
fake = tf.placeholder(tf.float32, [None, DIM], name="fake")
epsilon = tf.placeholder(tf.float32, [None, 1], name="epsilon")
x_hat = epsilon * real + (1.0 - epsilon) * fake
grad = tf.gradients(critic(x_hat), [x_hat])[0]
grad_norm = tf.sqrt(tf.reduce_sum(tf.square(grad), axis=1) + 1e-12)
gradient_penalty = tf.reduce_mean(tf.square(grad_norm - 1.0))
loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + 10.0 * gradient_penalty
train_op = tf.train.AdamOptimizer(1e-4, beta1=0.5, beta2=0.9).minimize(loss)

batches = [
    (rng.randn(BATCH, DIM).astype(np.float32) + 1.0, rng.randn(BATCH, DIM).astype(np.float32),
     rng.uniform(size=(BATCH, 1)).astype(np.float32))
    for _ in range(8)
]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        real_batch, fake_batch, eps_batch = batches[step % len(batches)]
        start = time.perf_counter()
        _, loss_value = sess.run([train_op, loss], feed_dict={real: real_batch, fake: fake_batch, epsilon: eps_batch})
        times.append(time.perf_counter() - start)
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f" % loss_value)
