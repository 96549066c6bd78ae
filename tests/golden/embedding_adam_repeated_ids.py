# numeric
import numpy as np
import tensorflow as tf

embeddings = tf.Variable(np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4))
ids = tf.placeholder(tf.int32, [None])
target = tf.placeholder(tf.float32, [None, 4])
loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(embeddings, ids) - target))
train = tf.train.AdamOptimizer(0.1).minimize(loss)

batch = np.array([1, 1, 1, 4], np.int32)  # id 1 three times: TF1 sums its rows before Adam squares them
goal = np.full((4, 4), 0.5, np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train, loss], {ids: batch, target: goal})
        print(step, value)
    print(sess.run(embeddings).round(6).tolist())
# output
# numeric
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


embeddings = tf.Variable(np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4))
optimizer = tf.compat.v1.train.AdamOptimizer(0.1)


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None, 4], tf.float32)])
def run_train_loss(ids, target):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(embeddings, ids) - target))
    gradients = tape.gradient(loss, [embeddings])
    optimizer.apply_gradients([(grad, var) for grad, var in zip(gradients, [embeddings]) if grad is not None])
    return [None, loss]


batch = np.array([1, 1, 1, 4], np.int32)  # id 1 three times: TF1 sums its rows before Adam squares them
goal = np.full((4, 4), 0.5, np.float32)
for step in range(3):
    _, value = to_numpy(call_compiled(run_train_loss, ids=batch, target=goal))
    print(step, value)
print(embeddings.numpy().round(6).tolist())
