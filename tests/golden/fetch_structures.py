# numeric
import collections
import numpy as np
import tensorflow as tf

Pair = collections.namedtuple("Pair", ["total", "double"])
x = tf.placeholder(tf.float32, shape=[None])
total = tf.reduce_sum(x)
double = x * 2.0
counter = tf.Variable(0.0)
bump = tf.assign_add(counter, 1.0)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
data = np.arange(3.0)
print(sess.run(total, feed_dict={x: data}))
print(sess.run([total, double], {x: data}))
print(sess.run((total, {"d": double}), feed_dict={x: data}))
print(sess.run(Pair(total=total, double=double), feed_dict={x: data}))
# [bump, counter] in one run would read counter before or after the add: TF1 leaves the order open.
print(sess.run(bump))
print(sess.run(counter))
sess.close()
# output
# numeric
import collections
import numpy as np
import tensorflow as tf

Pair = collections.namedtuple("Pair", ["total", "double"])

def run_total(x):
    x = tf.cast(x, tf.float32)
    total = tf.reduce_sum(x)
    return total.numpy()

def run_total_double(x):
    x = tf.cast(x, tf.float32)
    total = tf.reduce_sum(x)
    double = x * 2.0
    return [total.numpy(), double.numpy()]

def run_fetches(x):
    x = tf.cast(x, tf.float32)
    total = tf.reduce_sum(x)
    double = x * 2.0
    return (total.numpy(), {"d": double.numpy()})

def run_fetches_2(x):
    x = tf.cast(x, tf.float32)
    total = tf.reduce_sum(x)
    double = x * 2.0
    return Pair(total=total.numpy(), double=double.numpy())
counter = tf.Variable(0.0)

def run_bump():
    bump = counter.assign_add(1.0)
    return bump.numpy()
data = np.arange(3.0)
print(run_total(x=data))
print(run_total_double(x=data))
print(run_fetches(x=data))
print(run_fetches_2(x=data))
# [bump, counter] in one run would read counter before or after the add: TF1 leaves the order open.
print(run_bump())
print(counter.numpy())
