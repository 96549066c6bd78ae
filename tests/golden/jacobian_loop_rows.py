# numeric
# The seed recipe: one tf.gradients per element of y, expand_dims, stack. The
# shape it really has is (12, 1, 1, 5, 1); the vectorized form keeps it.
import numpy as np
import tensorflow as tf

n_y, n_x = 12, 5
x = tf.Variable(np.linspace(-1.0, 1.0, n_x).reshape(n_x, 1).astype(np.float32))
A = tf.constant(np.random.RandomState(0).randn(n_y, n_x).astype(np.float32))
y = tf.tanh(tf.matmul(A, x))  # (n_y, 1)

grads_list = []
for i in range(y.shape[0]):
    grad = tf.gradients(y[i], x)[0]
    # add a leading dim so we can stack
    grads_list.append(tf.expand_dims(grad, axis=0))

jacobian = tf.stack(grads_list)
jacobian = tf.expand_dims(jacobian, axis=1)
dy_dx = tf.reduce_sum(jacobian, axis=[2, 3, 4])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    J, d = sess.run([jacobian, dy_dx])
    print(J.shape, np.round(J[:3, 0, 0, :, 0], 5))
    print(np.round(d.ravel(), 5))
# output
# numeric
# The seed recipe: one tf.gradients per element of y, expand_dims, stack. The
# shape it really has is (12, 1, 1, 5, 1); the vectorized form keeps it.
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


n_y, n_x = 12, 5
x = tf.Variable(np.linspace(-1.0, 1.0, n_x).reshape(n_x, 1).astype(np.float32))


@tf.function
def run_jacobian_dy_dx():
    with tf.GradientTape() as tape:
        A = tf.constant(np.random.RandomState(0).randn(n_y, n_x).astype(np.float32))
        y = tf.tanh(tf.matmul(A, x))  # (n_y, 1)
        y_row_sums = tf.reduce_sum(y, axis=1)
    # add a leading dim so we can stack
    grads_list = tf.expand_dims(tape.jacobian(y_row_sums, x), axis=1)
    jacobian = grads_list
    jacobian = tf.expand_dims(jacobian, axis=1)
    dy_dx = tf.reduce_sum(jacobian, axis=[2, 3, 4])
    return [jacobian, dy_dx]


J, d = to_numpy(call_compiled(run_jacobian_dy_dx))
print(J.shape, np.round(J[:3, 0, 0, :, 0], 5))
print(np.round(d.ravel(), 5))
