# numeric
import numpy as np
import tensorflow as tf


def clip_and_count(values):
    """Runs in numpy, as TF1's py_func ran it."""
    return np.clip(values, 0.0, 1.5).astype(np.float32), np.int64((values > 1.0).sum())


x = tf.placeholder(tf.float32, [None, 2])
labels = tf.placeholder(tf.int32, [None])
w = tf.Variable([[0.5, -0.25], [1.0, 2.0]])
logits = tf.matmul(x, w)
clipped, over = tf.py_func(clip_and_count, [logits], [tf.float32, tf.int64], stateful=False)
hits = tf.to_float(tf.equal(tf.to_int32(tf.argmax(logits, 1)), labels))
accuracy = tf.reduce_mean(hits, name="accuracy")
total = tf.to_double(tf.reduce_sum(clipped)) + tf.to_double(over)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], np.float32)
    print(sess.run([accuracy, total, tf.to_int64(over, name="over")], {x: data, labels: [1, 0, 0]}))
# output
# numeric
import numpy as np
import tensorflow as tf


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


def clip_and_count(values):
    """Runs in numpy, as TF1's py_func ran it."""
    return np.clip(values, 0.0, 1.5).astype(np.float32), np.int64((values > 1.0).sum())


w = tf.Variable([[0.5, -0.25], [1.0, 2.0]])


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.int32)])
def run_fetches(x, labels):
    logits = tf.matmul(x, w)
    clipped, over = tf.numpy_function(clip_and_count, [logits], [tf.float32, tf.int64], stateful=False)
    hits = tf.cast(tf.equal(tf.cast(tf.argmax(logits, 1), tf.int32), labels), tf.float32)
    accuracy = tf.reduce_mean(hits, name="accuracy")
    total = tf.cast(tf.reduce_sum(clipped), tf.float64) + tf.cast(over, tf.float64)
    return [accuracy, total, tf.cast(over, tf.int64, name="over")]


data = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], np.float32)
print(to_numpy(run_fetches(x=data, labels=[1, 0, 0])))
