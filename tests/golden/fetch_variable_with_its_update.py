# TF1 leaves the read/update order open; tests/test_fetch_reads.py checks the numbers with --verify's pinned orders.
import tensorflow as tf

W = tf.Variable(5.0)
X = tf.placeholder(tf.float32)
cost = tf.reduce_mean(tf.square(X * W - 1.0))
update = W.assign(W - 0.1 * tf.reduce_mean((W * X - 1.0) * X))
optimizer = tf.train.GradientDescentOptimizer(0.01)
gvs = optimizer.compute_gradients(cost, [W])
apply_gradients = optimizer.apply_gradients(gvs)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        print(sess.run([update, cost, W], {X: [1.0, 2.0]}))
        print(sess.run([gvs, apply_gradients], {X: [1.0, 2.0]}))
# output
# TF1 leaves the read/update order open; tests/test_fetch_reads.py checks the numbers with --verify's pinned orders.
import inspect
import weakref

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


W = tf.Variable(5.0)


def compute_cost(X):
    cost = tf.reduce_mean(tf.square(X * W - 1.0))
    return cost


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def run_update_cost_W(X):
    W_read = W.read_value()
    cost = compute_cost(X)
    update = W.assign(W - 0.1 * tf.reduce_mean((W * X - 1.0) * X))
    return [update, cost, W_read]


optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def run_gvs_apply_gradients(X):
    with tf.GradientTape() as tape:
        cost = compute_cost(X)
    gvs = list(zip(tape.gradient(cost, [W]), [W]))
    gvs_read = [(grad, var.read_value()) for grad, var in gvs]
    optimizer.apply_gradients(gvs)
    return [gvs_read, None]


for step in range(3):
    print(to_numpy(call_compiled(run_update_cost_W, X=[1.0, 2.0])))
    print(to_numpy(call_compiled(run_gvs_apply_gradients, X=[1.0, 2.0])))
