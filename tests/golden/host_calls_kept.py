# numeric
# File, logging and flag calls act when Python reaches them: kept where they are, not dropped as unrun ops.
import os
import tempfile
import tensorflow as tf

root = tempfile.mkdtemp()
tf.logging.info("starting")
tf.gfile.MakeDirs(os.path.join(root, "logs", "run1"))
with tf.gfile.GFile(os.path.join(root, "logs", "note.txt"), "w") as f:
    f.write("3")
found = tf.gfile.Glob(os.path.join(root, "logs", "*"))
x = tf.placeholder(tf.float32, [None])
y = tf.reduce_sum(x * 2.0)
with tf.Session() as sess:
    print(sess.run(y, {x: [1.0] * len(found)}))
print(os.path.isdir(os.path.join(root, "logs", "run1")))
# output
# numeric
# File, logging and flag calls act when Python reaches them: kept where they are, not dropped as unrun ops.
import os
import tempfile
import tensorflow as tf
from absl import logging

root = tempfile.mkdtemp()
logging.info("starting")
tf.io.gfile.makedirs(os.path.join(root, "logs", "run1"))
with tf.io.gfile.GFile(os.path.join(root, "logs", "note.txt"), "w") as f:
    f.write("3")
found = tf.io.gfile.glob(os.path.join(root, "logs", "*"))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_y(x):
    y = tf.reduce_sum(x * 2.0)
    return y


print(run_y(x=[1.0] * len(found)).numpy())
print(os.path.isdir(os.path.join(root, "logs", "run1")))
