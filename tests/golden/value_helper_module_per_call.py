# numeric
# R4: a helper makes variables and computes on its tensor argument. It is called twice on graph
# tensors at build time, and the training code reads tf.trainable_variables() and minimizes
# without a var_list. Each call becomes a tf.Module instance built where the call stood (its
# variables made once, in __init__); the run functions call the instances on the fed tensors, and
# the variable lists keep TF1's creation order (weights before biases, first call first).
import numpy as np
import tensorflow as tf


def dense(x, n_in, n_out, activation=None):
    weights = tf.Variable(tf.reshape(tf.range(n_in * n_out, dtype=tf.float32), [n_in, n_out]) * 0.1)
    biases = tf.Variable(tf.zeros([n_out]) + 0.1)
    y = tf.matmul(x, weights) + biases
    if activation is None:
        return y
    return activation(y)


def main():
    inputs = tf.placeholder(tf.float32, [None, 2])
    hidden = dense(inputs, 2, 3, activation=tf.nn.tanh)
    out = dense(hidden, 3, 1)
    loss = tf.reduce_sum(out ** 2)
    grads = tf.gradients(loss, tf.trainable_variables())
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {inputs: np.ones((3, 2), np.float32)}
        g = sess.run(grads, feed)
        print(len(g), [x.shape for x in g], [float(x.sum()) for x in g])
        for _ in range(3):
            sess.run(train, feed)
        print(sess.run(loss, feed))


main()
# output
# numeric
# R4: a helper makes variables and computes on its tensor argument. It is called twice on graph
# tensors at build time, and the training code reads tf.trainable_variables() and minimizes
# without a var_list. Each call becomes a tf.Module instance built where the call stood (its
# variables made once, in __init__); the run functions call the instances on the fed tensors, and
# the variable lists keep TF1's creation order (weights before biases, first call first).
import numpy as np
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, activation=None):
        super().__init__()
        self.activation = activation
        self.weights = tf.Variable(tf.reshape(tf.range(n_in * n_out, dtype=tf.float32), [n_in, n_out]) * 0.1)
        self.biases = tf.Variable(tf.zeros([n_out]) + 0.1)

    def __call__(self, x):
        y = tf.matmul(x, self.weights) + self.biases
        if self.activation is None:
            return y
        return self.activation(y)


def main():
    dense_1 = Dense(2, 3, activation=tf.nn.tanh)
    dense_2 = Dense(3, 1)

    def run_loss(inputs, **unused_feeds):
        inputs = tf.cast(inputs, tf.float32)
        hidden = dense_1(inputs)
        out = dense_2(hidden)
        loss = tf.reduce_sum(out ** 2)
        return loss.numpy()

    def run_grads(inputs, **unused_feeds):
        inputs = tf.cast(inputs, tf.float32)
        with tf.GradientTape() as tape:
            hidden = dense_1(inputs)
            out = dense_2(hidden)
            loss = tf.reduce_sum(out ** 2)
        grads = tape.gradient(loss, [dense_1.weights, dense_1.biases, dense_2.weights, dense_2.biases])
        return [value.numpy() for value in grads]

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    def run_train(inputs, **unused_feeds):
        inputs = tf.cast(inputs, tf.float32)
        with tf.GradientTape() as tape:
            hidden = dense_1(inputs)
            out = dense_2(hidden)
            loss = tf.reduce_sum(out ** 2)
        gradients = tape.gradient(loss, [dense_1.weights, dense_1.biases, dense_2.weights, dense_2.biases])
        optimizer.apply_gradients(zip(gradients, [dense_1.weights, dense_1.biases, dense_2.weights, dense_2.biases]))

    feed = {'inputs': np.ones((3, 2), np.float32)}
    g = run_grads(**feed)
    print(len(g), [x.shape for x in g], [float(x.sum()) for x in g])
    for _ in range(3):
        run_train(**feed)
    print(run_loss(**feed))


main()
