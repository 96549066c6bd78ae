# numeric
import tempfile
import numpy as np
import tensorflow as tf

LOGDIR = tempfile.mkdtemp()


def variable_summaries(var):
    """TF's documentation's helper: summaries of a tensor, under the caller's name scope."""
    with tf.name_scope("summaries"):
        mean = tf.reduce_mean(var)
        tf.summary.scalar("mean", mean)
        with tf.name_scope("stddev"):
            stddev = tf.sqrt(tf.reduce_mean(tf.square(var - mean)))
        tf.summary.scalar("stddev", stddev)
        tf.summary.scalar("max", tf.reduce_max(var))
        tf.summary.histogram("histogram", var)


x = tf.placeholder(tf.float32, [None, 2])
with tf.name_scope("layer"):
    w = tf.Variable([[0.5], [-1.0]], name="weights")
    variable_summaries(w)
    tf.summary.histogram("weights", w)
with tf.name_scope("layer"):
    b = tf.Variable([0.25])
    variable_summaries(b)
y = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.square(y - 1.0))
tf.summary.scalar("loss", loss)
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
merged = tf.summary.merge_all()
with tf.Session() as sess:
    writer = tf.summary.FileWriter(LOGDIR, sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        summary, l = sess.run([merged, loss], {x: np.ones((4, 2))})
        sess.run(train_op, {x: np.ones((4, 2))})
        writer.add_summary(summary, step)
        print(step, l)
    writer.close()
# output
# numeric
import inspect
import tempfile
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


@tf.function(reduce_retracing=True)
def write_summary(writer, step, summary):
    """TF1's add_summary: the summarized values written at an int64 step, compiled."""
    with writer.as_default(step=step):
        tf.summary.scalar('layer/summaries/mean_1', summary['variable_summaries(w)']['mean'])
        tf.summary.scalar('layer/summaries/stddev_1', summary['variable_summaries(w)']['stddev'])
        tf.summary.scalar('layer/summaries/max_1', summary['variable_summaries(w)']['max'])
        tf.summary.experimental.write_raw_pb(tf.raw_ops.HistogramSummary(tag='layer/summaries/histogram', values=summary['variable_summaries(w)']['histogram']), step=step)
        tf.summary.experimental.write_raw_pb(tf.raw_ops.HistogramSummary(tag='layer/weights_1', values=summary['layer/weights_1']), step=step)
        tf.summary.scalar('layer_1/summaries/mean_1', summary['variable_summaries(b)']['mean'])
        tf.summary.scalar('layer_1/summaries/stddev_1', summary['variable_summaries(b)']['stddev'])
        tf.summary.scalar('layer_1/summaries/max_1', summary['variable_summaries(b)']['max'])
        tf.summary.experimental.write_raw_pb(tf.raw_ops.HistogramSummary(tag='layer_1/summaries/histogram', values=summary['variable_summaries(b)']['histogram']), step=step)
        tf.summary.scalar('loss', summary['loss'])


LOGDIR = tempfile.mkdtemp()


def variable_summaries(var):
    """TF's documentation's helper: summaries of a tensor, under the caller's name scope."""
    mean = tf.reduce_mean(var)
    stddev = tf.sqrt(tf.reduce_mean(tf.square(var - mean)))
    return {'mean': mean, 'stddev': stddev, 'max': tf.reduce_max(var), 'histogram': var}


w = tf.Variable([[0.5], [-1.0]], name="weights")
b = tf.Variable([0.25])
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


def compute_loss(x):
    y = tf.matmul(x, w) + b
    loss = tf.reduce_mean(tf.square(y - 1.0))
    return loss


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def run_train_op(x):
    with tf.GradientTape() as tape:
        loss = compute_loss(x)
    gradients = tape.gradient(loss, [w, b])
    optimizer.apply_gradients(zip(gradients, [w, b]))


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def run_merged_loss(x):
    loss = compute_loss(x)
    merged = {'variable_summaries(w)': variable_summaries(w), 'layer/weights_1': w, 'variable_summaries(b)': variable_summaries(b), 'loss': loss}
    return [merged, loss]


writer = tf.summary.create_file_writer(LOGDIR)
for step in range(3):
    summary, l = to_numpy(call_compiled(run_merged_loss, x=np.ones((4, 2))))
    call_compiled(run_train_op, x=np.ones((4, 2)))
    write_summary(writer, tf.cast(step, tf.int64), summary)
    print(step, l)
writer.close()
