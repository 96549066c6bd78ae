# numeric
# A script that builds, trains and evaluates under its main guard, with the model's helpers above
# it: the block is a scope of its own (as a main() body is) and is converted where it stands.
import numpy as np
import tensorflow as tf


def inference(x):
    w = tf.Variable(tf.fill([2, 1], 0.5))
    return tf.matmul(x, w)


def mean_square(y, t):
    return tf.reduce_mean(tf.square(y - t))


if __name__ == "__main__":
    x = tf.placeholder(tf.float32, shape=[None, 2])
    t = tf.placeholder(tf.float32, shape=[None, 1])
    y = inference(x)
    loss = mean_square(y, t)
    train_step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    init = tf.global_variables_initializer()
    sess = tf.Session()
    sess.run(init)
    data = np.arange(8.0).reshape(4, 2) / 8
    for step in range(3):
        sess.run(train_step, feed_dict={x: data, t: np.ones((4, 1))})
        print(step, np.round(loss.eval(session=sess, feed_dict={x: data, t: np.ones((4, 1))}), 5))
# output
# numeric
# A script that builds, trains and evaluates under its main guard, with the model's helpers above
# it: the block is a scope of its own (as a main() body is) and is converted where it stands.
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
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.fill([2, 1], 0.5))

    def __call__(self, x):
        return tf.matmul(x, self.w)


def mean_square(y, t):
    return tf.reduce_mean(tf.square(y - t))


if __name__ == "__main__":
    inference = Inference()

    def compute_loss(x, t):
        y = inference(x)
        loss = mean_square(y, t)
        return loss

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
    def run_loss(x, t):
        loss = compute_loss(x, t)
        return loss

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
    def run_train_step(x, t):
        with tf.GradientTape() as tape:
            loss = compute_loss(x, t)
        gradients = tape.gradient(loss, [inference.w])
        optimizer.apply_gradients(zip(gradients, [inference.w]))

    data = np.arange(8.0).reshape(4, 2) / 8
    for step in range(3):
        call_compiled(run_train_step, x=data, t=np.ones((4, 1)))
        print(step, np.round(call_compiled(run_loss, x=data, t=np.ones((4, 1))).numpy(), 5))
