# numeric
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
w = tf.Variable(2.0)
loss = tf.reduce_mean((w * x - 1.0) ** 2)
opt = tf.train.GradientDescentOptimizer(0.1)
train = opt.apply_gradients([(tf.clip_by_value(g, -0.5, 0.5), v) for g, v in opt.compute_gradients(loss)])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train, {x: np.arange(3.0)})
        print(sess.run(w))
# output
# numeric
import numpy as np
import tensorflow as tf
w = tf.Variable(2.0)
opt = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def run_train(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((w * x - 1.0) ** 2)
    grads_and_vars = list(zip(tape.gradient(loss, [w]), [w]))
    opt.apply_gradients([(tf.clip_by_value(g, -0.5, 0.5), v) for g, v in grads_and_vars])


for _ in range(3):
    run_train(x=np.arange(3.0))
    print(w.numpy())
