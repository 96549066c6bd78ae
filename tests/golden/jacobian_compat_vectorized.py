# A graph tensor's static shape printed outside any run: computed once (it needs
# no feeds), so the file goes eager, and the Jacobian loop is vectorized.
import numpy as np
import tensorflow as tf

x = tf.Variable(np.linspace(-1.0, 1.0, 4).reshape(4, 1).astype(np.float32))
y = tf.sin(tf.matmul(tf.constant(np.arange(12.0).reshape(3, 4), tf.float32), x))

grads = []
for i in range(y.shape[0]):
    grads.append(tf.gradients(y[i], x)[0])
jac = tf.stack(grads)
print(jac.shape)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(np.round(sess.run(jac)[:, :, 0], 5))
# output
# A graph tensor's static shape printed outside any run: computed once (it needs
# no feeds), so the file goes eager, and the Jacobian loop is vectorized.
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


x = tf.Variable(np.linspace(-1.0, 1.0, 4).reshape(4, 1).astype(np.float32))


@tf.function
def run_jac():
    with tf.GradientTape() as tape:
        y = tf.sin(tf.matmul(tf.constant(np.arange(12.0).reshape(3, 4), tf.float32), x))
        y_row_sums = tf.reduce_sum(y, axis=1)
    grads = tape.jacobian(y_row_sums, x)
    jac = grads
    return jac


print(tf.TensorShape(to_numpy(call_compiled(run_jac)).shape))
print(np.round(to_numpy(call_compiled(run_jac))[:, :, 0], 5))
