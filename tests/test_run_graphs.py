"""Programs that build several graphs (analysis/run_graphs): tf.reset_default_graph(), a notebook's second model in
a tf.Graph() of its own. Each graph's collections, Savers and initializer runs are that graph's alone."""
import pytest

from tf_migrate.engine import migrate_source

RESET = '''
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.ones([3, 2]) * 0.1, name='w')
cost = tf.reduce_mean(tf.square(tf.matmul(x, w)))
train = tf.train.GradientDescentOptimizer(0.1).minimize(cost)
xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([train, cost], {x: xs})[1])
tf.reset_default_graph()
x = tf.placeholder(tf.float32, [None, 3])
v = tf.Variable(tf.ones([3, 2]) * 0.2, name='v')
u = tf.Variable(3.0)
cost = tf.reduce_mean(tf.square(tf.matmul(x, v)))
train = tf.train.GradientDescentOptimizer(0.1).minimize(cost)
print(len(tf.trainable_variables()), [t.name for t in tf.global_variables()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([train, cost], {x: xs})[1])
'''

# rasbt's notebooks: a second model in a graph of its own, bound to the same name, run by graph names.
TWO_GRAPHS = '''
import numpy as np
import tensorflow as tf
xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
ys = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], np.float32)
g = tf.Graph()
with g.as_default():
    tf_x = tf.placeholder(tf.float32, [None, 3], name='features')
    tf_y = tf.placeholder(tf.float32, [None, 2], name='targets')
    w = tf.Variable(tf.ones([3, 2]) * 0.1)
    cost = tf.reduce_mean(tf.square(tf.matmul(tf_x, w) - tf_y), name='cost')
    train = tf.train.GradientDescentOptimizer(0.1).minimize(cost, name='train')
with tf.Session(graph=g) as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(2):
        print(sess.run(['train', 'cost:0'], feed_dict={'features:0': xs, 'targets:0': ys})[1])
g = tf.Graph()
with g.as_default():
    tf_x = tf.placeholder(tf.float32, [None, 3], name='features')
    tf_y = tf.placeholder(tf.float32, [None, 2], name='targets')
    v = tf.Variable(tf.ones([3, 2]) * 0.3)
    b = tf.Variable(tf.zeros([2]))
    cost = tf.reduce_mean(tf.square(tf.matmul(tf_x, v) + b - tf_y), name='cost')
    train = tf.train.GradientDescentOptimizer(0.1).minimize(cost, name='train')
    print(len(tf.trainable_variables()))
with tf.Session(graph=g) as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(2):
        print(sess.run(['train', 'cost:0'], feed_dict={'features:0': xs, 'targets:0': ys})[1])
'''


@pytest.mark.parametrize("source", [RESET, TWO_GRAPHS], ids=["reset_default_graph", "two tf.Graph()s"])
def test_each_graph_lists_and_trains_its_own_variables(source, tmp_path):
    """Before, the second section's collections also held the first section's variables: `2 ['v:0', ...]`
    printed as `3 ['w:0', 'v:0', ...]`, and the second initializer run kept the notebook compat. (Run as
    programs: the in-process twin runs under a graph of its own, where reset_default_graph() does nothing.)"""
    from tf_migrate.verify import verify_program
    result = migrate_source(source, "graphs.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "graphs.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_saver_after_another_graphs_variables_stays_compat():
    """TF1 named each graph's variables afresh (`Variable`, not `Variable_1`): the checkpoint held other keys."""
    source = RESET + "saver = tf.train.Saver()\nwith tf.Session() as sess:\n" \
        "    sess.run(tf.global_variables_initializer())\n    saver.save(sess, '/tmp/graphs_saver')\n"
    result = migrate_source(source, "graphs.py")
    assert result.outcome == "compat"
    assert any("variables made in another graph" in f.message for f in result.findings)


def test_a_graph_initialized_again_in_a_second_session_stays_compat():
    source = ("import tensorflow as tf\ng = tf.Graph()\nwith g.as_default():\n    w = tf.Variable(1.0)\n"
              "    inc = tf.assign_add(w, 1.0)\nwith tf.Session(graph=g) as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n    sess.run(inc)\n    print(sess.run(w))\n"
              "with tf.Session(graph=g) as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run(w))\n")
    result = migrate_source(source, "graphs.py")
    assert result.outcome == "compat"
    assert "initialized again" in result.compat_reason


def test_a_name_bound_again_in_the_next_graph_does_not_hide_a_variable_of_it(tmp_path):
    """`w` names the first graph's variable, then the second's: the second graph's collection holds only the
    second, so nothing is hidden from it (it kept the file compat)."""
    from tf_migrate.verify import verify_program
    source = ("import tensorflow as tf\nw = tf.Variable(1.0, name='w')\nwith tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n    print(sess.run(w))\ntf.reset_default_graph()\n"
              "w = tf.Variable(2.0, name='w')\nb = tf.Variable(3.0, name='b')\n"
              "print([v.name for v in tf.global_variables()])\nwith tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n    print(sess.run(w + b))\n")
    result = migrate_source(source, "graphs.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "graphs.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_selection_by_name_lists_its_own_graphs_variables():
    """The first graph's `gen/w` matches `startswith('gen')` too, but TF1's list was the second graph's."""
    source = ("import tensorflow as tf\nwith tf.variable_scope('gen'):\n    w = tf.Variable(1.0, name='w')\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n    print(sess.run(w))\n"
              "tf.reset_default_graph()\nx = tf.placeholder(tf.float32, [])\nwith tf.variable_scope('gen'):\n"
              "    v = tf.Variable(2.0, name='v')\nwith tf.variable_scope('dis'):\n    d = tf.Variable(3.0, name='d')\n"
              "loss = tf.square(v * d - x)\ng_vars = [t for t in tf.trainable_variables() if t.name.startswith('gen')]\n"
              "train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, var_list=g_vars)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run([train, loss], {x: 1.0})[1], sess.run([v, d]))\n")
    result = migrate_source(source, "graphs.py")
    assert result.outcome == "eager", result.compat_reason
    assert "g_vars = [v]" in result.new_source


# adeshpande3's "Universal Approximation Theorem" notebook: a helper given the session runs the module's
# `correct`, which the second section binds again in a new graph. It went eager and crashed (NameError: the helper
# called the run function generated for the second graph, which did not exist yet when the first section called it).
HELPER_ACROSS_GRAPHS = '''
import numpy as np
import tensorflow as tf
xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10


def evaluate(session):
    return session.run(correct, feed_dict={x: xs})


x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.ones([3, 2]) * 0.1)
correct = tf.reduce_sum(tf.matmul(x, w))
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(evaluate(sess))
tf.reset_default_graph()
x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.ones([3, 2]) * 0.2)
correct = tf.reduce_sum(tf.matmul(x, w))
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(evaluate(sess))
'''


def test_a_helper_running_a_name_each_graph_binds_anew_stays_compat():
    result = migrate_source(HELPER_ACROSS_GRAPHS, "sections.py")
    assert result.outcome == "compat"
    assert ("`evaluate` runs `correct`, which the program binds in more than one graph: each call ran the one its "
            "name held then") in result.compat_reason
    one_graph = HELPER_ACROSS_GRAPHS.split("tf.reset_default_graph()")[0]
    assert migrate_source(one_graph, "sections.py").outcome == "eager"
