# numeric
# A function that builds ops on the module's graph and runs them (a `predict` or `translate`
# helper): TF1 added the same op at each call. It is built once, before the function, so the
# run is a run of the module's graph and converts like the others.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
labels = tf.placeholder(tf.int64, [None])
w = tf.Variable(tf.fill([3, 4], 0.25) * tf.constant([1.0, 2.0, 3.0, 4.0]))
logits = tf.matmul(x, w)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())


def predict(batch):
    # the class each row scores highest
    prediction = tf.argmax(logits, 1)
    correct = tf.equal(prediction, labels)
    scores = sess.run(prediction, {x: batch})
    return scores, sess.run(tf.reduce_mean(tf.cast(correct, tf.float32)), {x: batch, labels: scores})


data = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], np.float32)
for step in range(3):
    sess.run(train, {x: data, labels: [0, 1, 2]})
    print(predict(data))
# output
# numeric
# A function that builds ops on the module's graph and runs them (a `predict` or `translate`
# helper): TF1 added the same op at each call. It is built once, before the function, so the
# run is a run of the module's graph and converts like the others.
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


w = tf.Variable(tf.fill([3, 4], 0.25) * tf.constant([1.0, 2.0, 3.0, 4.0]))
optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None], tf.int64)])
def run_train(x, labels):
    with tf.GradientTape() as tape:
        logits = tf.matmul(x, w)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    gradients = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(gradients, [w]))


def compute_prediction(x):
    logits = tf.matmul(x, w)
    # the class each row scores highest
    prediction = tf.argmax(logits, 1)
    return prediction


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def run_prediction(x):
    prediction = compute_prediction(x)
    return prediction


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None], tf.int64)])
def run_fetches(x, labels):
    prediction = compute_prediction(x)
    correct = tf.equal(prediction, labels)
    return tf.reduce_mean(tf.cast(correct, tf.float32))


def predict(batch):
    scores = call_compiled(run_prediction, x=batch).numpy()
    return scores, to_numpy(call_compiled(run_fetches, x=batch, labels=scores))


data = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], np.float32)
for step in range(3):
    call_compiled(run_train, x=data, labels=[0, 1, 2])
    print(predict(data))
