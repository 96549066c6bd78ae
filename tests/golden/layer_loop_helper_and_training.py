# numeric
# A model function makes its layers in a loop, through weight and bias helpers defined inside it,
# and a training helper makes the optimizer and its step; the script rebinds `loss` to the result
# of the function `loss`. The model becomes a tf.Module whose variables are lists made in
# __init__'s copy of the loop (TF1's creation order) and read by index in __call__'s; the training
# helper's body runs where it was called (one optimizer, made once); the run functions bind the
# tensor `loss` under a name of their own, so they still call the function `loss`.
import numpy as np
import tensorflow as tf


def inference(x, scale, n_in, n_hiddens, n_out):
    def weight_variable(shape):
        return tf.Variable(tf.reshape(tf.range(shape[0] * shape[1], dtype=tf.float32), shape) * 0.01)

    def bias_variable(shape):
        return tf.Variable(tf.zeros(shape) + 0.1)

    for i, n_hidden in enumerate(n_hiddens):
        if i == 0:
            input = x
            input_dim = n_in
        else:
            input = output
            input_dim = n_hiddens[i - 1]
        W = weight_variable([input_dim, n_hidden])
        b = bias_variable([n_hidden])
        output = tf.nn.tanh(tf.matmul(input, W) + b) * scale

    W_out = weight_variable([n_hiddens[-1], n_out])
    b_out = bias_variable([n_out])
    return tf.matmul(output, W_out) + b_out


def loss(y, t):
    return tf.reduce_mean(tf.square(y - t))


def training(loss):
    optimizer = tf.train.MomentumOptimizer(0.05, 0.9)
    train_step = optimizer.minimize(loss)
    return train_step


if __name__ == '__main__':
    x = tf.placeholder(tf.float32, shape=[None, 3])
    t = tf.placeholder(tf.float32, shape=[None, 1])
    scale = tf.placeholder(tf.float32)
    y = inference(x, scale, n_in=3, n_hiddens=[4, 5], n_out=1)
    loss = loss(y, t)
    train_step = training(loss)

    X = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    T = np.array([[0.5], [0.1], [-0.2], [0.3]], np.float32)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    for epoch in range(5):
        sess.run(train_step, feed_dict={x: X, t: T, scale: 0.9})
        print(epoch, np.round(sess.run(loss, feed_dict={x: X, t: T, scale: 1.0}), 5))
    print(len(tf.trainable_variables()), [v.shape.as_list() for v in tf.trainable_variables()])
# output
# numeric
# A model function makes its layers in a loop, through weight and bias helpers defined inside it,
# and a training helper makes the optimizer and its step; the script rebinds `loss` to the result
# of the function `loss`. The model becomes a tf.Module whose variables are lists made in
# __init__'s copy of the loop (TF1's creation order) and read by index in __call__'s; the training
# helper's body runs where it was called (one optimizer, made once); the run functions bind the
# tensor `loss` under a name of their own, so they still call the function `loss`.
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


class Inference(tf.Module):
    def __init__(self, n_in, n_hiddens, n_out):
        super().__init__()
        self.n_hiddens = n_hiddens

        def weight_variable(shape):
            return tf.Variable(tf.reshape(tf.range(shape[0] * shape[1], dtype=tf.float32), shape) * 0.01)

        def bias_variable(shape):
            return tf.Variable(tf.zeros(shape) + 0.1)

        self.W = []
        self.b = []
        for i, n_hidden in enumerate(n_hiddens):
            if i == 0:
                input_dim = n_in
            else:
                input_dim = n_hiddens[i - 1]
            self.W.append(weight_variable([input_dim, n_hidden]))
            self.b.append(bias_variable([n_hidden]))

        self.W_out = weight_variable([n_hiddens[-1], n_out])
        self.b_out = bias_variable([n_out])

    def __call__(self, x, scale):
        for i, n_hidden in enumerate(self.n_hiddens):
            if i == 0:
                input = x
            else:
                input = output
            W = self.W[i]
            b = self.b[i]
            output = tf.nn.tanh(tf.matmul(input, W) + b) * scale
        return tf.matmul(output, self.W_out) + self.b_out


def loss(y, t):
    return tf.reduce_mean(tf.square(y - t))


if __name__ == '__main__':
    inference = Inference(n_in=3, n_hiddens=[4, 5], n_out=1)

    def compute_loss_2(x, t, scale):
        y = inference(x, scale)
        loss_2 = loss(y, t)
        return loss_2

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32), tf.TensorSpec(None, tf.float32)])
    def run_loss(x, t, scale):
        loss_2 = compute_loss_2(x, t, scale)
        return loss_2

    optimizer = tf.compat.v1.train.MomentumOptimizer(0.05, 0.9)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32), tf.TensorSpec(None, tf.float32)])
    def run_train_step(x, t, scale):
        with tf.GradientTape() as tape:
            loss_2 = compute_loss_2(x, t, scale)
        variables = [*(v for made in zip(inference.W, inference.b) for v in made), inference.W_out, inference.b_out]
        gradients = tape.gradient(loss_2, variables)
        optimizer.apply_gradients([(grad, var) for grad, var in zip(gradients, variables) if grad is not None])

    X = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    T = np.array([[0.5], [0.1], [-0.2], [0.3]], np.float32)
    for epoch in range(5):
        call_compiled(run_train_step, x=X, t=T, scale=0.9)
        print(epoch, np.round(call_compiled(run_loss, x=X, t=T, scale=1.0).numpy(), 5))
    print(len([*(v for made in zip(inference.W, inference.b) for v in made), inference.W_out, inference.b_out]), [v.shape.as_list() for v in [*(v for made in zip(inference.W, inference.b) for v in made), inference.W_out, inference.b_out]])
