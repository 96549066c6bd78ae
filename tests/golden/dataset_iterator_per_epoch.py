# numeric
import numpy as np
import tensorflow as tf

# An initializable iterator restarted each epoch: the compiled step takes the iterator bound now.
features = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(6, 2)
targets = features @ np.array([[2.0], [-1.0]], np.float32) + 0.5
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(4)
iterator = dataset.make_initializable_iterator()
x, y = iterator.get_next()
w = tf.Variable(tf.zeros([2, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
train = tf.train.GradientDescentOptimizer(0.2).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(3):
        sess.run(iterator.initializer)
        total, batches = 0.0, 0
        while True:
            try:
                _, value = sess.run([train, loss])
            except tf.errors.OutOfRangeError:
                break
            total += value
            batches += 1
        print(epoch, batches, round(total, 5))
    print(sess.run(w).round(5).tolist())
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


# An initializable iterator restarted each epoch: the compiled step takes the iterator bound now.
features = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(6, 2)
targets = features @ np.array([[2.0], [-1.0]], np.float32) + 0.5
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(4)
iterator = iter(dataset)
w = tf.Variable(tf.zeros([2, 1]))
optimizer = tf.keras.optimizers.SGD(learning_rate=0.2)


@tf.function
def run_train_loss(iterator):
    with tf.GradientTape() as tape:
        x, y = iterator.get_next()
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    gradients = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(gradients, [w]))
    return [None, loss]


for epoch in range(3):
    iterator = iter(dataset)
    total, batches = 0.0, 0
    while True:
        try:
            _, value = to_numpy(run_train_loss(iterator=iterator))
        except tf.errors.OutOfRangeError:
            break
        total += value
        batches += 1
    print(epoch, batches, round(total, 5))
print(w.numpy().round(5).tolist())
