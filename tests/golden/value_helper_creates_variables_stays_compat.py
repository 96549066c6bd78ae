# R4: a helper creates variables; main() calls it on a placeholder and differentiates
# tf.trainable_variables(). Moving the call into a run function would make new variables at
# every run, so the file stays in compat mode (the tf.Module rewrite is future work).
import numpy as np
import tensorflow as tf


def mlp(x):
    w = tf.Variable(tf.ones([2, 1]) * 0.5)
    b = tf.Variable(tf.zeros([1]))
    return tf.matmul(x, w) + b


def main():
    inputs = tf.placeholder(tf.float32, [None, 2])
    out = mlp(inputs)
    loss = tf.reduce_sum(out ** 2)
    grads = tf.gradients(loss, tf.trainable_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        g = sess.run(grads, {inputs: np.ones((3, 2), np.float32)})
        print(len(g), [x.tolist() for x in g])


main()
# output
# R4: a helper creates variables; main() calls it on a placeholder and differentiates
# tf.trainable_variables(). Moving the call into a run function would make new variables at
# every run, so the file stays in compat mode (the tf.Module rewrite is future work).
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()


def mlp(x):
    w = tf.Variable(tf.ones([2, 1]) * 0.5)
    b = tf.Variable(tf.zeros([1]))
    return tf.matmul(x, w) + b


def main():
    inputs = tf.placeholder(tf.float32, [None, 2])
    out = mlp(inputs)
    loss = tf.reduce_sum(out ** 2)
    grads = tf.gradients(loss, tf.trainable_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        g = sess.run(grads, {inputs: np.ones((3, 2), np.float32)})
        print(len(g), [x.tolist() for x in g])


main()
