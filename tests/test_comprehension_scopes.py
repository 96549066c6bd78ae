"""Names a comprehension or a lambda binds are its own (analysis/symbols.reads, analysis/escapes): a program whose
data loop reuses a placeholder's name (``[[int(x[0] + x[1] < 1)] for x in x_data]``, nex3z's notebook) reads
no placeholder there."""
import libcst as cst
import pytest

from tf_migrate.analysis.symbols import reads
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated


@pytest.mark.parametrize("statement, expected", [
    ("y = [[int(x[0] + x[1] < 1)] for x in x_data]", {"y", "int", "x_data"}),
    ("y = {k: v * x for k, v in pairs.items() if v}", {"y", "pairs", "x"}),
    ("y = [a * b for a in rows for b in a if b > x]", {"y", "rows", "x"}),
    ("y = [x for x in x]", {"y", "x"}),  # the first iterable is read outside the comprehension
    ("f = lambda x, k=k0: x * k + w", {"f", "k0", "w"}),
])
def test_reads_leave_out_the_names_a_comprehension_or_lambda_binds(statement, expected):
    assert reads(cst.parse_module(statement + "\n").body[0]) == expected


PROGRAM = '''import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, shape=(None, 2), name="x")
y_ = tf.placeholder(tf.float32, shape=(None, 1), name="y_")
w = tf.Variable(np.full((2, 1), 0.5, np.float32))
y = tf.sigmoid(tf.matmul(x, w))
loss = tf.reduce_mean(tf.square(y - y_))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
rnd = np.random.RandomState(1)
x_data = rnd.rand(16, 2)
y_data = [[int(x[0] + x[1] < 1)] for x in x_data]
scaled = list(map(lambda x: x * 2.0, x_data[:2]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(train_step, feed_dict={x: x_data, y_: y_data})
        print(sess.run(loss, feed_dict={x: x_data, y_: y_data}))
    print(np.round(scaled, 4))
'''


def test_a_data_loop_reusing_a_placeholders_name_goes_eager_with_the_same_numbers():
    result = migrate_source(PROGRAM, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "y_data = [[int(x[0] + x[1] < 1)] for x in x_data]" in result.new_source
    assert_same_output(run_legacy(PROGRAM), run_migrated(result.new_source))
