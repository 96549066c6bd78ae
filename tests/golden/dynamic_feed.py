# numeric
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
keep = tf.placeholder_with_default(1.0, [])
scaled = x * keep
mean = tf.reduce_mean(scaled)


def make_feed(values, train):
    feed = {x: values}
    if train:
        feed[keep] = 0.5
    return feed


with tf.Session() as sess:
    print(sess.run(mean, feed_dict=make_feed(np.arange(4.0), True)))
    print(sess.run(mean, feed_dict=make_feed(np.arange(4.0), False)))
# output
# numeric
import numpy as np
import tensorflow as tf


def run_mean(x, keep=None, **unused_feeds):
    x = tf.cast(x, tf.float32)
    keep = 1.0 if keep is None else keep
    keep = tf.cast(keep, tf.float32)
    scaled = x * keep
    mean = tf.reduce_mean(scaled)
    return mean.numpy()


def make_feed(values, train):
    feed = {'x': values}
    if train:
        feed['keep'] = 0.5
    return feed


print(run_mean(**make_feed(np.arange(4.0), True)))
print(run_mean(**make_feed(np.arange(4.0), False)))
