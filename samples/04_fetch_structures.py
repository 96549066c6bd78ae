# sess.run accepts any structure of fetches and returns the same structure
# filled with numpy values: single tensors, lists, tuples, dicts, nested
# structures, namedtuples, and ops (which come back as None).
import collections

import numpy as np
import tensorflow as tf

a = tf.placeholder(tf.float32, shape=[3], name="a")
b = tf.placeholder(tf.float32, shape=[3], name="b")
total = a + b
prod = a * b
dot = tf.reduce_sum(prod)
counter = tf.Variable(0, name="counter")
increment = tf.assign_add(counter, 1)
noop = tf.no_op()

Stats = collections.namedtuple("Stats", ["mean", "maximum"])
stats = Stats(tf.reduce_mean(total), tf.reduce_max(prod))

feed = {a: np.array([1.0, 2.0, 3.0]), b: np.array([0.5, -1.0, 4.0])}

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("single:", sess.run(total, feed_dict=feed))
    print("list:", sess.run([total, dot], feed_dict=feed))
    t, d = sess.run((total, dot), feed_dict=feed)
    print("tuple:", t, d)
    out = sess.run({"sum": total, "dot": dot}, feed_dict=feed)
    print("dict:", sorted(out.items()))
    nested = sess.run([total, {"inner": (dot, prod)}], feed_dict=feed)
    print("nested:", nested[0], nested[1]["inner"][0], nested[1]["inner"][1])
    s = sess.run(stats, feed_dict=feed)
    print("namedtuple:", type(s).__name__, s.mean, s.maximum)
    # an op in the fetch list gives None, the tensor next to it its value
    none_value, d = sess.run([noop, dot], feed_dict=feed)
    print("op fetch:", none_value, d)
    for step in range(3):
        print("increment:", sess.run(increment))
    print("counter:", sess.run(counter))
