# A tiny CNN: conv2d + max_pooling2d + dropout + dense, as in the TF1 layers
# tutorial. Dropout is active only while training (placeholder flag), so its
# random mask is drawn anew at every training step.
import numpy as np
import tensorflow as tf

tf.set_random_seed(1)
rng = np.random.RandomState(0)
images = rng.rand(16, 8, 8, 1).astype(np.float32)
targets = (images[:, :4].mean(axis=(1, 2, 3)) > images[:, 4:].mean(axis=(1, 2, 3))).astype(np.int32)

x = tf.placeholder(tf.float32, [None, 8, 8, 1])
y = tf.placeholder(tf.int32, [None])
training = tf.placeholder(tf.bool, name="training")

conv1 = tf.layers.conv2d(inputs=x, filters=4, kernel_size=[3, 3], padding="same", activation=tf.nn.relu)
pool1 = tf.layers.max_pooling2d(inputs=conv1, pool_size=[2, 2], strides=2)
flat = tf.reshape(pool1, [-1, 4 * 4 * 4])
dense = tf.layers.dense(inputs=flat, units=16, activation=tf.nn.relu)
dropout = tf.layers.dropout(inputs=dense, rate=0.4, training=training)
logits = tf.layers.dense(inputs=dropout, units=2)

loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(20):
        sess.run(train_op, feed_dict={x: images, y: targets, training: True})
        if step % 5 == 0:
            # evaluation with dropout off
            print("step %d eval loss %.5f" % (step, sess.run(loss, {x: images, y: targets, training: False})))
