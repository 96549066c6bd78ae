# numeric
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()

x = tf.placeholder(tf.float32, [3])
y = tf.reduce_sum(tf.log(x + 1.0), keep_dims=True)
grad = tf.gradients(y, x)[0]
with tf.Session() as s:
    print(s.run([y, grad], {x: np.array([0.0, 1.0, 2.0])}))
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


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_y_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.log(x + 1.0), keepdims=True)
    grad = tape.gradient(y, [x])[0]
    return [y, grad]


print(to_numpy(run_y_grad(x=np.array([0.0, 1.0, 2.0]))))
