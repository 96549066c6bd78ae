# numeric
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(1)
data = rng.randn(8, 3).astype(np.float32)
target = rng.randn(8, 1).astype(np.float32)
x = tf.placeholder(tf.float32, [None, 3])
t = tf.placeholder(tf.float32, [None, 1])
weights = {"w": tf.Variable(np.ones((3, 1), np.float32)), "b": tf.Variable(np.zeros(1, np.float32))}
loss = tf.reduce_mean((tf.matmul(x, weights["w"]) + weights["b"] - t) ** 2)
opt = tf.train.AdamOptimizer(learning_rate=0.01)
grads_and_vars = opt.compute_gradients(loss)
clipped = [(tf.clip_by_value(g, -0.1, 0.1), v) for g, v in grads_and_vars]
train = opt.apply_gradients(clipped)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(10):
    l, _ = sess.run([loss, train], {x: data, t: target})
    print(round(float(l), 5))
print(sess.run(weights))
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


rng = np.random.RandomState(1)
data = rng.randn(8, 3).astype(np.float32)
target = rng.randn(8, 1).astype(np.float32)
weights = {"w": tf.Variable(np.ones((3, 1), np.float32)), "b": tf.Variable(np.zeros(1, np.float32))}
opt = tf.compat.v1.train.AdamOptimizer(learning_rate=0.01)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_loss_train(x, t):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.matmul(x, weights["w"]) + weights["b"] - t) ** 2)
    variables = [*weights.values()]
    grads_and_vars = list(zip(tape.gradient(loss, variables), variables))
    clipped = [(tf.clip_by_value(g, -0.1, 0.1), v) for g, v in grads_and_vars]
    opt.apply_gradients([(grad, var) for grad, var in clipped if grad is not None])
    return [loss, None]


for i in range(10):
    l, _ = to_numpy(call_compiled(run_loss_train, x=data, t=target))
    print(round(float(l), 5))
print(tf.nest.map_structure(lambda value: value.numpy(), weights))
