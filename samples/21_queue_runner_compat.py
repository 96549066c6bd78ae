# Queue-based input pipeline (string_input_producer + QueueRunner threads) and
# a tf.py_func node: there is no eager equivalent of queue runners, so this
# program has to stay on tf.compat.v1 (graph mode + Session).
import numpy as np
import tensorflow as tf

words = ["alpha", "beta", "gamma", "delta"]
queue = tf.train.string_input_producer(words, shuffle=False, num_epochs=2)
word = queue.dequeue()


def word_length(w):
    return np.int64(len(w))


length = tf.py_func(word_length, [word], tf.int64, stateful=False)
length = tf.Print(length, [word, length], message="dequeued: ")  # logs to stderr

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    total = 0
    try:
        while not coord.should_stop():
            w, n = sess.run([word, length])
            total += n
            print(w.decode(), n)
    except tf.errors.OutOfRangeError:
        print("epochs done, total length", total)
    finally:
        coord.request_stop()
    coord.join(threads)
