"""Functions whose every return is a dict, list or tuple of TF ops' results: a fetch of what a call gives
(``sess.run(cae(x, weights)['layers'])``, sjchoi86's autoencoders) is a graph value the run function computes."""

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
weights = {"h": tf.Variable([[1.0, -1.0], [0.5, 2.0]]), "out": tf.Variable([[1.0], [-1.0]])}


def net(_x, _w):
    _h = tf.nn.relu(tf.matmul(_x, _w["h"]))
    _out = tf.matmul(_h, _w["out"])
    result = _out
    return {"h": _h, "out": result, "layers": (_h, _out)}


pred = net(x, weights)["out"]
data = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(pred, {x: data}))
    print(sess.run(net(x, weights)["layers"], feed_dict={x: data}))
    print(sess.run(net(x, weights), feed_dict={x: data})["h"])
'''


def test_a_fetch_of_what_a_structure_function_returns_converts_and_prints_the_legacy_numbers():
    result = migrate_source(PROGRAM, "structure.py")
    assert result.outcome == "eager", result.compat_reason
    assert "    return net(x, weights)['layers']\n".replace("'", '"') in result.new_source
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))


def test_a_structure_function_that_makes_variables_is_not_a_value_a_run_computes():
    """Called in a run, it would make new variables at each call, as TF1 made new ones at each fetch."""
    source = PROGRAM.replace('    _out = tf.matmul(_h, _w["out"])\n',
                             '    _out = tf.matmul(_h, _w["out"]) + tf.Variable(0.0)\n')
    result = migrate_source(source, "structure_variables.py")
    assert result.outcome == "compat"
