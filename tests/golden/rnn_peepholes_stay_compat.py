import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 5, 3])
cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True)
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(outputs, {x: np.ones((1, 5, 3))}).shape)
# output
import numpy as np
import os
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # TF1 Keras APIs need Keras 2: pip install tf-keras
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()

x = tf.placeholder(tf.float32, [None, 5, 3])
cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True)
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(outputs, {x: np.ones((1, 5, 3))}).shape)
