"""layers-to-keras: tf.layers calls become Keras layers built once; layers that share variables stay TF1."""
from tf_migrate.engine import migrate_source
# A second layer of one name under a reusing scope is the first layer's variables, called again (TF1 prints
# True); two Keras layers would be two sets of variables.
SHARED = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope('A'):
    h = tf.layers.dense(x, 4, name='l1')
with tf.variable_scope('A', reuse=True):
    h2 = tf.layers.dense(x, 4, name='l1')
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a, b = sess.run([h, h2], {x: np.ones((1, 3))})
    print(np.array_equal(a, b))
'''


def test_layers_under_a_reusing_scope_are_not_made_anew():
    for source in (SHARED, SHARED.replace("reuse=True", "reuse=tf.AUTO_REUSE"),
                   SHARED.replace("with tf.variable_scope('A', reuse=True):\n    h2 = tf.layers.dense(x, 4, name='l1')",
                                  "with tf.variable_scope('A'):\n    h2 = tf.layers.dense(x, 4, name='l1', reuse=True)")):
        result = migrate_source(source, "shared.py")
        assert result.outcome == "compat", source
        assert "keras.layers.Dense" not in result.new_source
        assert any("shares the variables of an earlier layer" in f.message for f in result.findings)


def test_a_function_that_builds_its_layers_once_through_its_reuse_parameter_converts():
    source = '''
import numpy as np
import tensorflow as tf


def net(x, reuse=False):
    with tf.variable_scope('net', reuse=reuse):
        return tf.layers.dense(x, 2, name='out', kernel_initializer=tf.ones_initializer())


x = tf.placeholder(tf.float32, [None, 3])
a = net(x)
b = net(x * 2.0, reuse=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([a, b], {x: np.ones((1, 3))}))
'''
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.findings
    assert result.new_source.count("tf.keras.layers.Dense(") == 1
