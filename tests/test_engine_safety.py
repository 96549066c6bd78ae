"""The engine's last line of defence: output that Python would not compile is never emitted."""
from __future__ import annotations

import libcst as cst

from tf_migrate import engine, report
from tf_migrate.rules.imports_for_eager import EagerImports

LEGACY = ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\ny = tf.reduce_sum(x)\n"
          "with tf.Session() as sess:\n    print(sess.run(y, {x: [1.0]}))\n")


def test_output_that_does_not_compile_keeps_the_input(monkeypatch):
    original = EagerImports.apply

    def broken(self, module, ctx):  # a rule bug: `return` at module level
        module = original(self, module, ctx)
        return module.with_changes(body=[*module.body, cst.SimpleStatementLine([cst.Return(cst.Integer("1"))])])

    monkeypatch.setattr(EagerImports, "apply", broken)
    result = engine.migrate_source(LEGACY, "broken.py")
    assert result.outcome == report.FAILED and result.new_source == LEGACY
    assert any(f.rule == "engine" and "output does not parse" in f.message for f in result.findings)


def test_the_same_program_migrates_without_the_bug():
    result = engine.migrate_source(LEGACY, "fine.py")
    assert result.outcome == report.EAGER and "def run_y(x)" in result.new_source


def test_eval_on_a_value_the_analysis_did_not_know_keeps_the_file_in_compat_mode():
    """`.eval()` of an expression the model does not type (a conditional picking a tensor): left as is by the
    session rule, it raises in eager mode. (Elements of a list of eager tensors are known: see test_value_model.)"""
    source = ("import tensorflow as tf\nsess = tf.InteractiveSession()\na = tf.ones([2])\nb = tf.zeros([2])\n"
              "print((a if len('x') else b).eval())\n")
    result = engine.migrate_source(source, "case.py")
    assert result.outcome == report.COMPAT
    assert any("graph-only `.eval()`" in f.message for f in result.findings)


def test_a_class_defining_eval_is_not_mistaken_for_a_tensor():
    source = LEGACY + "class Model:\n    def eval(self):\n        return 1\nprint(Model().eval())\n"
    assert engine.migrate_source(source, "case.py").outcome == report.EAGER


def test_eager_output_still_importing_contrib_keeps_the_file_in_compat_mode():
    """A contrib module imported and used on Python values only (slim's variable table): no rule flags it as a
    graph value, but TF2 has no contrib, so eager output naming it would fail at its import."""
    source = ("import tensorflow as tf\nimport tensorflow.contrib.slim as slim\nw = tf.Variable(1.0)\n"
              "slim.model_analyzer.analyze_vars([w], print_info=True)\n")
    result = engine.migrate_source(source, "case.py")
    assert result.outcome == report.COMPAT
    assert "`tensorflow.contrib`, which TF2 does not have" in result.compat_reason


# A layer helper called twice with its layers in a loop (jachiam's `mlp(x, hidden_sizes)`), in a program written in
# one function: no rule converts the helper's `tf.layers.dense`, which TF2 does not have. It went eager and crashed
# (AttributeError) at the first run. (Its `for` loop form converts now, tests/rules/test_layer_loops.py: a `while`
# loop keeps it out of every rule.)
LAYER_LOOP_HELPER = '''import numpy as np
import tensorflow as tf


def mlp(x, hidden_sizes=(8,)):
    i = 0
    while i < len(hidden_sizes):
        x = tf.layers.dense(x, units=hidden_sizes[i], activation=tf.tanh)
        i += 1
    return x


def train(hidden=4, n_acts=2):
    x = tf.placeholder(tf.float32, [None, 3])
    q = tf.layers.dense(mlp(x, [hidden]), units=n_acts)
    q2 = tf.layers.dense(mlp(x, [hidden]), units=n_acts)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(q, {x: np.ones([1, 3])}).shape, sess.run(q2, {x: np.ones([1, 3])}).shape)


train()
'''


def test_eager_output_that_would_still_call_tf_layers_stays_compat():
    result = engine.migrate_source(LAYER_LOOP_HELPER, "mlp.py")
    assert result.outcome == report.COMPAT
    assert result.compat_reason == "the eager rewrite would still use `tf.layers`, which TF2 does not have"
