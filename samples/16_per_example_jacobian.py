# Per-example Jacobians of a small network in TF1: loop over the output
# columns, or tf.map_fn over tf.range (mapping over y itself does not work).
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
n_in, n_out, batch = 3, 2, 4

x = tf.placeholder(tf.float32, [None, n_in])
W = tf.Variable(rng.randn(n_in, n_out).astype(np.float32))
y = tf.tanh(tf.matmul(x, W))  # (batch, n_out)

# 1) loop over output columns: each gradient is dy[:, j]/dx, rows independent
cols = [tf.gradients(y[:, j], x)[0] for j in range(n_out)]
jac_loop = tf.stack(cols, axis=1)  # (batch, n_out, n_in)

# 2) the same with map_fn over column indices
jac_map = tf.map_fn(lambda j: tf.gradients(y[:, j], x)[0], tf.range(n_out), dtype=tf.float32)
jac_map = tf.transpose(jac_map, [1, 0, 2])

# 3) Jacobian of the flattened output w.r.t. the weights, one row at a time
y_flat = tf.reshape(y, [-1])
jac_w = tf.map_fn(lambda i: tf.gradients(y_flat[i], W)[0], tf.range(tf.size(y_flat)), dtype=tf.float32)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    x_val = rng.randn(batch, n_in).astype(np.float32)
    j1, j2, jw = sess.run([jac_loop, jac_map, jac_w], {x: x_val})
    print("jacobian shape:", j1.shape)
    print("example 0:\n", np.round(j1[0], 5))
    print("loop == map_fn:", np.allclose(j1, j2))
    print("d y / d W shape:", jw.shape)
    print("dy[0]/dW:\n", np.round(jw[0], 5))
