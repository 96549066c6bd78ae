# numeric
import numpy as np
import tensorflow as tf


def first_rows(x, y):
    # `y` is this function's argument, not the placeholder below: its shape is the array's
    return x[:y.shape[0]], y.shape


x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
loss = tf.reduce_sum(x) + tf.reduce_sum(y)
data, labels = first_rows(np.ones((5, 2)), np.ones((3, 1)))
with tf.Session() as sess:
    print(labels, sess.run(loss, {x: data, y: np.ones((3, 1))}))
# output
# numeric
import numpy as np
import tensorflow as tf


def first_rows(x, y):
    # `y` is this function's argument, not the placeholder below: its shape is the array's
    return x[:y.shape[0]], y.shape


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_loss(x, y):
    loss = tf.reduce_sum(x) + tf.reduce_sum(y)
    return loss


data, labels = first_rows(np.ones((5, 2)), np.ones((3, 1)))
print(labels, run_loss(x=data, y=np.ones((3, 1))).numpy())
