"""variable-store: variables a function makes under a reusing variable scope are built once, shared by scoped name."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_compat, run_legacy, run_migrated

SIAMESE = """
import numpy as np
import tensorflow as tf


def net(x, reuse=False):
    with tf.variable_scope('siamese', reuse=reuse):
        w = tf.get_variable('w', [3, 2], initializer=tf.constant_initializer(0.3))
        b = tf.get_variable('b', [2], initializer=tf.constant_initializer(0.1))
        return tf.nn.tanh(tf.matmul(x, w) + b)


a = tf.placeholder(tf.float32, [None, 3])
b = tf.placeholder(tf.float32, [None, 3])
oa = net(a)
ob = net(b, reuse=True)
loss = tf.reduce_mean(tf.reduce_sum(tf.square(oa - ob), 1))
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
print([v.name for v in tf.trainable_variables()])
A = np.array([[1., 2., 3.], [0., 1., 0.]], np.float32)
B = np.array([[1., 0., 3.], [2., 1., 0.]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(5):
        print(sess.run([train, loss], {a: A, b: B})[1])
"""


def test_shared_variables_are_built_once_with_the_names_tf1_gave():
    # Built at module level, outside the scope: named in full ('siamese/w'), as TF1's store named them (the printed
    # names were 'w:0', 'b:0' before: a silent difference).
    result = migrate_source(SIAMESE, "siamese.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "siamese_w = tf.Variable(tf.constant_initializer(0.3)([3, 2]), name='siamese/w')" in code
    assert "    w = siamese_w\n" in code and "get_variable" not in code
    assert_same_output(run_legacy(SIAMESE), run_migrated(code))


def test_a_function_called_twice_without_reuse_is_left_alone():
    source = SIAMESE.replace("ob = net(b, reuse=True)", "ob = net(b)")
    result = migrate_source(source, "siamese.py")
    assert result.outcome == "compat"
    assert any(f.rule == "variable-store" and "without reuse" in f.message for f in result.findings)


def test_a_function_making_variables_called_in_a_loop_keeps_compat():
    """The loop's passes made `t0/tower/w` and `t1/tower/w` in TF1: building `w` once would share one variable."""
    source = '''
import numpy as np
import tensorflow as tf


def tower(x):
    with tf.variable_scope('tower'):
        w = tf.get_variable('w', [3, 2], initializer=tf.ones_initializer())
        return tf.matmul(x, w)


x = tf.placeholder(tf.float32, [None, 3])
outs = []
for i in range(2):
    with tf.variable_scope('t%d' % i):
        outs.append(tower(x * (i + 1)))
loss = tf.reduce_sum(outs[0]) + 2.0 * tf.reduce_sum(outs[1])
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, {x: np.ones((1, 3))})
    print(sess.run(outs, {x: np.ones((1, 3))}))
'''
    result = migrate_source(source, "towers.py")
    assert result.outcome == "compat"
    assert "called in a loop" in result.compat_reason, result.compat_reason


# Caicloud's "TensorFlow: Practical Deep Learning" (happyxuwork's copy, TestFlow.py): one name made in two graphs,
# looked up in each graph's session; a name-keyed store gave both lookups the second graph's variable.
TWO_GRAPHS = '''
import tensorflow as tf

g1 = tf.Graph()
with g1.as_default():
    v = tf.get_variable("v", shape=[2, 2], initializer=tf.zeros_initializer())
g2 = tf.Graph()
with g2.as_default():
    v = tf.get_variable("v", shape=[2, 3], initializer=tf.ones_initializer())
with tf.Session(graph=g1) as sess:
    tf.global_variables_initializer().run()
    with tf.variable_scope("", reuse=True):
        print(sess.run(tf.get_variable("v")))
with tf.Session(graph=g2) as sess:
    tf.global_variables_initializer().run()
    with tf.variable_scope("", reuse=True):
        print(sess.run(tf.get_variable("v")))
'''


def test_a_lookup_of_a_name_made_in_two_graphs_keeps_compat():
    result = migrate_source(TWO_GRAPHS, "two_graphs.py")
    assert result.outcome == "compat"
    assert "a name made in more than one graph" in result.compat_reason
    assert_same_output(run_legacy(TWO_GRAPHS), run_compat(result.new_source))
