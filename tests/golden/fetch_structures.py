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


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


Pair = collections.namedtuple("Pair", ["total", "double"])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_total(x):
    total = tf.reduce_sum(x)
    return total


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_total_double(x):
    total = tf.reduce_sum(x)
    double = x * 2.0
    return [total, double]


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_fetches(x):
    total = tf.reduce_sum(x)
    double = x * 2.0
    return (total, {"d": double})


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_fetches_2(x):
    total = tf.reduce_sum(x)
    double = x * 2.0
    return Pair(total=total, double=double)


counter = tf.Variable(0.0)
data = np.arange(3.0)
print(run_total(x=data).numpy())
print(to_numpy(run_total_double(x=data)))
print(to_numpy(run_fetches(x=data)))
print(to_numpy(run_fetches_2(x=data)))
# [bump, counter] in one run would read counter before or after the add: TF1 leaves the order open.
print(counter.assign_add(1.0).numpy())
print(counter.numpy())
