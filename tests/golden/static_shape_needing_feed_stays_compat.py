import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
h = tf.nn.relu(x)
print(h.shape)
with tf.Session() as sess:
    print(sess.run(h, {x: [[1.0, -1.0, 2.0]]}))
# output
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()

x = tf.placeholder(tf.float32, [None, 3])
h = tf.nn.relu(x)
print(h.shape)
with tf.Session() as sess:
    print(sess.run(h, {x: [[1.0, -1.0, 2.0]]}))
