# tf.data in TF1: batches pulled from a one-shot iterator with get_next(),
# training until the iterator raises OutOfRangeError.
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
features = rng.randn(40, 2).astype(np.float32)
targets = (features @ np.array([[1.5], [-0.5]], dtype=np.float32) + 0.25).astype(np.float32)

dataset = tf.data.Dataset.from_tensor_slices((features, targets))
dataset = dataset.batch(8).repeat(3)
iterator = dataset.make_one_shot_iterator()
next_x, next_y = iterator.get_next()

w = tf.Variable(tf.zeros([2, 1]))
b = tf.Variable(0.0)
loss = tf.reduce_mean(tf.square(tf.matmul(next_x, w) + b - next_y))
train_op = tf.train.GradientDescentOptimizer(0.3).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    step = 0
    while True:
        try:
            _, l = sess.run([train_op, loss])
        except tf.errors.OutOfRangeError:
            break
        if step % 3 == 0:
            print("batch %2d loss %.5f" % (step, l))
        step += 1
    print("batches:", step)
    print("w:", np.round(sess.run(w).ravel(), 4), "b:", round(float(sess.run(b)), 4))
