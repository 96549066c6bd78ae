import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
labels = tf.placeholder(tf.int64, [None])
training = tf.placeholder_with_default(False, [])


def model(inputs, reuse=False):
    with tf.variable_scope("model", reuse=reuse):
        h = tf.layers.dense(inputs, 16, activation=tf.nn.relu, name="hidden")
        h = tf.layers.dropout(h, rate=0.3, training=training)
        return tf.layers.dense(h, 3, name="logits")


logits = model(x)
eval_logits = model(x, reuse=True)
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
params = tf.trainable_variables(scope="model")
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=params)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    data = np.ones((2, 4))
    sess.run(train_op, {x: data, labels: [0, 1], training: True})
    print(sess.run(eval_logits, {x: data}).shape)
# output
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


def model(inputs, *, training):
    h = hidden(inputs)
    h = dropout(h, training=training)
    return logits_2(h)


hidden = tf.keras.layers.Dense(units=16, activation=tf.nn.relu, name="hidden")
hidden.build((None, 4))
dropout = tf.keras.layers.Dropout(rate=0.3)
logits_2 = tf.keras.layers.Dense(units=3, name="logits")
logits_2.build((None, 16))


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
def run_eval_logits(x):
    training = False
    eval_logits = model(x, training=training)
    return eval_logits


params = [*hidden.trainable_variables, *logits_2.trainable_variables]
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None], tf.int64)])
def run_train_op(x, labels):
    training = True
    with tf.GradientTape() as tape:
        logits = model(x, training=training)
        loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    gradients = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(gradients, params))


data = np.ones((2, 4))
run_train_op(x=data, labels=[0, 1])
print(to_numpy(run_eval_logits(x=data)).shape)
