"""analysis/graph_only_attributes: ``W.op``, ``W.graph``, ``W.initial_value`` of a graph value.

A TF1 variable or tensor answers them (``sess.run(W.initial_value)``, ``print(W.op.name)``); an eager one raises.
The eager rewrite left such reads as they were, and the migrated program crashed where TF1 printed (GhibliField's
``0-Variable.py``, probe 30). They stay compat, with the reason at the read.
"""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

MODULE = '''import tensorflow as tf
W = tf.Variable(tf.ones([2, 2]), name="w")
y = tf.matmul(W, W)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y))
    {read}
'''
CLASS = '''import tensorflow as tf


class Net:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable(tf.ones([2, 1]), name="w")
        self.y = tf.matmul(self.x, self.w)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def show(self):
        print(self.sess.run(self.y, {self.x: [[1., 2.]]}))
        print(self.sess.run(self.w.initial_value))


Net().show()
'''
FUNCTION = '''import tensorflow as tf


def main():
    w = tf.Variable(tf.ones([2, 1]), name="w")
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.matmul(x, w)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(y, {x: [[1., 2.]]}))
        print(sess.run(w.initial_value))


main()
'''


def _reasons(result):
    return " | ".join(f.message for f in result.findings)


@pytest.mark.parametrize("read, attribute", [
    ("print(sess.run(W.initial_value))", "W.initial_value"),
    ("print(sess.run(W.op))", "W.op"),
    ("print(W.op.name)", "W.op"),
    ("print(W.graph is tf.get_default_graph())", "W.graph"),
    ("print(sess.run(y.op))", "y.op"),
])
def test_a_graph_only_attribute_of_a_module_value_keeps_the_file_compat(read, attribute):
    result = migrate_source(MODULE.format(read=read), "case.py")
    assert result.outcome == "compat"
    assert f"`{attribute}` reads" in _reasons(result)


@pytest.mark.parametrize("source, attribute", [pytest.param(CLASS, "self.w.initial_value", id="a class's method"),
                                               pytest.param(FUNCTION, "w.initial_value", id="a function")])
def test_a_graph_only_attribute_in_a_method_or_function_keeps_the_file_compat(source, attribute):
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert f"`{attribute}` reads" in _reasons(result)


def test_the_attributes_eager_values_have_still_convert(tmp_path):
    legacy = MODULE.format(read="print(W.dtype, W.shape, sess.run(W[0]))")
    result = migrate_source(legacy, "case.py")
    assert result.outcome == "eager", result.compat_reason
    # TF1's reference variable printed `float32_ref`: the verifier takes it for TF2's `float32`
    verified = verify_program(legacy, result.new_source, path=tmp_path / "case.py")
    assert verified.status == EQUIVALENT, verified.detail
