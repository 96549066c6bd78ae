# Logistic regression trained with MomentumOptimizer.
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X_train = rng.randn(200, 2).astype(np.float32)
y_train = (X_train[:, :1] + 2 * X_train[:, 1:] > 0).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])

W = tf.Variable(tf.zeros([2, 1]))
b = tf.Variable(tf.zeros([1]))
logits = tf.matmul(x, W) + b
cost = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
optimizer = tf.train.MomentumOptimizer(learning_rate=0.1, momentum=0.9).minimize(cost)

correct = tf.equal(tf.cast(logits > 0, tf.float32), y)
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(30):
        _, c = sess.run([optimizer, cost], feed_dict={x: X_train, y: y_train})
        if (epoch + 1) % 5 == 0:
            print("Epoch:", "%04d" % (epoch + 1), "cost =", "{:.6f}".format(c))
    print("Optimization Finished!")
    print("Accuracy:", accuracy.eval({x: X_train, y: y_train}))
    print("W:", np.round(sess.run(W).ravel(), 4), "b:", np.round(sess.run(b), 4))
