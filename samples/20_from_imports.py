# Names imported straight from the tensorflow package.
import numpy as np
from tensorflow import Session, placeholder, gradients, float32, reduce_mean, square, stack

x = placeholder(float32, shape=[None, 2])
y = stack([x[:, 0] * x[:, 1], x[:, 0] ** 2], axis=1)
cost = reduce_mean(square(y))
grad_x = gradients(cost, x)[0]
grad_sum = gradients(y, x)[0]  # sums over both outputs

sess = Session()
x_val = np.array([[1.0, 2.0], [3.0, -1.0]], dtype=np.float32)
print("cost:", sess.run(cost, {x: x_val}))
print("d cost / dx:\n", sess.run(grad_x, {x: x_val}))
print("sum of d y / dx:\n", sess.run(grad_sum, {x: x_val}))
sess.close()
