# numeric
import numpy as np
import tensorflow as tf

w = tf.Variable(np.ones((3, 2), np.float32))
product = tf.expand_dims(tf.matmul(tf.ones((4, 3)), w), axis=1)
print(product.shape, product.get_shape().as_list(), product.dtype)
x = tf.placeholder(tf.float32, [None, 3])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(tf.matmul(x, w), {x: np.ones((1, 3))}))
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


w = tf.Variable(np.ones((3, 2), np.float32))


@tf.function
def run_product():
    product = tf.expand_dims(tf.matmul(tf.ones((4, 3)), w), axis=1)
    return product


print(tf.TensorShape(run_product().numpy().shape), tf.TensorShape(run_product().numpy().shape).as_list(), tf.as_dtype(run_product().numpy().dtype))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def run_fetches(x):
    return tf.matmul(x, w)


print(to_numpy(run_fetches(x=np.ones((1, 3)))))
