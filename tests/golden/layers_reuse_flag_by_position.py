# numeric, separate processes
# A discriminator called twice, the second time with its reuse flag passed by position
# (`discriminator(G, True)`), reusing its variables through `scope.reuse_variables()`: one set of
# Keras layers, built once, called on both inputs.
import numpy as np
import tensorflow as tf

X = tf.placeholder(tf.float32, [None, 3])
Z = tf.placeholder(tf.float32, [None, 3])


def discriminator(inputs, reuse=None):
    with tf.variable_scope('discriminator') as scope:
        if reuse:
            scope.reuse_variables()
        hidden = tf.layers.dense(inputs, 4, activation=tf.nn.relu,
                                 kernel_initializer=tf.constant_initializer(0.3))
        return tf.layers.dense(hidden, 1, kernel_initializer=tf.constant_initializer(-0.2))


D_real = discriminator(X)
D_fake = discriminator(Z * 0.5, True)
loss = tf.reduce_mean(tf.square(D_real - 1.0)) + tf.reduce_mean(tf.square(D_fake))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
    for step in range(5):
        _, value = sess.run([train, loss], {X: data, Z: data[::-1]})
    print(round(float(value), 6), len(tf.trainable_variables()))
# output
# numeric, separate processes
# A discriminator called twice, the second time with its reuse flag passed by position
# (`discriminator(G, True)`), reusing its variables through `scope.reuse_variables()`: one set of
# Keras layers, built once, called on both inputs.
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


def discriminator(inputs):
    hidden = dense(inputs)
    return dense_2(hidden)


dense = tf.keras.layers.Dense(units=4, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.3))
dense.build((None, 3))
dense_2 = tf.keras.layers.Dense(units=1, kernel_initializer=tf.constant_initializer(-0.2))
dense_2.build((None, 4))
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 3], tf.float32)])
def run_train_loss(X, Z):
    with tf.GradientTape() as tape:
        D_real = discriminator(X)
        D_fake = discriminator(Z * 0.5)
        loss = tf.reduce_mean(tf.square(D_real - 1.0)) + tf.reduce_mean(tf.square(D_fake))
    variables = [*dense.trainable_variables, *dense_2.trainable_variables]
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return [None, loss]


data = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
for step in range(5):
    _, value = to_numpy(call_compiled(run_train_loss, X=data, Z=data[::-1]))
print(round(float(value), 6), len([*dense.trainable_variables, *dense_2.trainable_variables]))
