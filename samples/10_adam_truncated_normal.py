# A one-hidden-layer regression net trained with AdamOptimizer; the weights
# start from truncated_normal like most TF1 tutorials.
import numpy as np
import tensorflow as tf


def weight_variable(shape):
    initial = tf.truncated_normal(shape, stddev=0.1, seed=1)
    return tf.Variable(initial)


def bias_variable(shape):
    initial = tf.constant(0.1, shape=shape)
    return tf.Variable(initial)


rng = np.random.RandomState(0)
x_data = np.linspace(-1, 1, 64)[:, np.newaxis].astype(np.float32)
y_data = np.square(x_data) - 0.5 + 0.05 * rng.randn(64, 1).astype(np.float32)

xs = tf.placeholder(tf.float32, [None, 1])
ys = tf.placeholder(tf.float32, [None, 1])

W1 = weight_variable([1, 10])
b1 = bias_variable([10])
hidden = tf.nn.relu(tf.matmul(xs, W1) + b1)
W2 = weight_variable([10, 1])
b2 = bias_variable([1])
prediction = tf.matmul(hidden, W2) + b2

loss = tf.reduce_mean(tf.reduce_sum(tf.square(ys - prediction), reduction_indices=[1]))
train_step = tf.train.AdamOptimizer(learning_rate=0.01, beta1=0.9, beta2=0.999).minimize(loss)

sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(101):
    sess.run(train_step, feed_dict={xs: x_data, ys: y_data})
    if i % 20 == 0:
        print(i, sess.run(loss, feed_dict={xs: x_data, ys: y_data}))
print("W2:", np.round(sess.run(W2).ravel(), 4))
sess.close()
