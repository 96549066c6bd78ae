# numeric
# Ops whose value is a tuple of tensors, fetched directly: each member becomes a numpy array.
import numpy as np
import tensorflow as tf

d = tf.constant([[2.0, 1.0], [1.0, 3.0]])
x = tf.placeholder(tf.float32, [None, 2])
sess = tf.Session()
print(sess.run(tf.self_adjoint_eig(d)))
print(sess.run(tf.nn.moments(x, axes=[0]), feed_dict={x: np.arange(6.0).reshape(3, 2)}))
values, indices = sess.run(tf.nn.top_k(d, k=1))
print(values, indices)
# output
# numeric
# Ops whose value is a tuple of tensors, fetched directly: each member becomes a numpy array.
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


d = tf.constant([[2.0, 1.0], [1.0, 3.0]])


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def run_fetches(x):
    return tf.nn.moments(x, axes=[0])


print(tf.nest.map_structure(lambda value: value.numpy(), tf.linalg.eigh(d)))
print(to_numpy(run_fetches(x=np.arange(6.0).reshape(3, 2))))
values, indices = tf.nest.map_structure(lambda value: value.numpy(), tf.nn.top_k(d, k=1))
print(values, indices)
