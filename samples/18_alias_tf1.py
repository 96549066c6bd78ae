# Some code bases import TensorFlow under another name.
import numpy as np
import tensorflow as tf1

x = tf1.placeholder(tf1.float32, [None, 2])
w = tf1.Variable([[0.5], [-0.5]])
y = tf1.matmul(x, w)
loss = tf1.reduce_sum(tf1.square(y - 1.0))
dw = tf1.gradients(loss, [w])

with tf1.Session() as session:
    session.run(tf1.global_variables_initializer())
    data = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    loss_val, dw_val = session.run([loss, dw], feed_dict={x: data})
    print("loss:", loss_val)
    print("dloss/dw:", dw_val[0].ravel())
