# numeric
import numpy as np
import tensorflow as tf

w = tf.Variable(np.ones((3, 2), np.float32))
product = tf.expand_dims(tf.matmul(tf.ones((4, 3)), w), axis=1)
print(product.shape, product.get_shape().as_list(), product.dtype)
x = tf.placeholder(tf.float32, [None, 3])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(tf.matmul(x, w), {x: np.ones((1, 3))}))
# output
# numeric
import numpy as np
import tensorflow as tf

w = tf.Variable(np.ones((3, 2), np.float32))

def run_product():
    product = tf.expand_dims(tf.matmul(tf.ones((4, 3)), w), axis=1)
    return product.numpy()
print(tf.TensorShape(run_product().shape), tf.TensorShape(run_product().shape).as_list(), tf.as_dtype(run_product().dtype))

def run_fetches(x):
    x = tf.cast(x, tf.float32)
    return tf.matmul(x, w).numpy()
print(run_fetches(x=np.ones((1, 3))))
