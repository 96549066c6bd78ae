# numeric
# A feed dict built in the loop and passed by name: its keys are the same at every run, so the
# run's function takes exactly those placeholders and compiles. The second one is changed after it
# is built (feed_all[...] = ...): its keys are not known, and its function takes any feed.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None])
scale = tf.placeholder_with_default(1.0, [])
w = tf.Variable([0.5, -0.5])
pred = tf.reduce_sum(x * w, axis=1) * scale
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.arange(8.0).reshape(4, 2) / 8
    for step in range(3):
        feed = {x: data[step:step + 2], y: np.ones(2)}
        _, loss_value = sess.run([train, loss], feed_dict=feed)
        print(step, np.round(loss_value, 5))
    feed_all = {x: data, y: np.ones(4)}
    feed_all[scale] = 2.0
    print(np.round(sess.run(loss, feed_dict=feed_all), 5))
# output
# numeric
# A feed dict built in the loop and passed by name: its keys are the same at every run, so the
# run's function takes exactly those placeholders and compiles. The second one is changed after it
# is built (feed_all[...] = ...): its keys are not known, and its function takes any feed.
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


w = tf.Variable([0.5, -0.5])


def compute_loss(x, y, scale):
    pred = tf.reduce_sum(x * w, axis=1) * scale
    loss = tf.reduce_mean(tf.square(pred - y))
    return loss


def run_loss(x, y, scale=None, **unused_feeds):
    x = tf.cast(x, tf.float32)
    y = tf.cast(y, tf.float32)
    scale = 1.0 if scale is None else scale
    scale = tf.cast(scale, tf.float32)
    loss = compute_loss(x, y, scale)
    return loss.numpy()


optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.float32)])
def run_train_loss(x, y):
    scale = 1.0
    with tf.GradientTape() as tape:
        loss = compute_loss(x, y, scale)
    gradients = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(gradients, [w]))
    return [None, loss]


data = np.arange(8.0).reshape(4, 2) / 8
for step in range(3):
    feed = {'x': data[step:step + 2], 'y': np.ones(2)}
    _, loss_value = to_numpy(call_compiled(run_train_loss, **feed))
    print(step, np.round(loss_value, 5))
feed_all = {'x': data, 'y': np.ones(4)}
feed_all['scale'] = 2.0
print(np.round(run_loss(**feed_all), 5))
