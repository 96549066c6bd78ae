# A small MLP classifier with tf.layers.dense (default Glorot-uniform kernels),
# trained with Adam on two interleaved half moons made with numpy.
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
rng = np.random.RandomState(0)
n = 100
angles = rng.uniform(0, np.pi, n)
X_data = np.concatenate([np.c_[np.cos(angles), np.sin(angles)],
                         np.c_[1 - np.cos(angles), 0.5 - np.sin(angles)]]).astype(np.float32)
y_data = np.concatenate([np.zeros(n), np.ones(n)]).astype(np.int64)

features = tf.placeholder(tf.float32, [None, 2], name="features")
labels = tf.placeholder(tf.int64, [None], name="labels")

hidden = tf.layers.dense(features, 16, activation=tf.nn.relu, name="hidden1")
hidden = tf.layers.dense(hidden, 16, activation=tf.nn.relu, name="hidden2")
logits = tf.layers.dense(hidden, 2, name="logits")

loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
predictions = tf.argmax(logits, axis=1)
accuracy = tf.reduce_mean(tf.cast(tf.equal(predictions, labels), tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(201):
        _, loss_val = sess.run([train_op, loss], feed_dict={features: X_data, labels: y_data})
        if step % 50 == 0:
            print("step %3d loss %.5f" % (step, loss_val))
    print("accuracy: %.3f" % sess.run(accuracy, feed_dict={features: X_data, labels: y_data}))
    # Shapes, in TF1's creation order (Keras names variables "kernel"/"bias", TF1 "hidden1/kernel:0").
    print("variables:", [list(map(int, v.shape)) for v in tf.trainable_variables()])
