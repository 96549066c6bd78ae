# numeric
# Second derivatives the Jacobian rules rely on: tf.hessians of a matrix and of
# several sources, a gradient of a gradient, and a Jacobian of a gradient.
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.parallel_for.gradients import jacobian

M = tf.placeholder(tf.float32, [2, 3])
v = tf.Variable(np.array([0.5, -1.0], np.float32))
f = tf.reduce_sum(tf.sin(M) * M) + tf.reduce_sum(v ** 3) * tf.reduce_sum(M)
hess_M = tf.hessians(f, M)[0]  # (2, 3, 2, 3)
hess_both = tf.hessians(f, [M, v])
grad_M = tf.gradients(f, M)[0]
grad_of_grad = tf.gradients(grad_M, M)[0]  # sums over grad_M's elements: (2, 3)
jac_of_grad = jacobian(tf.gradients(f, v)[0], M)  # (2, 2, 3)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    m = np.arange(6.0).reshape(2, 3) / 4.0
    h, hb, gg, jg = sess.run([hess_M, hess_both, grad_of_grad, jac_of_grad], {M: m})
    print(h.shape, np.round(h.reshape(6, 6).diagonal(), 5))
    print([part.shape for part in hb], np.round(hb[1], 5))
    print(gg.shape, np.round(gg, 5))
    print(jg.shape, np.round(jg, 5))
# output
# numeric
# Second derivatives the Jacobian rules rely on: tf.hessians of a matrix and of
# several sources, a gradient of a gradient, and a Jacobian of a gradient.
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


v = tf.Variable(np.array([0.5, -1.0], np.float32))


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def run_hess_M_hess_both_grad_of_grad(M):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(M)
        f = tf.reduce_sum(tf.sin(M) * M) + tf.reduce_sum(v ** 3) * tf.reduce_sum(M)
        df_dM = tape.gradient(f, [M])[0]
        hess_M = tape.jacobian(df_dM, M)  # (2, 3, 2, 3)
        df_dM_2, df_dv = tape.gradient(f, [M, v])
        hess_both = [tape.jacobian(df_dM_2, M), tape.jacobian(df_dv, v)]
        grad_M = tape.gradient(f, [M])[0]
        grad_of_grad = tape.gradient(grad_M, [M])[0]  # sums over grad_M's elements: (2, 3)
        jac_of_grad = tape.jacobian(tape.gradient(f, [v])[0], M)  # (2, 2, 3)
    return [hess_M, hess_both, grad_of_grad, jac_of_grad]


m = np.arange(6.0).reshape(2, 3) / 4.0
h, hb, gg, jg = to_numpy(run_hess_M_hess_both_grad_of_grad(M=m))
print(h.shape, np.round(h.reshape(6, 6).diagonal(), 5))
print([part.shape for part in hb], np.round(hb[1], 5))
print(gg.shape, np.round(gg, 5))
print(jg.shape, np.round(jg, 5))
