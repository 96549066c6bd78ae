# A tiny 1-D GAN: two optimizers, each restricted to its own scope's variables
# through var_list=tf.get_collection(..., scope=...). Noise comes from numpy.
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
BATCH = 16


def generator(z):
    with tf.variable_scope("generator"):
        h = tf.layers.dense(z, 8, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(np.linspace(-1, 1, 8)))
        return tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(0.5))


def discriminator(x, reuse=False):
    with tf.variable_scope("discriminator", reuse=reuse):
        h = tf.layers.dense(x, 8, activation=tf.nn.tanh, kernel_initializer=tf.constant_initializer(np.linspace(0.5, -0.5, 8)))
        # A non-zero bias: with D's outputs exactly 0 at the start, its bias gradient is 0 up to
        # rounding, and Adam's first step (g / (|g| + eps)) would turn that rounding into a real step.
        return tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(0.3),
                               bias_initializer=tf.constant_initializer(0.1))


z = tf.placeholder(tf.float32, [None, 1], name="z")
real = tf.placeholder(tf.float32, [None, 1], name="real")

fake = generator(z)
d_real = discriminator(real)
d_fake = discriminator(fake, reuse=True)

d_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=d_real, labels=tf.ones_like(d_real))) + \
    tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=d_fake, labels=tf.zeros_like(d_fake)))
g_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=d_fake, labels=tf.ones_like(d_fake)))

g_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="generator")
d_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="discriminator")
d_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(d_loss, var_list=d_vars)
g_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(g_loss, var_list=g_vars)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(40):
        real_batch = rng.normal(3.0, 0.5, size=(BATCH, 1))
        noise = rng.uniform(-1, 1, size=(BATCH, 1))
        _, dl = sess.run([d_train, d_loss], feed_dict={z: noise, real: real_batch})
        _, gl = sess.run([g_train, g_loss], feed_dict={z: noise})
        if step % 10 == 0:
            print("step %2d d_loss %.5f g_loss %.5f" % (step, dl, gl))
    samples = sess.run(fake, feed_dict={z: np.linspace(-1, 1, 5)[:, None]})
    print("generated:", np.round(samples.ravel(), 4))
    print("g vars:", [list(map(int, v.shape)) for v in g_vars])
