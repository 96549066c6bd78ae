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

def run_g(x):
    x = tf.cast(x, float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = reduce_sum(x ** 3)
    g = tape.gradient(y, [x])
    return [value.numpy() for value in g]
print(run_g(x=np.array([1.0, 2.0])))
