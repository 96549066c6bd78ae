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


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


v = tf.Variable(3.0)


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def run_square(a):
    square = a * a + v
    return square


print(to_numpy(run_square(a=2.0)))


@tf.function
def run_step():
    increment = v.assign_add(1.0)
    step = tf.group(increment)


run_step()
print(to_numpy(run_square(a=1.0)))
print(v.numpy())
