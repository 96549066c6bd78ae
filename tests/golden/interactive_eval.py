# numeric
import numpy as np
import tensorflow as tf

sess = tf.InteractiveSession()
a = tf.placeholder(tf.float32)
v = tf.Variable(3.0)
square = a * a + v
increment = v.assign_add(1.0)
tf.global_variables_initializer().run()
print(square.eval(feed_dict={a: 2.0}))
step = tf.group(increment)
step.run()
print(square.eval({a: 1.0}))
print(v.eval())
# output
# numeric
import numpy as np
import tensorflow as tf
v = tf.Variable(3.0)


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def run_square(a):
    square = a * a + v
    return square


print(run_square(a=2.0).numpy())


@tf.function
def run_step():
    increment = v.assign_add(1.0)


run_step()
print(run_square(a=1.0).numpy())
print(v.numpy())
