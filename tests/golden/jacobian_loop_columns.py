# numeric
# Per-example Jacobians by columns: tf.gradients(y[:, j], x) sums over the batch,
# so each column's gradient is the Jacobian of y's column sums. The number of
# columns is known from the data only, so the loops are vectorized even compiled
# (jacobian_penalty_nested_tapes.py keeps a loop over a few known columns).
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
n_in = 3
x = tf.placeholder(tf.float32, [None, n_in])
W_init = rng.randn(n_in, 2).astype(np.float32)
n_out = W_init.shape[1]
W = tf.Variable(W_init)
y = tf.tanh(tf.matmul(x, W))  # (batch, n_out)
mixed = y * tf.reduce_mean(y, axis=0)  # rows not independent: per-example is not batch_jacobian here

cols = [tf.gradients(y[:, j], x)[0] for j in range(n_out)]
jac_cols = tf.stack(cols, axis=1)  # (batch, n_out, n_in)

pieces = []
for j in range(n_out):
    pieces.append(tf.expand_dims(tf.gradients(mixed[:, j], [x, W])[1], -1))
jac_w = tf.concat(pieces, axis=-1)  # (n_in, n_out, n_out)

flat = tf.stack([tf.reshape(tf.gradients(y[0, j], W)[0], [n_in * n_out]) for j in range(1, n_out)])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    x_val = rng.randn(4, n_in).astype(np.float32)
    a, b, c = sess.run([jac_cols, jac_w, flat], {x: x_val})
    print(a.shape, np.round(a[0], 5))
    print(b.shape, np.round(b, 5))
    print(c.shape, np.round(c, 5))
# output
# numeric
# Per-example Jacobians by columns: tf.gradients(y[:, j], x) sums over the batch,
# so each column's gradient is the Jacobian of y's column sums. The number of
# columns is known from the data only, so the loops are vectorized even compiled
# (jacobian_penalty_nested_tapes.py keeps a loop over a few known columns).
import numpy as np
import tensorflow as tf


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


rng = np.random.RandomState(0)
n_in = 3
W_init = rng.randn(n_in, 2).astype(np.float32)
n_out = W_init.shape[1]
W = tf.Variable(W_init)


@tf.function(input_signature=[tf.TensorSpec([None, n_in], tf.float32)])
def run_jac_cols_jac_w_flat(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, W))  # (batch, n_out)
        mixed = y * tf.reduce_mean(y, axis=0)  # rows not independent: per-example is not batch_jacobian here
        y_col_sums = tf.reduce_sum(y, axis=0)[:n_out]
        cols = tape.jacobian(y_col_sums, x)
        jac_cols = tf.transpose(cols, [1, 0, 2])  # (batch, n_out, n_in)
        mixed_col_sums = tf.reduce_sum(mixed, axis=0)[:n_out]
        pieces = tape.jacobian(mixed_col_sums, W)
        jac_w = tf.transpose(pieces, [1, 2, 0])  # (n_in, n_out, n_out)
        y_row_sums = y[0, 1:n_out]
        flat = tf.reshape(tape.jacobian(y_row_sums, W), [-1, n_in * n_out])
    return [jac_cols, jac_w, flat]


x_val = rng.randn(4, n_in).astype(np.float32)
a, b, c = to_numpy(run_jac_cols_jac_w_flat(x=x_val))
print(a.shape, np.round(a[0], 5))
print(b.shape, np.round(b, 5))
print(c.shape, np.round(c, 5))
