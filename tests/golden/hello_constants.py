# numeric
import tensorflow as tf

a = tf.constant(2.0)
b = tf.constant(3.0)
c = a * b + 1.0
with tf.Session() as sess:
    print(sess.run(c))
    print(sess.run([a, b]))
# output
# numeric
import tensorflow as tf

a = tf.constant(2.0)
b = tf.constant(3.0)
c = a * b + 1.0
print(c.numpy())
print([a.numpy(), b.numpy()])
