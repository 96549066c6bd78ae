# A graph tensor's static shape printed outside any run: computed once (it needs
# no feeds), so the file goes eager, and the Jacobian loop is vectorized.
import numpy as np
import tensorflow as tf

x = tf.Variable(np.linspace(-1.0, 1.0, 4).reshape(4, 1).astype(np.float32))
y = tf.sin(tf.matmul(tf.constant(np.arange(12.0).reshape(3, 4), tf.float32), x))

grads = []
for i in range(y.shape[0]):
    grads.append(tf.gradients(y[i], x)[0])
jac = tf.stack(grads)
print(jac.shape)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(np.round(sess.run(jac)[:, :, 0], 5))
# output
# A graph tensor's static shape printed outside any run: computed once (it needs
# no feeds), so the file goes eager, and the Jacobian loop is vectorized.
import numpy as np
import tensorflow as tf

x = tf.Variable(np.linspace(-1.0, 1.0, 4).reshape(4, 1).astype(np.float32))


@tf.function
def run_jac():
    with tf.GradientTape() as tape:
        y = tf.sin(tf.matmul(tf.constant(np.arange(12.0).reshape(3, 4), tf.float32), x))
        y_row_sums = tf.reduce_sum(y, axis=1)
    grads = tape.jacobian(y_row_sums, x)
    jac = grads
    return jac


print(tf.TensorShape(run_jac().numpy().shape))
print(np.round(run_jac().numpy()[:, :, 0], 5))
