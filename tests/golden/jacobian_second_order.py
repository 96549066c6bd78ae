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
import inspect
import weakref

import numpy as np
import tensorflow as tf


def call_compiled(function, /, **feeds):
    """function(**feeds), run through the trace of its one concrete function."""
    # A tf.function call binds and looks up its arguments in Python, as long as a small training step;
    # its trace, given tensors, runs without that.
    traced = compiled_traces.get(function)
    if traced is None:  # the first call traces it, and creates the state the trace makes
        specs = function.input_signature or ()
        names = list(inspect.signature(function.python_function).parameters)[-len(specs):] if specs else []
        fetched = function(**{key: feeds[key] for key in names})
        concrete = function.get_concrete_function()
        run_trace = getattr(getattr(concrete, "inference_fn", None), "call_preflattened", None)
        compiled_traces[function] = concrete, list(zip(names, specs)), run_trace
        return fetched
    concrete, parameters, run_trace = traced
    tensors = []
    for key, spec in parameters:
        tensor = tf.convert_to_tensor(feeds[key], spec.dtype)
        if not spec.is_compatible_with(tensor):
            raise ValueError(f"Cannot feed value of shape {tensor.shape} for `{key}`, which has shape {spec.shape}")
        tensors.append(tensor)
    if run_trace is None:
        return concrete(*tensors)
    return run_trace(tensors + concrete.captured_inputs)  # what concrete(*tensors) runs when no tape watches


compiled_traces = weakref.WeakKeyDictionary()  # tf.function -> (its concrete function, its parameters, its trace)


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
h, hb, gg, jg = to_numpy(call_compiled(run_hess_M_hess_both_grad_of_grad, M=m))
print(h.shape, np.round(h.reshape(6, 6).diagonal(), 5))
print([part.shape for part in hb], np.round(hb[1], 5))
print(gg.shape, np.round(gg, 5))
print(jg.shape, np.round(jg, 5))
