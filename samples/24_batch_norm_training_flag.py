# tf.layers.batch_normalization with an is_training placeholder. The moving
# averages are updated by ops in the UPDATE_OPS collection, which the train op
# must depend on (the classic TF1 gotcha).
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X_data = (rng.randn(64, 3) * [1.0, 5.0, 0.1] + [0.0, 10.0, -3.0]).astype(np.float32)
y_data = (X_data[:, :1] - 0.2 * X_data[:, 1:2] > -2.0).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
is_training = tf.placeholder(tf.bool, [], name="is_training")

w0 = np.linspace(-0.5, 0.5, 24).reshape(3, 8)
h = tf.layers.dense(x, 8, kernel_initializer=tf.constant_initializer(w0), use_bias=False)
h = tf.layers.batch_normalization(h, training=is_training, momentum=0.9)
h = tf.nn.relu(h)
logits = tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(0.2))
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))

update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train_op = tf.train.GradientDescentOptimizer(0.2).minimize(loss)

moving_mean = [v for v in tf.global_variables() if "moving_mean" in v.name][0]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(30):
        _, l = sess.run([train_op, loss], feed_dict={x: X_data, y: y_data, is_training: True})
        if step % 10 == 0:
            print("step %d train loss %.5f" % (step, l))
    print("inference loss %.5f" % sess.run(loss, feed_dict={x: X_data, y: y_data, is_training: False}))
    print("moving mean:", np.round(sess.run(moving_mean), 4))
