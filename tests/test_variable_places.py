"""Variables made where the model cannot say whether, or under which name, they exist (analysis/variable_places):
the scope stays compat.

The eager rewrite names every variable the model knows in the run functions and in the lists an optimizer trains;
a variable a branch that did not run never made is a NameError there (it was, before this check: the converted
programs below crashed)."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

BIAS = '''
import numpy as np
import tensorflow as tf

use_bias = False
x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.ones([2, 1]))
if use_bias:
    b = tf.Variable(tf.ones([1]))
y = tf.matmul(x, w)
if use_bias:
    y = y + b
loss = tf.reduce_mean(tf.square(y - 1.0))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        print(sess.run([loss, train], {x: np.ones((1, 2))})[0])
'''

HEADS = '''
import numpy as np
import tensorflow as tf


class Net(object):
    def __init__(self, dueling):
        self.s = tf.placeholder(tf.float32, [None, 3])
        w1 = tf.Variable(tf.ones([3, 4]) * 0.1)
        l1 = tf.nn.relu(tf.matmul(self.s, w1))
        if dueling:
            wv = tf.Variable(tf.ones([4, 1]) * 0.2)
            wa = tf.Variable(tf.ones([4, 2]) * 0.3)
        else:
            wq = tf.Variable(tf.ones([4, 2]) * 0.4)
        if dueling:
            a = tf.matmul(l1, wa)
            out = tf.matmul(l1, wv) + (a - tf.reduce_mean(a, axis=1, keep_dims=True))
        else:
            out = tf.matmul(l1, wq)
        self.q = out
        self.loss = tf.reduce_mean(tf.square(self.q - 1.0))
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)


net = Net(True)
s = np.array([[1.0, 2.0, 3.0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        print(sess.run([net.loss, net.train], {net.s: s})[0])
'''


@pytest.mark.parametrize("source, name", [
    pytest.param(BIAS, "b", id="a bias made only when a flag is set"),
    pytest.param(HEADS, "wa", id="dueling and plain heads in a class"),
    pytest.param(BIAS.replace("if use_bias:\n    b = tf.Variable(tf.ones([1]))\n",
                              "if use_bias:\n    b = tf.Variable(tf.ones([1]))\nelif w is None:\n"
                              "    b = tf.Variable(tf.zeros([1]))\n"), "b", id="an elif chain without else"),
])
def test_a_variable_only_some_branches_make_keeps_compat(source, name):
    result = migrate_source(source, "branches.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith(f"`{name}` is a variable made in only some branches of an `if`")
    run_legacy(source)  # the program itself runs


def test_a_variable_every_branch_makes_under_one_name_converts():
    source = BIAS.replace("if use_bias:\n    b = tf.Variable(tf.ones([1]))\n",
                          "if use_bias:\n    b = tf.Variable(tf.ones([1]))\nelse:\n    b = tf.Variable(tf.zeros([1]))\n")
    result = migrate_source(source, "branches.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


_LINEAR = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n{body}"
           "loss = tf.reduce_mean(tf.square(y - 1.0))\n"
           "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\nwith tf.Session() as sess:\n"
           "    sess.run(tf.global_variables_initializer())\n    for _ in range(3):\n"
           "        print(sess.run([loss, train], {{x: np.ones((1, 2))}})[0])\n")


@pytest.mark.parametrize("body, why", [
    pytest.param("try:\n    w = tf.Variable(tf.ones([2, 1]))\nexcept ValueError:\n    w = None\ny = tf.matmul(x, w)\n",
                 "variables made in a `try` block", id="try"),
    pytest.param("use_bias = False\nw = tf.Variable(tf.ones([2, 1]))\n"
                 "b = tf.Variable(tf.ones([1])) if use_bias else None\ny = tf.matmul(x, w)\n"
                 "y = y + b if use_bias else y\n", "a variable made in one arm of a conditional expression",
                 id="conditional expression"),
    pytest.param("make = lambda n: tf.Variable(tf.ones([n, 1]))\nw = make(2)\ny = tf.matmul(x, w)\n",
                 "a lambda that makes variables", id="lambda"),
    pytest.param("d = {}\nd['w'] = tf.Variable(tf.zeros([2, 1]))\nd['w'] = tf.Variable(tf.ones([2, 1]))\n"
                 "y = tf.matmul(x, d['w'])\n", "a variable stored into `d['w']`", id="dict item given twice"),
    pytest.param("d = {'v': tf.Variable(1.0)}\nd['w'] = tf.Variable(tf.ones([2, 1]))\ny = tf.matmul(x, d['w'])\n",
                 "a variable stored into `d['w']`", id="dict item added to a literal"),
    pytest.param("class H:\n    pass\n\n\nh = H()\nh.w = tf.Variable(tf.ones([2, 1]))\ny = tf.matmul(x, h.w)\n",
                 "a variable stored into `h.w`", id="attribute of a plain object"),
])
def test_variables_made_where_the_model_cannot_name_them_keep_compat(body, why):
    """Each of these converted before, and the converted program crashed (its trained-variable list named a
    function, a dict, a plain object, or None)."""
    source = _LINEAR.format(body=body)
    result = migrate_source(source, "places.py")
    assert result.outcome == "compat"
    assert why in result.compat_reason
    run_legacy(source)



GUARDED = '''
import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self, scale):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable(tf.ones([2, 1]) * scale)
        self.loss = tf.reduce_mean(tf.matmul(self.x, self.w))


def evaluate(sess, model, xs):
    return sess.run(model.loss, feed_dict={model.x: xs})


def main():
    a = Model(1.0)
    b = Model(3.0)
    X = np.ones((2, 2), np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(evaluate(sess, a, X), evaluate(sess, b, X))


ENTRY
'''


def test_a_main_guard_calling_the_function_that_makes_the_variables_converts():
    # The script's entry: the variables main() makes are main()'s, named nowhere at module level.
    source = GUARDED.replace("ENTRY", "if __name__ == '__main__':\n    main()")
    result = migrate_source(source, "guarded.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_another_if_calling_the_function_that_makes_the_variables_keeps_compat():
    # Not the script's entry: whether the variables exist depends on the flag.
    source = GUARDED.replace("ENTRY", "TRAIN = True\nif TRAIN:\n    main()")
    result = migrate_source(source, "guarded.py")
    assert result.outcome == "compat"
    assert "made in only some branches of an `if`" in result.compat_reason


def test_a_local_helper_making_variables_on_a_tensor_made_once_stays_compat():
    # `drop` (a dropout of constants) is built once, where TF1 drew it anew at each run; `forward(drop)`, a helper
    # of main() that makes a variable and returns a tensor, was taken for a variable made by a helper
    # (`W = weight_variable(shape)`): the tape step then trained `pred` itself, a crash after migration.
    source = '''\
import numpy as np
import tensorflow as tf


def main():
    x = tf.placeholder(tf.float32, [None, 3])

    def forward(inp):
        w_forward = tf.Variable(tf.ones([3, 2]))
        return tf.matmul(inp, w_forward) + 1.0

    drop = tf.nn.dropout(tf.ones([2, 3]), rate=0.2)
    pred = forward(drop)
    loss = tf.reduce_mean(tf.square(pred))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        print(s.run([train, loss], {x: np.ones((2, 3))})[1])


main()
'''
    result = migrate_source(source, "nested.py")
    assert result.outcome == "compat"
    assert "`forward` creates variables each time it is called on graph tensors" in result.compat_reason


# jmetzen's VAE, as many tutorials copy it: a dict filled item by item with dicts of variables.
NESTED = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
weights = dict()
weights['layer1'] = {'w': tf.Variable(tf.ones([2, 2])), 'b': tf.Variable(tf.zeros([2]))}
weights['layer2'] = {'w': tf.Variable(tf.ones([2, 1])), 'b': tf.Variable(tf.zeros([1]))}
h = tf.nn.relu(tf.matmul(x, weights['layer1']['w']) + weights['layer1']['b'])
out = tf.matmul(h, weights['layer2']['w']) + weights['layer2']['b']
loss = tf.reduce_mean(tf.square(out - 1.0))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run([loss, train], {x: np.ones((2, 2))})[0])
    print([list(v.shape) for v in sess.run(tf.trainable_variables())])
'''


def test_a_dict_filled_with_dicts_of_variables_lists_them_dict_by_dict_and_prints_the_legacy_numbers():
    """The model knew `weights` as a dict of variables, and the variable list held the inner dicts (a crash)."""
    result = migrate_source(NESTED, "nested.py")
    assert result.outcome == "eager", result.compat_reason
    assert "*(v for inner in weights.values() for v in inner.values())" in result.new_source
    assert_same_output(run_legacy(NESTED), run_migrated(result.new_source))


@pytest.mark.parametrize("change", [
    ("weights = dict()\n", "weights = {'bias': tf.Variable(0.0)}\n"),  # not filled from an empty dict
    ("'b': tf.Variable(tf.zeros([2]))}", "'b': tf.Variable(tf.zeros([2]), trainable=False)}"),
    ("weights['layer2'] = {'w'", "weights[1 + 1] = {'w'"),
])
def test_dicts_of_variables_stored_where_the_model_cannot_list_them_keep_compat(change):
    result = migrate_source(NESTED.replace(*change).replace("weights['layer2']['", "weights[2]['")
                            if "1 + 1" in change[1] else NESTED.replace(*change), "nested.py")
    assert result.outcome == "compat"
    assert any("a variable stored into `weights[" in f.message for f in result.findings), result.compat_reason


FILLED = '''
import numpy as np
import tensorflow as tf


class Net:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.y = tf.placeholder(tf.float32, [None, 1])
        self.w = {}
        self.w["W1"] = tf.Variable(tf.ones([2, 3]) * 0.1)
        self.w["W2"] = tf.Variable(tf.ones([3, 1]) * 0.2)
        self.pred = tf.matmul(tf.nn.relu(tf.matmul(self.x, self.w["W1"])), self.w["W2"])
        self.loss = tf.reduce_mean(tf.square(self.pred - self.y))
        self.train = tf.train.AdamOptimizer(0.01).minimize(self.loss)


net = Net()
data = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(5):
        print(sess.run([net.train, net.loss], {net.x: data, net.y: [[1.0], [0.0]]})[1])
    print(sess.run(net.pred, {net.x: data}))
'''


def test_a_dict_filled_item_by_item_with_variables_lists_them_by_its_values():
    # DarkTheCross's rl_experiments (held-out probe 45): `self.Q_Weights = {}`, then one line per weight,
    # `self.Q_Weights["W1"] = tf.Variable(...)`: "a variable stored into `self.Q_Weights["W1"]`" kept the file compat.
    # Such a dict, filled from an empty one under distinct string keys, holds its variables in creation order.
    result = migrate_source(FILLED, "filled.py")
    assert result.outcome == "eager", result.compat_reason
    assert "variables = [*self.w.values()]" in result.new_source
    assert_same_output(run_legacy(FILLED), run_migrated(result.new_source))
    module_level = _LINEAR.format(body="d = {}\nd['w'] = tf.Variable(tf.ones([2, 1]))\nd['b'] = tf.Variable(0.5)\n"
                                       "y = tf.matmul(x, d['w']) + d['b']\n")
    result = migrate_source(module_level, "module_level.py")
    assert result.outcome == "eager", result.compat_reason
    assert "[*d.values()]" in result.new_source
    assert_same_output(run_legacy(module_level), run_migrated(result.new_source))
