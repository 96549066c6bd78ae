# numeric
import tensorflow as tf

# tf.add is a TF op, not a change of the `tf` module
a = tf.placeholder(tf.int32)
b = tf.add(a, 1)
w = tf.Variable(1.0)
# the initializer chosen by TF version, as old tutorials do
if tf.__version__ < "0.12":
    init = tf.initialize_all_variables()
else:
    init = tf.global_variables_initializer()
sess = tf.Session()
sess.run(init)
print(sess.run(b, feed_dict={a: 2}), sess.run(w))
# output
# numeric
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(None, tf.int32)])
def run_b(a):
    b = tf.add(a, 1)
    return b


w = tf.Variable(1.0)
print(run_b(a=2).numpy(), w.numpy())
