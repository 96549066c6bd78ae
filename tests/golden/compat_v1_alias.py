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

def run_y_grad(x):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.log(x + 1.0), keepdims=True)
    grad = tape.gradient(y, [x])[0]
    return [y.numpy(), grad.numpy()]
print(run_y_grad(x=np.array([0.0, 1.0, 2.0])))
