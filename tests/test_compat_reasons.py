"""The compat reason names what kept the file compat: where a rule declined an API call, its words, not "no rewrite"."""
from tf_migrate.engine import migrate_source
from tf_migrate.report import GENERIC_REASON

DECLINED_LAYER = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
h = tf.layers.batch_normalization(x, renorm=True, training=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(h, {x: np.ones([2, 3])}).shape)
'''


def test_a_declined_layer_call_gives_the_rules_reason():
    result = migrate_source(DECLINED_LAYER, "bn.py")
    assert result.outcome == "compat"
    assert GENERIC_REASON not in result.compat_reason
    assert result.compat_reason == "tf.layers.batch_normalization with arguments Keras 3 lacks; not converted"


def test_an_api_no_rule_declined_keeps_the_generic_reason():
    source = DECLINED_LAYER.replace("renorm=True, ", "").replace("print(", "tf.train.write_graph(sess.graph_def, '/tmp', 'g.pb')\n    print(")
    result = migrate_source(source, "bn.py")
    assert result.outcome == "compat" and "write_graph" in result.compat_reason
