# Second derivatives in TF1: tf.hessians, and a gradient of a gradient.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, shape=[3])
f = tf.reduce_sum(x ** 3) + x[0] * x[1]

grad = tf.gradients(f, x)[0]
hess = tf.hessians(f, x)[0]

# gradient of gradient: d/dx of sum(df/dx)
grad_of_grad = tf.gradients(grad, x)[0]

# second derivative of a scalar function
t = tf.Variable(2.0)
g = tf.sin(t) * t ** 2
dg = tf.gradients(g, t)[0]
d2g = tf.gradients(dg, t)[0]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    x_val = np.array([1.0, 2.0, -1.0], dtype=np.float32)
    g_val, h_val, gg = sess.run([grad, hess, grad_of_grad], feed_dict={x: x_val})
    print("grad:", g_val)
    print("hessian:\n", h_val)
    print("grad of grad:", gg)
    print("g, g', g'' at t=2: %.5f %.5f %.5f" % tuple(sess.run([g, dg, d2g])))
