import numpy as np
import tensorflow as tf

tf.flags.DEFINE_integer("steps", 3, "training steps")
tf.flags.DEFINE_float("learning_rate", 0.5, "step size")
FLAGS = tf.flags.FLAGS


def main(_):
    x = tf.placeholder(tf.float32, [None])
    w = tf.Variable(1.0)
    loss = tf.reduce_mean(tf.square(w * x - 2.0 * x))
    train = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(loss)
    tf.logging.info("training for %d steps", FLAGS.steps)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.steps):
            _, value = sess.run([train, loss], {x: np.arange(3.0)})
            tf.logging.log_every_n(tf.logging.INFO, "loss %f", 2, value)


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
# output
import inspect
import weakref

import numpy as np
import tensorflow as tf
from absl import app
from absl import flags
from absl import logging


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


flags.DEFINE_integer("steps", 3, "training steps")
flags.DEFINE_float("learning_rate", 0.5, "step size")
FLAGS = flags.FLAGS


def main(_):
    w = tf.Variable(1.0)
    optimizer = tf.keras.optimizers.SGD(learning_rate=FLAGS.learning_rate)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def run_train_loss(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w * x - 2.0 * x))
        gradients = tape.gradient(loss, [w])
        optimizer.apply_gradients(zip(gradients, [w]))
        return [None, loss]

    logging.info("training for %d steps", FLAGS.steps)
    for step in range(FLAGS.steps):
        _, value = to_numpy(call_compiled(run_train_loss, x=np.arange(3.0)))
        logging.log_every_n(logging.INFO, "loss %f", 2, value)


if __name__ == "__main__":
    logging.set_verbosity(logging.INFO)
    app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))
