"""tensor-names: runs by graph name ('cost:0', 'train', {'features:0': x}) become runs of the Python names."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

GRAPH = '''
import numpy as np
import tensorflow as tf

g = tf.Graph()
with g.as_default():
    tf_x = tf.placeholder(tf.float32, [None, 3], name='features')
    tf_y = tf.placeholder(tf.float32, [None, 2], name='targets')
    w = tf.Variable(tf.ones([3, 2]) * 0.1)
    out = tf.matmul(tf_x, w)
    with tf.name_scope('loss'):
        cost = tf.reduce_mean(tf.square(out - tf_y), name='cost')
    train = tf.train.GradientDescentOptimizer(0.1).minimize(cost, name='train')
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(out, 1), tf.argmax(tf_y, 1)), tf.float32), name='accuracy')

xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
ys = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], np.float32)
with tf.Session(graph=g) as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        _, c = sess.run(['train', 'loss/cost:0'], feed_dict={'features:0': xs, 'targets:0': ys})
        print(c)
    print(sess.run('accuracy:0', feed_dict={'features:0': xs, 'targets:0': ys}))
'''


def test_runs_by_graph_name_convert_and_print_the_legacy_numbers():
    result = migrate_source(GRAPH, "names.py")
    assert result.outcome == "eager", result.compat_reason
    assert "'features:0'" not in result.new_source and "'cost:0'" not in result.new_source
    assert_same_output(run_legacy(GRAPH), run_migrated(result.new_source))


def _reason(source: str) -> str:
    result = migrate_source(source, "names.py")
    assert result.outcome == "compat"
    return " ".join(f.message for f in result.findings if f.rule == "tensor-names")


def test_a_name_made_by_a_layer_is_not_its_output():
    """tf.layers.dense(name='out') names a scope: TF1's ops are `out/BiasAdd`, and `out:0` is no output of it."""
    source = GRAPH.replace("out = tf.matmul(tf_x, w)", "out = tf.layers.dense(tf_x, 2, name='logits')").replace(
        "'accuracy:0'", "'logits:0'")
    assert "`logits` is not given by exactly one call" in _reason(source)


def test_a_scope_entered_twice_leaves_its_names_unknown():
    """TF1 named the second `loss` scope `loss_1`: which `loss/cost` a string means is not read from the text."""
    source = GRAPH.replace("    train = tf.train", "    with tf.name_scope('loss'):\n"
                           "        cost2 = tf.reduce_mean(tf.square(out), name='cost')\n    train = tf.train")
    assert "names are given inside a scope the analysis does not follow" in _reason(source)


def test_a_name_bound_again_before_the_run_is_not_resolved():
    source = GRAPH.replace("xs = np.arange", "tf_x = None\nxs = np.arange")
    assert "`tf_x` is bound again before this run" in _reason(source)


def test_an_operation_name_is_not_a_tensor_and_the_other_way():
    """'train:0' has no output, and 'loss/cost' without an index fetches the op (None in TF1), not the value."""
    assert "names a tensor the text does not bind" in _reason(GRAPH.replace("'train', 'loss/cost:0'",
                                                                             "'train:0', 'loss/cost:0'"))
    assert "names an operation the text does not bind" in _reason(GRAPH.replace("'loss/cost:0'", "'loss/cost'"))


def test_a_name_given_in_a_function_may_be_made_again():
    source = GRAPH.replace("xs = np.arange", "def more():\n    return tf.identity(1.0, name='accuracy')\n\n\n"
                           "xs = np.arange")
    assert "`accuracy` is not given by exactly one call" in _reason(source)


def test_an_unknown_name_inside_a_fetch_list_keeps_the_file_compat():
    """`sess.run([y, 'MatMul:0'])`: the session rule saw only a fetch that is a string itself, and the eager
    program printed the string where TF1 printed the tensor."""
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
              "y = tf.matmul(x, tf.ones([2, 1]))\nsess = tf.Session()\n"
              "print(sess.run([y, 'MatMul:0'], {x: np.ones((2, 2))}))\n"
              "print(sess.run({'a': y, 'b': 'MatMul:0'}, {x: np.ones((2, 2))}))\n")
    result = migrate_source(source, "names.py")
    assert result.outcome == "compat"
    assert "sess.run by tensor name" in result.compat_reason


def test_a_name_bound_again_in_the_block_that_made_it_is_not_resolved():
    """`'features:0'` is the placeholder; `tf_x` holds `tf_x * 2` by the run: feeding it would feed another tensor."""
    source = GRAPH.replace("    w = tf.Variable(tf.ones([3, 2]) * 0.1)\n",
                           "    tf_x = tf_x * 2.0\n    w = tf.Variable(tf.ones([3, 2]) * 0.1)\n")
    assert "`tf_x` is bound again before this run" in _reason(source)


def test_a_name_bound_again_in_the_loop_around_the_run_is_not_resolved():
    source = GRAPH.replace("        print(c)\n", "        print(c)\n        cost = None\n")
    assert "`cost` is bound again before this run" in _reason(source)


def test_names_made_and_run_in_one_session_block_convert():
    source = ("import tensorflow as tf\nwith tf.Session() as sess:\n"
              "    x = tf.placeholder(tf.float32, [None], name='x')\n"
              "    total = tf.reduce_sum(x * 2.0, name='total')\n"
              "    print(sess.run('total:0', {'x:0': [1.0, 2.0]}))\n")
    result = migrate_source(source, "names.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
