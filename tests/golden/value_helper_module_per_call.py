# numeric
# R4: a helper makes variables and computes on its tensor argument. It is called twice on graph
# tensors at build time, and the training code reads tf.trainable_variables() and minimizes
# without a var_list. Each call becomes a tf.Module instance built where the call stood (its
# variables made once, in __init__); the run functions call the instances on the fed tensors, and
# the variable lists keep TF1's creation order (weights before biases, first call first).
import numpy as np
import tensorflow as tf


def dense(x, n_in, n_out, activation=None):
    weights = tf.Variable(tf.reshape(tf.range(n_in * n_out, dtype=tf.float32), [n_in, n_out]) * 0.1)
    biases = tf.Variable(tf.zeros([n_out]) + 0.1)
    y = tf.matmul(x, weights) + biases
    if activation is None:
        return y
    return activation(y)


def main():
    inputs = tf.placeholder(tf.float32, [None, 2])
    hidden = dense(inputs, 2, 3, activation=tf.nn.tanh)
    out = dense(hidden, 3, 1)
    loss = tf.reduce_sum(out ** 2)
    grads = tf.gradients(loss, tf.trainable_variables())
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {inputs: np.ones((3, 2), np.float32)}
        g = sess.run(grads, feed)
        print(len(g), [x.shape for x in g], [float(x.sum()) for x in g])
        for _ in range(3):
            sess.run(train, feed)
        print(sess.run(loss, feed))


main()
# output
# numeric
# R4: a helper makes variables and computes on its tensor argument. It is called twice on graph
# tensors at build time, and the training code reads tf.trainable_variables() and minimizes
# without a var_list. Each call becomes a tf.Module instance built where the call stood (its
# variables made once, in __init__); the run functions call the instances on the fed tensors, and
# the variable lists keep TF1's creation order (weights before biases, first call first).
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


class Dense(tf.Module):
    def __init__(self, n_in, n_out, activation=None):
        super().__init__()
        self.activation = activation
        self.weights = tf.Variable(tf.reshape(tf.range(n_in * n_out, dtype=tf.float32), [n_in, n_out]) * 0.1)
        self.biases = tf.Variable(tf.zeros([n_out]) + 0.1)

    def __call__(self, x):
        y = tf.matmul(x, self.weights) + self.biases
        if self.activation is None:
            return y
        return self.activation(y)


def main():
    dense_1 = Dense(2, 3, activation=tf.nn.tanh)
    dense_2 = Dense(3, 1)

    def compute_loss(inputs):
        hidden = dense_1(inputs)
        out = dense_2(hidden)
        loss = tf.reduce_sum(out ** 2)
        return loss

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def run_loss(inputs):
        loss = compute_loss(inputs)
        return loss

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def run_grads(inputs):
        with tf.GradientTape() as tape:
            loss = compute_loss(inputs)
        grads = tape.gradient(loss, [dense_1.weights, dense_1.biases, dense_2.weights, dense_2.biases])
        return grads

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def run_train(inputs):
        with tf.GradientTape() as tape:
            loss = compute_loss(inputs)
        gradients = tape.gradient(loss, [dense_1.weights, dense_1.biases, dense_2.weights, dense_2.biases])
        optimizer.apply_gradients(zip(gradients, [dense_1.weights, dense_1.biases, dense_2.weights, dense_2.biases]))

    feed = {'inputs': np.ones((3, 2), np.float32)}
    g = to_numpy(call_compiled(run_grads, **feed))
    print(len(g), [x.shape for x in g], [float(x.sum()) for x in g])
    for _ in range(3):
        call_compiled(run_train, **feed)
    print(call_compiled(run_loss, **feed).numpy())


main()
