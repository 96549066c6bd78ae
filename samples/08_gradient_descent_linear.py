# Linear regression with plain gradient descent and a global step.
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X_data = rng.rand(100, 1).astype(np.float32)
y_data = 3.0 * X_data + 2.0 + 0.1 * rng.randn(100, 1).astype(np.float32)

X = tf.placeholder(tf.float32, [None, 1])
Y = tf.placeholder(tf.float32, [None, 1])

W = tf.Variable(tf.zeros([1, 1]), name="weight")
b = tf.Variable(tf.zeros([1]), name="bias")
pred = tf.matmul(X, W) + b

loss = tf.reduce_mean(tf.square(pred - Y))
global_step = tf.Variable(0, trainable=False, name="global_step")
train_op = tf.train.GradientDescentOptimizer(learning_rate=0.5).minimize(loss, global_step=global_step)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(60):
        _, l = sess.run([train_op, loss], feed_dict={X: X_data, Y: y_data})
        if epoch % 10 == 0:
            print("epoch %d loss %.6f" % (epoch, l))
    print("global step:", sess.run(global_step))
    print("W = %.4f, b = %.4f" % (sess.run(W)[0, 0], sess.run(b)[0]))
