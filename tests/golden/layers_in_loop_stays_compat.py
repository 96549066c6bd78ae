import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
h = x
for width in (8, 4):
    h = tf.layers.dense(h, width)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
# output
import os
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # TF1 Keras APIs need Keras 2: pip install tf-keras
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()

x = tf.placeholder(tf.float32, [None, 4])
h = x
for width in (8, 4):
    h = tf.layers.dense(h, width)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
