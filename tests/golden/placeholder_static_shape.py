import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3], name="x")
n_input = x.get_shape().as_list()[1]
W = tf.Variable(tf.ones([n_input, 1]))
y = tf.matmul(x, W)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(n_input, x.dtype, sess.run(y, {x: np.ones((2, 3))}))
# output
import numpy as np
import tensorflow as tf
n_input = tf.TensorShape([None, 3]).as_list()[1]
W = tf.Variable(tf.ones([n_input, 1]))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def run_y(x):
    y = tf.matmul(x, W)
    return y


print(n_input, tf.float32, run_y(x=np.ones((2, 3))).numpy())
