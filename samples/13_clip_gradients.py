# compute_gradients -> clip -> apply_gradients, the usual way to clip in TF1
# (RNN tutorials clip by global norm, some RL code clips each value).
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X_data = rng.randn(32, 4).astype(np.float32) * 5
y_data = X_data.sum(axis=1, keepdims=True)

X = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(tf.zeros([4, 1]), name="W")
b = tf.Variable(tf.zeros([1]), name="b")
loss = tf.reduce_mean(tf.square(tf.matmul(X, W) + b - y))

# 1) clip by global norm
opt = tf.train.GradientDescentOptimizer(0.01)
grads_and_vars = opt.compute_gradients(loss)
grads, variables = zip(*grads_and_vars)
clipped, global_norm = tf.clip_by_global_norm(grads, clip_norm=5.0)
train_norm = opt.apply_gradients(zip(clipped, variables))

# 2) clip each gradient by value
opt2 = tf.train.GradientDescentOptimizer(0.01)
capped = [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in opt2.compute_gradients(loss, var_list=[W, b])]
train_value = opt2.apply_gradients(capped)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(10):
        _, l, n = sess.run([train_norm, loss, global_norm], {X: X_data, y: y_data})
        print("norm-clipped step %d loss %.4f grad norm %.4f" % (step, l, n))
    for step in range(5):
        _, l = sess.run([train_value, loss], {X: X_data, y: y_data})
        print("value-clipped step %d loss %.4f" % (step, l))
    print("W =", np.round(sess.run(W).ravel(), 4))
