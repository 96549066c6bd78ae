import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
h = tf.contrib.layers.layer_norm(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
# output
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()

x = tf.placeholder(tf.float32, [None, 4])
h = tf.contrib.layers.layer_norm(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
