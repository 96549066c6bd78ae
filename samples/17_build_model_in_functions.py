# Graph built by helper functions and a main() that owns the session, the way
# larger TF1 scripts are organised.
import numpy as np
import tensorflow as tf

N_FEATURES = 4
N_CLASSES = 3


def build_model(x):
    """Two dense layers written out by hand; returns logits."""
    with tf.variable_scope("layer1"):
        w1 = tf.get_variable("w", initializer=tf.constant(np.full((N_FEATURES, 8), 0.1, np.float32)))
        b1 = tf.get_variable("b", [8], initializer=tf.zeros_initializer())
        h1 = tf.nn.relu(tf.matmul(x, w1) + b1)
    with tf.variable_scope("layer2"):
        w2 = tf.get_variable("w", initializer=tf.constant(np.linspace(-0.2, 0.2, 8 * N_CLASSES, dtype=np.float32).reshape(8, N_CLASSES)))
        b2 = tf.get_variable("b", [N_CLASSES], initializer=tf.zeros_initializer())
    return tf.matmul(h1, w2) + b2


def build_loss(logits, labels):
    xent = tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.one_hot(labels, N_CLASSES), logits=logits)
    return tf.reduce_mean(xent)


def make_data(n):
    rng = np.random.RandomState(0)
    features = rng.randn(n, N_FEATURES).astype(np.float32)
    labels = (features[:, 0] > 0).astype(np.int32) + (features[:, 1] > 1).astype(np.int32)
    return features, labels


def main():
    x = tf.placeholder(tf.float32, [None, N_FEATURES], name="x")
    labels = tf.placeholder(tf.int32, [None], name="labels")
    logits = build_model(x)
    loss = build_loss(logits, labels)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), labels), tf.float32))

    features, targets = make_data(120)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(40):
            _, loss_val = sess.run([train_op, loss], feed_dict={x: features, labels: targets})
            if step % 10 == 0:
                print("step", step, "loss", round(float(loss_val), 5))
        acc = sess.run(accuracy, feed_dict={x: features, labels: targets})
        print("train accuracy: %.3f" % acc)


if __name__ == "__main__":
    main()
