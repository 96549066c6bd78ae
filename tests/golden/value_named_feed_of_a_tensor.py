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


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_c(a):
    c = a + tf.constant([5, 5, 5], tf.float32)
    return c


print(to_numpy(run_c(a=[1, 2, 3])))


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
print(to_numpy(run_b()), to_numpy(run_b_2(**replace_dict)))
