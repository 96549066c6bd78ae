# numeric
# One optimizer minimizes two losses that depend on different variables: the Keras optimizer is built for all of them.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 1])
a1 = tf.Variable(tf.constant([[0.5]]))
a2 = tf.Variable(tf.constant([[-0.5]]))
loss1 = tf.reduce_mean(tf.square(tf.sigmoid(tf.matmul(x, a1)) - 0.75))
loss2 = tf.reduce_mean(tf.square(tf.nn.relu(tf.matmul(x, a2) + 1.0) - 0.75))
opt = tf.train.GradientDescentOptimizer(0.1)
step1 = opt.minimize(loss1)
step2 = opt.minimize(loss2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(step1, {x: np.ones((2, 1))})
        sess.run(step2, {x: np.ones((2, 1))})
    print(sess.run([a1, a2]))
# output
# numeric
# One optimizer minimizes two losses that depend on different variables: the Keras optimizer is built for all of them.
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


a1 = tf.Variable(tf.constant([[0.5]]))
a2 = tf.Variable(tf.constant([[-0.5]]))
opt = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function(input_signature=[tf.TensorSpec([None, 1], tf.float32)])
def run_step1(x):
    with tf.GradientTape() as tape:
        loss1 = tf.reduce_mean(tf.square(tf.sigmoid(tf.matmul(x, a1)) - 0.75))
    gradients = tape.gradient(loss1, [a1, a2])
    opt.apply_gradients(zip(gradients, [a1, a2]))


@tf.function(input_signature=[tf.TensorSpec([None, 1], tf.float32)])
def run_step2(x):
    with tf.GradientTape() as tape:
        loss2 = tf.reduce_mean(tf.square(tf.nn.relu(tf.matmul(x, a2) + 1.0) - 0.75))
    gradients = tape.gradient(loss2, [a1, a2])
    opt.apply_gradients(zip(gradients, [a1, a2]))


for _ in range(3):
    call_compiled(run_step1, x=np.ones((2, 1)))
    call_compiled(run_step2, x=np.ones((2, 1)))
print([a1.numpy(), a2.numpy()])
