# numeric
# Tutorials reset the graph through TF's internal module; it is the public tf.reset_default_graph.
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import ops
ops.reset_default_graph()

sess = tf.Session()
x = tf.placeholder(shape=[None, 1], dtype=tf.float32)
a = tf.Variable(tf.constant(2.0, shape=[1, 1]))
y = tf.matmul(x, a)
sess.run(tf.global_variables_initializer())
print(sess.run(y, feed_dict={x: np.array([[1.0], [3.0]])}))
# output
# numeric
# Tutorials reset the graph through TF's internal module; it is the public tf.reset_default_graph.
import numpy as np
import tensorflow as tf
a = tf.Variable(tf.constant(2.0, shape=[1, 1]))


@tf.function(input_signature=[tf.TensorSpec([None, 1], tf.float32)])
def run_y(x):
    y = tf.matmul(x, a)
    return y


print(run_y(x=np.array([[1.0], [3.0]])).numpy())
