import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
h = x
for width in (8, 4):
    h = tf.layers.dense(h, width)
y = tf.reduce_sum(h)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: [[1.0, 2.0, 3.0, 4.0]]}).shape)
# output
import tensorflow as tf
denses = []
h_shape = tf.TensorShape([None, 4])  # carried through the loop that makes the layers
for width in (8, 4):
    dense = tf.keras.layers.Dense(units=width)
    dense.build(h_shape)
    h_shape = dense.compute_output_shape(h_shape)
    denses.append(dense)


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
def run_y(x):
    h = x
    for dense_i in denses:
        h = dense_i(h)
    y = tf.reduce_sum(h)
    return y


print(run_y(x=[[1.0, 2.0, 3.0, 4.0]]).numpy().shape)
