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
    """function(**feeds), called through the concrete function of its one trace."""
    # A tf.function call binds and looks up its arguments in Python, as long as a small training step;
    # its concrete function, given tensors, does not.
    traced = compiled_traces.get(function)
    if traced is None:  # the first call traces it, and creates the state the trace makes
        specs = function.input_signature or ()
        names = list(inspect.signature(function.python_function).parameters)[-len(specs):] if specs else []
        fetched = function(**{key: feeds[key] for key in names})
        compiled_traces[function] = function.get_concrete_function(), list(zip(names, specs))
        return fetched
    concrete, parameters = traced
    return concrete(*[tf.convert_to_tensor(feeds[key], spec.dtype) for key, spec in parameters])


compiled_traces = weakref.WeakKeyDictionary()  # tf.function -> (its concrete function, its parameters)


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
