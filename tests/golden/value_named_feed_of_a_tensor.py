# numeric
import tensorflow as tf

# A feed dict passed by name may replace any tensor, not only a placeholder (chiphuyen 02_feed_dict.py)
a = tf.placeholder(tf.float32, shape=[3])
c = a + tf.constant([5, 5, 5], tf.float32)
with tf.Session() as sess:
    print(sess.run(c, {a: [1, 2, 3]}))
a = tf.add(2, 5)
b = tf.multiply(a, 3)
with tf.Session() as sess:
    replace_dict = {a: 15}
    print(sess.run(b), sess.run(b, feed_dict=replace_dict))
# output
# numeric
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_c(a):
    c = a + tf.constant([5, 5, 5], tf.float32)
    return c


print(run_c(a=[1, 2, 3]).numpy())


@tf.function
def run_b():
    a = tf.add(2, 5)
    b = tf.multiply(a, 3)
    return b


@tf.function
def run_b_2(a):
    a = tf.cast(a, tf.int32)
    b = tf.multiply(a, 3)
    return b


replace_dict = {'a': 15}
print(run_b().numpy(), run_b_2(**replace_dict).numpy())
