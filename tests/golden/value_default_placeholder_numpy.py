# numeric
# R5: placeholder_with_default whose default is a numpy array, fetched in a dict, fed and not fed.
import numpy as np
import tensorflow as tf

x = tf.placeholder_with_default(np.ones(3, np.float32), shape=[3])
y = x * 2.0
with tf.Session() as sess:
    print(sess.run({"y": y}))
    print(sess.run({"y": y}, {x: [1, 2, 3]}))
# output
# numeric
# R5: placeholder_with_default whose default is a numpy array, fetched in a dict, fed and not fed.
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


@tf.function
def run_y():
    x = tf.convert_to_tensor(np.ones(3, np.float32))
    y = x * 2.0
    return {"y": y}


@tf.function
def run_y_2(x):
    x = tf.cast(x, tf.convert_to_tensor(np.ones(3, np.float32)).dtype)
    y = x * 2.0
    return {"y": y}


print(to_numpy(run_y()))
print(to_numpy(run_y_2(x=[1, 2, 3])))
