"""tf1-variable-names: a program that reads variable names sees the unique names TF1 gave them."""
from tf_migrate.engine import migrate_source
from tests.twins import run_legacy, run_migrated

PRINTS_NAMES = (
    "import tensorflow as tf\n"
    "w1 = tf.Variable(tf.ones([2]), name='W')\n"
    "w2 = tf.Variable(tf.ones([2]) * 2, name='W')\n"
    "b = tf.Variable(tf.zeros([2]))\n"
    "c = tf.Variable(tf.zeros([2]))\n"
    "d = tf.Variable(tf.zeros([2]), name='w')\n"
    "total = tf.reduce_sum(w1 + w2 + b + c + d)\n"
    "with tf.Session() as sess:\n"
    "    sess.run(tf.global_variables_initializer())\n"
    "    for v in tf.trainable_variables():\n"
    "        print(v.name)\n"
    "    print(sess.run(total))\n"
)


def test_names_tf1_made_unique_are_given_to_the_eager_variables_and_print_alike():
    result = migrate_source(PRINTS_NAMES, "names.py")
    assert result.outcome == "eager", result.compat_reason
    lines = result.new_source.splitlines()
    assert "w1 = tf.Variable(tf.ones([2]), name='W')" in lines
    assert 'w2 = tf.Variable(tf.ones([2]) * 2, name="W_1")' in lines
    assert "b = tf.Variable(tf.zeros([2]))" in lines
    assert 'c = tf.Variable(tf.zeros([2]), name="Variable_1")' in lines
    assert 'd = tf.Variable(tf.zeros([2]), name="w_2")' in lines  # TF1 compares names case-insensitively
    legacy = run_legacy(PRINTS_NAMES)
    assert legacy.splitlines()[:5] == ["W:0", "W_1:0", "Variable:0", "Variable_1:0", "w_2:0"]
    assert run_migrated(result.new_source) == legacy


def test_without_name_reads_the_variables_are_left_as_written():
    source = PRINTS_NAMES.replace("        print(v.name)\n", "        print(v.shape)\n")
    result = migrate_source(source, "names.py")
    assert result.outcome == "eager", result.compat_reason
    assert "W_1" not in result.new_source and "Variable_1" not in result.new_source


def test_an_objects_own_name_attribute_is_not_a_variable_name():
    source = ("import tensorflow as tf\nclass Net:\n    def __init__(self, name):\n        self.name = name\n"
              "        print(self.name)\n"
              + PRINTS_NAMES.split("\n", 1)[1].replace("        print(v.name)\n", "        print(v.shape)\n"))
    result = migrate_source(source, "names.py")
    assert result.outcome == "eager", result.compat_reason
    assert "Variable_1" not in result.new_source


def test_names_the_text_does_not_give_keep_compat_mode_with_the_reason_at_the_constructor():
    source = ("import tensorflow as tf\n"
              "def weight(shape):\n"
              "    w = tf.Variable(tf.ones(shape), name='W')\n"
              "    return w * 1.0\n"
              "a = weight([2])\n"
              "b = weight([3])\n"
              "with tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n"
              "    print([v.name for v in tf.global_variables()], sess.run(a))\n")
    result = migrate_source(source, "helper.py")
    assert result.outcome == "compat"
    blockers = [f for f in result.findings if f.rule == "eager-blocker" and "reads variable names" in f.message]
    assert blockers and blockers[0].line == 3, [f.message for f in result.findings]


def test_one_variable_made_once_has_the_same_name_both_ways():
    source = ("import tensorflow as tf\nw = tf.Variable(1.0)\nprint(w.name)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run(w))\n")
    result = migrate_source(source, "one.py")
    assert result.outcome == "eager", result.compat_reason
    assert run_migrated(result.new_source) == run_legacy(source)


def test_layer_variables_read_by_name_keep_compat_mode():
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
              "y = tf.layers.dense(x, 1)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print([v.name for v in tf.trainable_variables()])\n"
              "    print(sess.run(y, feed_dict={x: np.ones([2, 3], np.float32)}))\n")
    result = migrate_source(source, "layers.py")
    assert result.outcome == "compat"
    assert any(f.rule == "eager-blocker" and f.line == 4 and "Keras 3" in f.message for f in result.findings)


SCOPED = '''import tensorflow as tf

with tf.variable_scope("g"):
    a = tf.Variable(1.0, name="W")
with tf.variable_scope("g"):
    b = tf.Variable(2.0, name="W")
with tf.name_scope("h"):
    c = tf.Variable(3.0)
    with tf.name_scope("inner"):
        d = tf.Variable(4.0, name="W")
e = tf.Variable(5.0, name="W")
with tf.name_scope("h"):
    f = tf.Variable(6.0)
loss = a * b + c * d + e * f
step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(step)
    for v in tf.trainable_variables():
        print(v.name)
    print(sess.run([a, b, c, d, e, f]))
'''


def test_variables_of_the_modules_scope_blocks_get_their_scoped_tf1_names():
    # The session rewrite unwraps the blocks; TF1 made a second `g` scope `g_1` (a name scope entered again).
    result = migrate_source(SCOPED, "scoped.py")
    assert result.outcome == "eager", result.compat_reason
    for line in ('a = tf.Variable(1.0, name="g/W")', 'b = tf.Variable(2.0, name="g_1/W")',
                 'd = tf.Variable(4.0, name="h/inner/W")', 'f = tf.Variable(6.0, name="h_1/Variable")'):
        assert line in result.new_source
    assert run_legacy(SCOPED) == run_migrated(result.new_source)


def test_scope_blocks_in_a_function_keep_the_file_compat():
    source = SCOPED.replace('with tf.variable_scope("g"):\n    a = tf.Variable(1.0, name="W")\n',
                            'def make():\n    with tf.variable_scope("g"):\n        return tf.Variable(1.0, name="W")'
                            '\n\n\na = make()\n')
    result = migrate_source(source, "scoped.py")
    assert result.outcome == "compat"
    assert "are named by it, and the program reads variable names" in result.compat_reason


# Probe 21 (ylqi007's tensor_examples.py): a printed variable shows its name, as `.name` does. Before: eager, and
# every unnamed variable printed as `Variable:0` where TF1 printed `Variable_1:0`, `Variable_2:0`...
PRINTS_VARIABLES = (
    "import tensorflow as tf\n"
    "a = tf.Variable(451)\n"
    "b = tf.Variable([2.5, 3.5])\n"
    "with tf.Session() as sess:\n"
    "    sess.run(tf.global_variables_initializer())\n"
    "    print(a, sess.run(a))\n"
    "    print('{}'.format(b), sess.run(b))\n"
)


def test_a_printed_variable_shows_the_name_tf1_gave_it(tmp_path):
    from tf_migrate.verify import verify_program
    result = migrate_source(PRINTS_VARIABLES, "printed.py")
    assert result.outcome == "eager", result.compat_reason
    assert 'b = tf.Variable([2.5, 3.5], name="Variable_1")' in result.new_source.splitlines()
    verdict = verify_program(PRINTS_VARIABLES, result.new_source, path=tmp_path / "printed.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


# MorvanZhou's tf22_scope (the public trial): get_variable in a variable scope, looked up again after
# scope.reuse_variables(), tf.Variable in a name scope, the names printed. Before: compat ("variables created in
# `tf.variable_scope` are named by it, and the program reads variable names").
SCOPED_GET_VARIABLES = '''
import tensorflow as tf

with tf.name_scope("a_name_scope"):
    var1 = tf.get_variable(name="var1", shape=[1], initializer=tf.constant_initializer(1.0))
    var2 = tf.Variable(name="var2", initial_value=[2.0])
    var21 = tf.Variable(name="var2", initial_value=[2.1])
with tf.variable_scope("a_variable_scope") as scope:
    var3 = tf.get_variable(name="var3", shape=[1], initializer=tf.constant_initializer(3.0))
    var4 = tf.Variable(name="var4", initial_value=[4.0])
    scope.reuse_variables()
    var3_reuse = tf.get_variable(name="var3")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(var1.name, var2.name, var21.name, var3.name, var4.name, var3_reuse.name)
    print(sess.run([var1, var2, var21, var3, var4, var3_reuse]))
'''


def test_get_variables_of_the_modules_variable_scopes_are_named_in_full():
    result = migrate_source(SCOPED_GET_VARIABLES, "scoped.py")
    assert result.outcome == "eager", result.compat_reason
    assert 'name="a_variable_scope/var3"' in result.new_source and "var3_reuse = var3" in result.new_source
    assert run_legacy(SCOPED_GET_VARIABLES) == run_migrated(result.new_source)
