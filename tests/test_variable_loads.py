"""``v.load(value, sess)``: TF1 writes the variable at once, in the session; it builds no op a run fetches.

The eager rewrite took it for an op built and never run, and dropped it: the migrated program computed on with the
old value and printed other numbers (an InteractiveSession program, written to probe how a variable write could
go wrong). It stays compat, with the reason at the call (analysis/classify).
"""
import pytest

from tf_migrate.engine import migrate_source

PROGRAM = '''import numpy as np
import tensorflow as tf
sess = tf.InteractiveSession()
a = tf.Variable(tf.zeros([3]))
a.initializer.run()
d = a * tf.constant([0.0, 1.0, 2.0])
print(d.eval())
{load}
print(d.eval())
'''


@pytest.mark.parametrize("load", ["a.load([5.0, 5.0, 5.0])", "a.load([5.0, 5.0, 5.0], sess)",
                                  "a.load(np.ones(3), session=sess)"])
def test_a_variable_load_keeps_the_file_compat(load):
    result = migrate_source(PROGRAM.format(load=load), "load.py")
    assert result.outcome == "compat"
    assert "`a.load` writes the variable at once" in result.compat_reason


def test_an_assign_run_where_it_stands_still_converts():
    result = migrate_source(PROGRAM.format(load="a.assign([5.0, 5.0, 5.0]).eval()"), "load.py")
    assert result.outcome == "eager", result.compat_reason
