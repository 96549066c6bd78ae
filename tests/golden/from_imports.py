# numeric
import numpy as np
from tensorflow import placeholder, gradients, Session, float32, reduce_sum

x = placeholder(float32, [2])
y = reduce_sum(x ** 3)
g = gradients(y, x)
with Session() as sess:
    print(sess.run(g, {x: np.array([1.0, 2.0])}))
# output
# numeric
import numpy as np
from tensorflow import float32, reduce_sum
import tensorflow as tf


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


@tf.function(input_signature=[tf.TensorSpec([2], float32)])
def run_g(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = reduce_sum(x ** 3)
    g = tape.gradient(y, [x])
    return g


print(to_numpy(run_g(x=np.array([1.0, 2.0]))))
