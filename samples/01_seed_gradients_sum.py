# Does tf.gradients(ys, xs) sum over y?  (TF 1.6, Python 3)
# It returns sum over every y of dy/dx: when each row of y only depends on its
# own row of x you still get "per-example" gradients, but stacking y twice
# doubles the result.
import numpy as np
import tensorflow as tf

x_dims = 3
batch_size = 4

x = tf.placeholder(tf.float32, (None, x_dims))
y = 2 * (x ** 2)
z = tf.stack([y, y])  # there are twice as many z's as x's

dy_dx = tf.gradients(y, x)
dz_dx = tf.gradients(z, x)

sess = tf.Session()

rng = np.random.RandomState(0)
x_val = rng.randint(0, 10, (batch_size, x_dims))
y_val, z_val, dy_dx_val, dz_dx_val = sess.run([y, z, dy_dx, dz_dx], {x: x_val})

print('x.shape =', x_val.shape)
print('x = \n', x_val)
print('y.shape = ', y_val.shape)
print('y = \n', y_val)
print('z.shape = ', z_val.shape)
print('z = \n', z_val)
print('dy/dx = \n', dy_dx_val[0])
print('dz/dx = \n', dz_dx_val[0])
print('len(dz_dx_val) =', len(dz_dx_val))
