# The different ways TF1 code opens and feeds a Session.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2], name="x")
scale = tf.placeholder_with_default(2.0, shape=[], name="scale")
y = tf.reduce_sum(x * scale, axis=1)

data = np.arange(6, dtype=np.float32).reshape(3, 2)

# 1) context manager, feed_dict as keyword
with tf.Session() as sess:
    print("with-block:", sess.run(y, feed_dict={x: data}))

# 2) explicit session and close(), feed dict passed positionally
sess = tf.Session()
print("positional feed:", sess.run(y, {x: data}))
# placeholder_with_default can be overridden through the feed
print("scale fed:", sess.run(y, {x: data, scale: 0.5}))
# feeding by tensor name works too
print("by name:", sess.run("Sum:0", {"x:0": data}))
sess.close()

# 3) a session bound to an explicit graph
graph = tf.Graph()
with graph.as_default():
    c = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    inv = tf.matrix_inverse(c)
with tf.Session(graph=graph) as s2:
    print("inverse:\n", np.round(s2.run(inv), 4))
