# numeric
# A model class builds its graph in __init__; main() runs it through the object, feeding its
# placeholders: each run becomes a generated method of the class, called on the object.
import numpy as np
import tensorflow as tf


class Regressor(object):
    def __init__(self, n_features, learning_rate):
        self.x = tf.placeholder(tf.float32, [None, n_features], name="x")
        self.y = tf.placeholder(tf.float32, [None, 1], name="y")
        self.w = tf.Variable(tf.fill([n_features, 1], 0.1))
        self.b = tf.Variable(tf.zeros([1]))
        self.prediction = tf.matmul(self.x, self.w) + self.b
        self.loss = tf.reduce_mean(tf.square(self.prediction - self.y))
        self.train_op = tf.train.AdamOptimizer(learning_rate).minimize(self.loss)


def main():
    model = Regressor(3, 0.05)
    data = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
    target = data.sum(axis=1, keepdims=True) * 2.0
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(5):
            _, loss = sess.run([model.train_op, model.loss], feed_dict={model.x: data, model.y: target})
            print(step, np.round(loss, 5))
        print(np.round(sess.run(model.prediction, {model.x: data[:2]}), 4))
        print(np.round(sess.run(model.w), 4))


main()
# output
# numeric
# A model class builds its graph in __init__; main() runs it through the object, feeding its
# placeholders: each run becomes a generated method of the class, called on the object.
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


class Regressor(object):
    def __init__(self, n_features, learning_rate):
        self.w = tf.Variable(tf.fill([n_features, 1], 0.1))
        self.b = tf.Variable(tf.zeros([1]))
        optimizer = tf.compat.v1.train.AdamOptimizer(learning_rate)
        self.optimizer = optimizer

    @tf.function
    def run_train_op_loss(self, x, y):
        x = tf.cast(x, tf.float32)
        y = tf.cast(y, tf.float32)
        with tf.GradientTape() as tape:
            prediction = tf.matmul(x, self.w) + self.b
            loss = tf.reduce_mean(tf.square(prediction - y))
        gradients = tape.gradient(loss, [self.w, self.b])
        self.optimizer.apply_gradients([(grad, var) for grad, var in zip(gradients, [self.w, self.b]) if grad is not None])
        return [None, loss]

    @tf.function
    def run_prediction(self, x):
        x = tf.cast(x, tf.float32)
        prediction = tf.matmul(x, self.w) + self.b
        return prediction


def main():
    model = Regressor(3, 0.05)
    data = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
    target = data.sum(axis=1, keepdims=True) * 2.0
    for step in range(5):
        _, loss = to_numpy(model.run_train_op_loss(x=tf.cast(data, tf.float32), y=tf.cast(target, tf.float32)))
        print(step, np.round(loss, 5))
    print(np.round(model.run_prediction(x=tf.cast(data[:2], tf.float32)).numpy(), 4))
    print(np.round(model.w.numpy(), 4))


main()
