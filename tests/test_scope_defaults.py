"""analysis/scope_defaults: variable scopes that give the variables made by name in them an initializer, a dtype...

TF1's store applied them to `tf.get_variable` (and layers) without their own; the eager rewrite made those
variables with TF1's plain defaults (Glorot-uniform), and the migrated program printed other numbers
(`--verify`: different, the initial values differ). Found by writing programs to probe how the variable store's
rewrite could go wrong. They stay compat, with the reason at the scope.
"""
import pytest

from tf_migrate.engine import migrate_source

PROGRAM = '''import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])


def layer(inp):
    w = tf.get_variable("w", [2, 2])
    return tf.matmul(inp, w)


{build}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {{x: np.ones((1, 2))}}))
'''


@pytest.mark.parametrize("build, given", [
    pytest.param('with tf.variable_scope("layer", initializer=tf.constant_initializer(0.5)):\n'
                 '    w = tf.get_variable("w", [2, 2])\ny = tf.matmul(x, w)', "initializer", id="get_variable"),
    pytest.param('with tf.variable_scope("net", initializer=tf.constant_initializer(0.25)):\n    y = layer(x)',
                 "initializer", id="a function the scope calls"),
    pytest.param('with tf.variable_scope("net", regularizer=tf.nn.l2_loss):\n    y = tf.layers.dense(x, 2)',
                 "regularizer", id="a tf.layers layer"),
    pytest.param('with tf.variable_scope("net", None, None, tf.ones_initializer()):\n    y = layer(x)',
                 "initializer", id="given by position"),
])
def test_a_scope_giving_defaults_to_variables_made_by_name_keeps_the_file_compat(build, given):
    result = migrate_source(PROGRAM.format(build=build), "defaults.py")
    assert result.outcome == "compat"
    assert f"a variable scope gives the variables made in it by name a default {given}" in result.compat_reason


def test_setting_a_default_on_a_scope_keeps_the_file_compat():
    build = 'tf.get_variable_scope().set_initializer(tf.ones_initializer())\ny = layer(x)'
    result = migrate_source(PROGRAM.format(build=build), "defaults.py")
    assert result.outcome == "compat"
    assert "`set_initializer` sets a default" in result.compat_reason


@pytest.mark.parametrize("build", [
    pytest.param('with tf.variable_scope("net", initializer=tf.constant_initializer(0.5)):\n'
                 '    w = tf.Variable(tf.ones([2, 2]))\ny = tf.matmul(x, w)', id="tf.Variable ignores them"),
    pytest.param('with tf.variable_scope("net", initializer=None):\n    y = layer(x)', id="None gives none"),
])
def test_scopes_that_give_no_default_still_convert(build):
    result = migrate_source(PROGRAM.format(build=build), "defaults.py")
    assert result.outcome == "eager", result.compat_reason
