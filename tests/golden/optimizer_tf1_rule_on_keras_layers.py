# numeric, separate processes
# RMSProp has no Keras optimizer with TF1's update rule (TF1 starts its mean square at 1 and adds
# epsilon inside the square root), so it stays tf.compat.v1.train.RMSPropOptimizer; the dense layers
# become Keras layers, whose variables that optimizer updates through the tf.Variable each one holds.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
h = tf.layers.dense(x, 4, tf.nn.relu, kernel_initializer=tf.constant_initializer(0.2))
out = tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(-0.3))
loss = tf.reduce_mean(tf.square(out - y))
train = tf.train.RMSPropOptimizer(0.01, momentum=0.5).minimize(loss)

data = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
target = data.sum(axis=1, keepdims=True) ** 2
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(20):
        _, value = sess.run([train, loss], {x: data, y: target})
    print(round(float(value), 6))
# output
# numeric, separate processes
# RMSProp has no Keras optimizer with TF1's update rule (TF1 starts its mean square at 1 and adds
# epsilon inside the square root), so it stays tf.compat.v1.train.RMSPropOptimizer; the dense layers
# become Keras layers, whose variables that optimizer updates through the tf.Variable each one holds.
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


dense = tf.keras.layers.Dense(units=4, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.2))
dense.build((None, 3))
dense_2 = tf.keras.layers.Dense(units=1, kernel_initializer=tf.constant_initializer(-0.3))
dense_2.build((None, 4))
optimizer = tf.compat.v1.train.RMSPropOptimizer(0.01, momentum=0.5)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
def run_train_loss(x, y):
    with tf.GradientTape() as tape:
        h = dense(x)
        out = dense_2(h)
        loss = tf.reduce_mean(tf.square(out - y))
    variables = [*dense.trainable_variables, *dense_2.trainable_variables]
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients([(grad, var.value if isinstance(var, tf.keras.Variable) else var) for grad, var in zip(gradients, variables) if grad is not None])
    return [None, loss]


data = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
target = data.sum(axis=1, keepdims=True) ** 2
for step in range(20):
    _, value = to_numpy(call_compiled(run_train_loss, x=data, y=target))
print(round(float(value), 6))
