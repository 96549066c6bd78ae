# Multivariate linear regression with AdagradOptimizer.
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
true_w = np.array([[2.0], [-1.0], [0.5]], dtype=np.float32)
X_data = rng.randn(50, 3).astype(np.float32)
y_data = X_data.dot(true_w) + 1.0

X = tf.placeholder(tf.float32, [None, 3], name="X")
Y = tf.placeholder(tf.float32, [None, 1], name="Y")
w = tf.Variable(np.zeros((3, 1), dtype=np.float32), name="w")
b = tf.Variable(0.0, name="b")

y_hat = tf.matmul(X, w) + b
mse = tf.losses.mean_squared_error(labels=Y, predictions=y_hat)
train = tf.train.AdagradOptimizer(learning_rate=0.5, initial_accumulator_value=0.1).minimize(mse)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(41):
        # watch the bias move while training (fetched next to the train op)
        mse_val, _, b_now = sess.run([mse, train, b], {X: X_data, Y: y_data})
        if step % 10 == 0:
            print("step %2d  mse %.6f  b %.4f" % (step, mse_val, b_now))
    w_val, b_val = sess.run([w, b])
    print("w =", np.round(w_val.ravel(), 3), "b =", round(float(b_val), 3))
