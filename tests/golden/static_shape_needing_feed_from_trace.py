# The static shape of a tensor that needs a feed is what TF1 inferred when it built the graph:
# the trace of the tensor's run function infers the same ((?, 3) then, (None, 3) now).
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
h = tf.nn.relu(x)
print(h.shape)
with tf.Session() as sess:
    print(sess.run(h, {x: [[1.0, -1.0, 2.0]]}))
# output
# The static shape of a tensor that needs a feed is what TF1 inferred when it built the graph:
# the trace of the tensor's run function infers the same ((?, 3) then, (None, 3) now).
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def run_h(x):
    h = tf.nn.relu(x)
    return h


print(run_h.get_concrete_function().structured_outputs.shape)
print(run_h(x=[[1.0, -1.0, 2.0]]).numpy())
