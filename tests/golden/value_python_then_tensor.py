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


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


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


print(to_numpy(run_y(x=labels)))
print(to_numpy(run_h(x=labels)))
