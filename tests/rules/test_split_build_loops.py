"""split-build-loops: a loop that makes variables and computes on them -> a making loop and a computing loop."""

from tf_migrate.engine import migrate_source
from tf_migrate.rules.split_build_loops import SplitBuildLoops
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

# pkmital's polynomial regression: the bias is bound to the name the loop then accumulates into.
POLYNOMIAL = '''
import numpy as np
import tensorflow as tf

xs = np.linspace(-1.0, 1.0, 8).astype(np.float32)
ys = (xs ** 3 - xs).astype(np.float32)
X = tf.placeholder(tf.float32)
Y = tf.placeholder(tf.float32)
Y_pred = tf.Variable(tf.fill([1], 0.2), name='bias')
for pow_i in range(1, 4):
    W = tf.Variable(tf.fill([1], 0.1 * pow_i), name='weight_%d' % pow_i)
    Y_pred = tf.add(tf.multiply(tf.pow(X, pow_i), W), Y_pred)
cost = tf.reduce_sum(tf.pow(Y_pred - Y, 2)) / 7.0
train = tf.train.GradientDescentOptimizer(0.05).minimize(cost)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(5):
        sess.run(train, feed_dict={X: xs, Y: ys})
        print(epoch, sess.run(cost, feed_dict={X: xs, Y: ys}))
    print(np.round(sess.run(Y_pred, feed_dict={X: xs}), 5))
    print([np.round(v, 5).tolist() for v in sess.run(tf.trainable_variables())])
'''

# A layer loop: each layer's weights read by the step's matmul, sizes from a list.
LAYERS = '''
import numpy as np
import tensorflow as tf

sizes = [3, 4, 2]
x = tf.placeholder(tf.float32, [None, 3])
h = x
for layer_i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
    name = 'layer%d' % layer_i
    W = tf.Variable(tf.fill([n_in, n_out], 0.1 * (layer_i + 1)), name=name + '_W')
    b = tf.Variable(tf.zeros([n_out]), name=name + '_b')
    h = tf.nn.tanh(tf.matmul(h, W) + b)
loss = tf.reduce_mean(tf.square(h - 0.5))
step = tf.train.AdamOptimizer(0.01).minimize(loss)
data = np.linspace(0.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(4):
        print(i, sess.run([loss, step], {x: data})[0])
    print(np.round(sess.run(h, {x: data}), 5))
'''


def _rule_alone(source: str) -> str:
    return apply_alone(SplitBuildLoops(), source, "loop.py")


def test_the_loop_makes_its_variables_into_a_list_and_a_second_loop_computes():
    code = _rule_alone(POLYNOMIAL)
    assert "Ws = []\nfor pow_i in range(1, 4):\n    W = tf.Variable(" in code
    assert "    Ws.append(W)\n" in code
    assert "for pow_i, W_i in zip(range(1, 4), Ws):\n    Y_pred = tf.add(tf.multiply(tf.pow(X, pow_i), W_i), Y_pred)" \
        in code


def test_the_polynomial_converts_trains_the_bias_it_renamed_and_prints_the_legacy_numbers():
    result = migrate_source(POLYNOMIAL, "poly.py")
    assert result.outcome == "eager", result.findings
    assert "Session" not in result.new_source
    assert "variables = [Y_pred, *Ws]" in result.new_source  # the bias stays the variable outside the functions
    assert_same_output(run_legacy(POLYNOMIAL), run_migrated(result.new_source))


def test_a_width_the_loop_reads_of_what_it_computes_is_carried_through_the_making_loop():
    source = _unsplit("    n = int(h.get_shape()[1])\n    W = tf.Variable(tf.ones([n, 3]))\n"
                      "    b = tf.Variable(tf.zeros([3]))\n    h = tf.nn.relu(tf.matmul(h, W) + b)\n")
    code = _rule_alone(source)
    assert "h_shape = tf.TensorShape([None, 2])  # carried" in code  # what the placeholder `h` names declares
    assert "    n = int(h_shape[1])\n" in code and "    h_shape = h_shape[:-1].concatenate([3])\n" in code
    result = migrate_source(source, "widths.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_python_lines_only_the_making_loop_needs_stay_there():
    code = _rule_alone(LAYERS)
    assert code.count("    name = 'layer%d' % layer_i\n") == 1  # only the making loop reads it
    # the computing loop reads the lists alone
    assert "for W_i, b_i in zip(Ws, bs):\n    h = tf.nn.tanh(tf.matmul(h, W_i) + b_i)\n" in code


def test_the_loop_target_unpacks_where_the_computing_loop_reads_it():
    source = LAYERS.replace("    h = tf.nn.tanh(tf.matmul(h, W) + b)\n",
                            "    h = tf.nn.tanh(tf.matmul(h, W) + b) * layer_i\n")
    code = _rule_alone(source)
    assert "for (layer_i, (n_in, n_out)), W_i, b_i in zip(enumerate(zip(sizes[:-1], sizes[1:])), Ws, bs):" in code
    result = migrate_source(source, "layers.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_the_layer_loop_converts_and_prints_the_legacy_numbers():
    result = migrate_source(LAYERS, "layers.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(LAYERS), run_migrated(result.new_source))


def test_a_collection_of_a_loop_kept_in_two_lists_lists_them_by_iteration():
    """TF1 listed W0, b0, W1, b1; the lists one by one would give W0, W1, b0, b1: they are zipped."""
    source = LAYERS.replace("print(np.round(sess.run(h, {x: data}), 5))",
                            "print([v.shape for v in sess.run(tf.trainable_variables())])")
    result = migrate_source(source, "layers.py")
    assert result.outcome == "eager", result.compat_reason
    assert "*(v for made in zip(Ws, bs) for v in made)" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_collection_of_lists_appended_in_another_order_than_made_stays_compat():
    """``bs.append(b)`` before ``Ws.append(W)``: the zip would list b0 before W0, which TF1 made after."""
    source = LAYERS.replace("print(np.round(sess.run(h, {x: data}), 5))", "print(sess.run(tf.trainable_variables()))")
    source = source.replace("    h = tf.nn.tanh(tf.matmul(h, W) + b)\n",
                            "    h = tf.nn.tanh(tf.matmul(h, W) + b)\n    bs.append(b)\n    Ws.append(W)\n")
    source = source.replace("h = x\n", "h = x\nWs, bs = [], []\n")
    result = migrate_source(source, "layers.py")
    assert result.outcome == "compat"
    assert "TF1 listed them by iteration" in result.compat_reason


def _unsplit(loop_body: str, before: str = "") -> str:
    source = ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\nh = x\n" + before
              + "for i in range(2):\n" + loop_body
              + "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                "    print(sess.run(h, {x: [[1.0, 2.0]]}))\n")
    return source


def test_loops_whose_split_would_change_the_program_are_left_alone():
    refused = {
        # a variable's shape read from what the previous iteration computed (an autoencoder's n_input)
        "shape the algebra does not know": _unsplit(
            "    n = int(h.get_shape()[1])\n    W = tf.Variable(tf.ones([n, 2]))\n"
            "    h = tf.concat([tf.matmul(h, W)] * 2, 1)\n"),
        "a shape read where the making loop has no carried shape": _unsplit(
            "    W = tf.Variable(tf.ones([2, 2]))\n    h = tf.matmul(h, W)\n    n = h.get_shape()\n"),
        # the computing lines read the list the making lines fill: it grows with the iterations in TF1
        "list read as it grows": _unsplit(
            "    W = tf.Variable(tf.ones([2, 2]))\n    made.append(W)\n    h = tf.matmul(h, made[-1])\n",
            before="made = []\n"),
        # a random op per iteration: TF1 numbered random ops in the order it built them
        "random op": _unsplit("    W = tf.Variable(tf.ones([2, 2]))\n    h = tf.nn.dropout(tf.matmul(h, W), 0.5)\n"),
        "break": _unsplit("    W = tf.Variable(tf.ones([2, 2]))\n    h = tf.matmul(h, W)\n    break\n"),
        "iterable the loop changes": _unsplit(
            "    W = tf.Variable(tf.ones([2, 2]))\n    h = tf.matmul(h, W)\n    sizes.append(2)\n",
            before="sizes = [2]\n").replace("range(2)", "sizes[:2]"),
    }
    for why, source in refused.items():
        assert _rule_alone(source) == source, why


NAME_SCOPED_IN_A_CLASS = '''import numpy as np
import tensorflow as tf


class Net(object):
    def __init__(self, sizes):
        self.x = tf.placeholder(tf.float32, [None, 4])
        self.y = tf.placeholder(tf.float32, [None])
        outs = []
        for i, size in enumerate(sizes):
            with tf.name_scope("conv-%s" % size):
                W = tf.Variable(tf.ones([4, size]) * 0.1, name="W")
                b = tf.Variable(tf.constant(0.1, shape=[size]), name="b")
                h = tf.nn.relu(tf.matmul(self.x, W) + b)
                outs.append(tf.reduce_sum(h, axis=1))
        self.total = tf.add_n(outs)
        self.loss = tf.reduce_mean(tf.square(self.total - self.y))


net = Net([2, 3])
opt = tf.train.AdamOptimizer(0.01)
grads_and_vars = opt.compute_gradients(net.loss)
train = opt.apply_gradients(grads_and_vars)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(3):
    print(sess.run([train, net.loss], {net.x: np.ones((2, 4)), net.y: [1.0, 2.0]})[1])
print(sess.run(net.total, {net.x: np.ones((2, 4))}))
'''


def test_a_name_scoped_loop_of_a_class_splits_and_the_modules_optimizer_trains_its_lists():
    # cnn-text's TextCNN: one conv per filter size, each `with tf.name_scope("conv-%s" % size)`
    result = migrate_source(NAME_SCOPED_IN_A_CLASS, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert 'with tf.name_scope("conv-%s" % size):\n                W = tf.Variable' in result.new_source
    assert "variables = [*net.Ws, *net.bs]" in result.new_source
    assert_same_output(run_legacy(NAME_SCOPED_IN_A_CLASS), run_migrated(result.new_source))


def test_a_name_scoped_loop_that_reads_names_is_left_alone():
    source = NAME_SCOPED_IN_A_CLASS.replace("outs.append(tf.reduce_sum(h, axis=1))",
                                            "outs.append(tf.reduce_sum(h, axis=1, name=h.name.split(':')[0] + '_sum'))")
    result = migrate_source(source, "net.py")
    assert result.outcome == "compat"
    assert "split-build-loops" not in {f.rule for f in result.findings}
