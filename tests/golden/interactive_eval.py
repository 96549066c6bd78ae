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

def run_square(a):
    a = tf.cast(a, tf.float32)
    square = a * a + v
    return square.numpy()
print(run_square(a=2.0))

def run_step():
    increment = v.assign_add(1.0)
    step = tf.group(increment)
run_step()
print(run_square(a=1.0))
print(v.numpy())
