# numeric
# R1: a name rebound to another tensor; feeding a tensor that is not a placeholder; ints fed
# to a float32 placeholder. Each binding is its own value: a fetch reads the binding visible
# where it stands, and a feed replaces that binding for one run, converted to its dtype.
import tensorflow as tf

a = tf.placeholder(tf.float32, [3])
c = a + tf.constant([1.0, 1.0, 1.0])
with tf.Session() as sess:
    print(sess.run(c, {a: [1, 2, 3]}))
a = tf.add(2, 5)
b = a * 3
with tf.Session() as sess:
    print(sess.run(b), sess.run(b, {a: 15}))
# output
# numeric
# R1: a name rebound to another tensor; feeding a tensor that is not a placeholder; ints fed
# to a float32 placeholder. Each binding is its own value: a fetch reads the binding visible
# where it stands, and a feed replaces that binding for one run, converted to its dtype.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_c(a):
    c = a + tf.constant([1.0, 1.0, 1.0])
    return c


print(run_c(a=[1, 2, 3]).numpy())


@tf.function
def run_b():
    a = tf.add(2, 5)
    b = a * 3
    return b


@tf.function
def run_b_2(a):
    a = tf.cast(a, tf.int32)
    b = a * 3
    return b


print(run_b().numpy(), run_b_2(a=15).numpy())
