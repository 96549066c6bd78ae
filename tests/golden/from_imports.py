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
    return tf.nest.map_structure(lambda value: None if value is None else value.numpy(), fetched)


@tf.function(input_signature=[tf.TensorSpec([2], float32)])
def run_g(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = reduce_sum(x ** 3)
    g = tape.gradient(y, [x])
    return g


print(to_numpy(run_g(x=np.array([1.0, 2.0]))))
