"""dead-collections: `update_ops = []` (an emptied UPDATE_OPS collection nothing reads any more) is dropped."""
from tf_migrate.engine import migrate_source

PROGRAM = '''\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(np.ones((2, 1), np.float32))
loss = tf.reduce_mean(tf.matmul(x, w))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([train, loss], {x: np.ones((1, 2))})[1])
'''


def test_an_emptied_collection_nothing_reads_is_dropped():
    result = migrate_source(PROGRAM, "bn.py")
    assert result.outcome == "eager", result.findings
    assert "update_ops" not in result.new_source
    assert any(f.rule == "dead-collections" for f in result.findings)


def test_a_collection_the_program_still_reads_stays():
    source = PROGRAM + "print(len(update_ops))\n"
    result = migrate_source(source, "bn.py")
    assert result.outcome == "eager", result.findings
    assert "update_ops = []" in result.new_source
    assert "print(len(update_ops))" in result.new_source


def test_a_users_own_empty_list_stays():
    source = PROGRAM.replace("update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)\n", "update_ops = []\n")
    result = migrate_source(source + "unused = []\n", "bn.py")
    assert result.outcome == "eager", result.findings
    assert "unused = []" in result.new_source
    assert "update_ops = []" in result.new_source  # the input bound it so, not to a collection
