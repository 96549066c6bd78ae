"""The input widths layers-to-keras builds Keras layers for (`rules/_layer_shapes`): read where the program states
them, and none where two calls of one text disagree."""
from tf_migrate.engine import migrate_source


# Two models built one after the other by lines of the same text (a notebook's autoencoder, then its denoising
# version with wider layers): `tf.layers.dense(h, 1)` reads a 3-wide `h` in the first and a 5-wide one in the
# second. Before: the widths were recorded by the call's text, and the first model's layer was built for the second's
# input (a ValueError from Keras' input spec at its first call).
TWO_MODELS_ONE_TEXT = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
h = tf.layers.dense(x, 3, activation=tf.nn.relu)
out = tf.layers.dense(h, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {x: np.ones((1, 2))}).shape)

tf.reset_default_graph()
x = tf.placeholder(tf.float32, [None, 2])
h = tf.layers.dense(x, 5, activation=tf.nn.relu)
out = tf.layers.dense(h, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {x: np.ones((4, 2))}).shape)
'''


def test_layers_of_the_same_text_given_inputs_of_other_widths_build_at_their_first_call(tmp_path):
    from tf_migrate.verify import verify_program
    result = migrate_source(TWO_MODELS_ONE_TEXT, "twice.py")
    assert result.outcome == "eager", result.compat_reason
    assert "dense.build((None, 2))" in result.new_source and ".build((None, 5))" not in result.new_source
    verdict = verify_program(TWO_MODELS_ONE_TEXT, result.new_source, path=tmp_path / "twice.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
