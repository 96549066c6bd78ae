# A small GAN on a 2-D Gaussian: generator and discriminator built with
# tf.layers under variable scopes (the discriminator reused for fake samples),
# two Adam optimizers whose var_lists are the trainable variables of each scope. One timed step is a discriminator update and a generator update.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
Z_DIM, DATA_DIM, N_HIDDEN, BATCH = 8, 2, 32, 64

rng = np.random.RandomState(7)


def generator(z):
    with tf.variable_scope("generator"):
        h = tf.layers.dense(z, N_HIDDEN, activation=tf.nn.relu, name="h")
        return tf.layers.dense(h, DATA_DIM, name="out")


def discriminator(samples, reuse=False):
    with tf.variable_scope("discriminator", reuse=reuse):
        h = tf.layers.dense(samples, N_HIDDEN, activation=tf.nn.tanh, name="h")
        return tf.layers.dense(h, 1, name="out")


z = tf.placeholder(tf.float32, [None, Z_DIM], name="z")
real = tf.placeholder(tf.float32, [None, DATA_DIM], name="real")
fake = generator(z)
d_real = discriminator(real)
d_fake = discriminator(fake, reuse=True)

d_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=d_real, labels=tf.ones_like(d_real))) + \
    tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=d_fake, labels=tf.zeros_like(d_fake)))
g_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=d_fake, labels=tf.ones_like(d_fake)))

d_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="discriminator")
g_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="generator")
d_train = tf.train.AdamOptimizer(2e-4, beta1=0.5).minimize(d_loss, var_list=d_vars)
g_train = tf.train.AdamOptimizer(2e-4, beta1=0.5).minimize(g_loss, var_list=g_vars)

batches = [
    (rng.normal([2.0, -1.0], 0.5, size=(BATCH, DATA_DIM)).astype(np.float32),
     rng.uniform(-1, 1, size=(BATCH, Z_DIM)).astype(np.float32))
    for _ in range(8)
]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        real_batch, noise = batches[step % len(batches)]
        start = time.perf_counter()
        _, d_loss_value = sess.run([d_train, d_loss], feed_dict={z: noise, real: real_batch})
        _, g_loss_value = sess.run([g_train, g_loss], feed_dict={z: noise})
        times.append(time.perf_counter() - start)
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f %.6f" % (d_loss_value, g_loss_value))
