# numeric
# R2: unpacking a comprehension of variables gives one variable per name.
import tensorflow as tf

w, b = [tf.Variable(v) for v in (0.5, -0.5)]
x = tf.placeholder(tf.float32, [None])
y = w * x + b
loss = tf.reduce_mean(tf.square(y - 2.0 * x))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(5):
        _, l = sess.run([train, loss], {x: [1.0, 2.0, 3.0]})
        print(i, l)
    print(sess.run([w, b]))
# output
# numeric
# R2: unpacking a comprehension of variables gives one variable per name.
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


w, b = [tf.Variable(v) for v in (0.5, -0.5)]
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_train_loss(x):
    with tf.GradientTape() as tape:
        y = w * x + b
        loss = tf.reduce_mean(tf.square(y - 2.0 * x))
    gradients = tape.gradient(loss, [w, b])
    optimizer.apply_gradients(zip(gradients, [w, b]))
    return [None, loss]


for i in range(5):
    _, l = to_numpy(call_compiled(run_train_loss, x=[1.0, 2.0, 3.0]))
    print(i, l)
print([w.numpy(), b.numpy()])
