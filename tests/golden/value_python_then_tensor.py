# numeric
# A name bound to a numpy value, read by numpy code, then rebound to a tensor: each binding is its own value.
import numpy as np
import tensorflow as tf

y = np.array([2, 0, 1])
labels = np.eye(3)[y.astype(int)]
h = 3.0
x = tf.placeholder(tf.float32, [None, 3])
a = x * h
h = tf.nn.relu(a - 4.0)
y = tf.nn.softmax(x)
sess = tf.Session()
print(sess.run(y, {x: labels}))
print(sess.run(h, {x: labels}))
# output
# numeric
# A name bound to a numpy value, read by numpy code, then rebound to a tensor: each binding is its own value.
import numpy as np
import tensorflow as tf

y = np.array([2, 0, 1])
labels = np.eye(3)[y.astype(int)]


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def run_h(x):
    h = 3.0
    a = x * h
    h = tf.nn.relu(a - 4.0)
    return h


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def run_y(x):
    y = tf.nn.softmax(x)
    return y


print(run_y(x=labels).numpy())
print(run_h(x=labels).numpy())
