# A small CNN built with tf.layers (conv2d, max_pooling2d, flatten, dense) on
# 16x16 single-channel images, batches of 32, trained with Momentum.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
SIZE, N_CLASSES, BATCH, N_BATCHES = 16, 10, 32, 8

rng = np.random.RandomState(2)
images_data = rng.rand(BATCH * N_BATCHES, SIZE, SIZE, 1).astype(np.float32)
labels_data = (images_data.reshape(BATCH * N_BATCHES, -1)[:, :N_CLASSES].argmax(axis=1)).astype(np.int64)

images = tf.placeholder(tf.float32, [None, SIZE, SIZE, 1], name="images")
labels = tf.placeholder(tf.int64, [None], name="labels")
net = tf.layers.conv2d(images, 8, 3, padding="same", activation=tf.nn.relu, name="conv1")
net = tf.layers.max_pooling2d(net, 2, 2, name="pool1")
net = tf.layers.conv2d(net, 16, 3, padding="same", activation=tf.nn.relu, name="conv2")
net = tf.layers.max_pooling2d(net, 2, 2, name="pool2")
net = tf.layers.flatten(net)
logits = tf.layers.dense(net, N_CLASSES, name="logits")
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train_op = tf.train.MomentumOptimizer(0.01, momentum=0.9).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        i = step % N_BATCHES
        feed = {images: images_data[i * BATCH:(i + 1) * BATCH], labels: labels_data[i * BATCH:(i + 1) * BATCH]}
        start = time.perf_counter()
        _, loss_value = sess.run([train_op, loss], feed_dict=feed)
        times.append(time.perf_counter() - start)
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f" % loss_value)
