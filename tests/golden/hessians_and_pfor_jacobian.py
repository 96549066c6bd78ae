# numeric
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.parallel_for.gradients import batch_jacobian, jacobian

x = tf.placeholder(tf.float32, [3])
A = tf.constant(np.arange(12.0).reshape(4, 3), tf.float32)
y = tf.tanh(tf.linalg.matvec(A, x))
energy = tf.reduce_sum(x ** 3) + tf.reduce_prod(x)
hess = tf.hessians(energy, x)
jac = jacobian(y, x)
batch = tf.placeholder(tf.float32, [None, 2])
per_example = batch_jacobian(tf.sin(batch) * batch, batch)
with tf.Session() as sess:
    x_val = np.array([0.1, -0.2, 0.3])
    h, j = sess.run([hess, jac], {x: x_val})
    print(np.round(h[0], 5))
    print(j.shape, np.round(j, 5))
    print(np.round(sess.run(per_example, {batch: np.ones((2, 2))}), 5))
# output
# numeric
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


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_hess_jac(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.GradientTape(persistent=True) as inner_tape:
            inner_tape.watch(x)
            A = tf.constant(np.arange(12.0).reshape(4, 3), tf.float32)
            y = tf.tanh(tf.linalg.matvec(A, x))
            energy = tf.reduce_sum(x ** 3) + tf.reduce_prod(x)
        denergy_dx = inner_tape.gradient(energy, [x])[0]
    hess = [tape.jacobian(denergy_dx, x)]
    jac = inner_tape.jacobian(y, x)
    return [hess, jac]


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def run_per_example(batch):
    with tf.GradientTape() as tape:
        tape.watch(batch)
        ys = tf.sin(batch) * batch
    per_example = tape.batch_jacobian(ys, batch)
    return per_example


x_val = np.array([0.1, -0.2, 0.3])
h, j = to_numpy(call_compiled(run_hess_jac, x=x_val))
print(np.round(h[0], 5))
print(j.shape, np.round(j, 5))
print(np.round(to_numpy(call_compiled(run_per_example, batch=np.ones((2, 2)))), 5))
