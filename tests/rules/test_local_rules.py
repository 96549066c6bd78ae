"""Before/after pairs for the rules that rewrite one call or one statement.

Each case runs only its rule (``select``), pyupgrade style: the id says what
the pair shows, and a ``noop`` case shows input the rule must leave alone.
"""
import pytest

from tf_migrate.engine import migrate_source

HEADER = "import tensorflow as tf\n"

CASES = [
    # get-variable
    ("get-variable", "w = tf.get_variable('w', [2, 3])\n",
     "w = tf.Variable(tf.keras.initializers.GlorotUniform()([2, 3]), name='w')\n", "default glorot"),
    ("get-variable", "w = tf.get_variable('w', [2], initializer=tf.zeros_initializer(), trainable=False)\n",
     "w = tf.Variable(tf.zeros_initializer()([2]), name='w', trainable=False)\n", "initializer and trainable"),
    ("get-variable", "n = tf.get_variable('n', [1], dtype=tf.int32)\n",
     "n = tf.Variable(tf.zeros_initializer()([1], dtype=tf.int32), name='n')\n", "int dtype zeros"),
    ("get-variable", "w = tf.get_variable('w')\n", "w = tf.get_variable('w')\n", "noop lookup"),
    # hoist-optimizers
    ("hoist-optimizers", "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n",
     "optimizer = tf.train.GradientDescentOptimizer(0.1)\ntrain = optimizer.minimize(loss)\n",
     "inline optimizer bound"),
    ("hoist-optimizers", "train = opt.minimize(loss)\n", "train = opt.minimize(loss)\n", "noop named optimizer"),
    # dropout-rate
    ("dropout-rate", "h = tf.nn.dropout(x, keep_prob)\n", "h = tf.nn.dropout(x, rate=1 - keep_prob)\n",
     "keep prob positional"),
    ("dropout-rate", "h = tf.nn.dropout(x, keep_prob=0.5 + k)\n", "h = tf.nn.dropout(x, rate=1 - (0.5 + k))\n",
     "keep prob expression"),
    ("dropout-rate", "h = tf.nn.dropout(x, rate=0.2)\n", "h = tf.nn.dropout(x, rate=0.2)\n", "noop rate"),
    # assign-ops
    ("assign-ops", "u = tf.assign(v, 3.0)\n", "u = v.assign(3.0)\n", "assign"),
    ("assign-ops", "u = tf.assign_add(v, x, use_locking=True)\n", "u = v.assign_add(x)\n", "assign add"),
    # symbol-renames
    ("symbol-renames", "y = tf.log(x)\nz = tf.random_normal([2])\n",
     "y = tf.math.log(x)\nz = tf.random.normal([2])\n", "renamed symbols"),
    ("symbol-renames", "s = tf.reduce_sum(x, reduction_indices=[1], keep_dims=True)\n",
     "s = tf.reduce_sum(x, axis=[1], keepdims=True)\n", "renamed keywords"),
    ("symbol-renames", "i = tf.argmax(x, 1)\n", "i = tf.argmax(x, 1)\n", "noop argmax positional"),
    ("symbol-renames", "d = tf.keras.layers.Dense(3)\n", "d = tf.keras.layers.Dense(3)\n", "noop keras names"),
    ("symbol-renames", "a = tf.constant_initializer(-0.5)\nz = tf.zeros_initializer()\n",
     "a = tf.constant_initializer(-0.5)\nz = tf.zeros_initializer()\n", "noop initializers same in TF2"),
    ("symbol-renames", "a = tf.constant_initializer(1)\nb = tf.constant_initializer([1.0, 2.0])\n",
     "a = tf.compat.v1.constant_initializer(1)\nb = tf.compat.v1.constant_initializer([1.0, 2.0])\n",
     "constant initializer of an int or a list stays v1"),
    # unwrap-scopes
    ("unwrap-scopes", "def f(x):\n    with tf.name_scope('block'):\n        return tf.nn.relu(x)\n",
     "def f(x):\n    return tf.nn.relu(x)\n", "scope in function"),
    ("unwrap-scopes", "def f(x):\n    with tf.variable_scope('v'):\n        return tf.Variable(x)\n",
     "def f(x):\n    with tf.variable_scope('v'):\n        return tf.Variable(x)\n", "noop scope creating variables"),
    ("unwrap-scopes", "def f(x, reuse=False):\n    with tf.variable_scope('d') as scope:\n        if reuse:\n"
                      "            scope.reuse_variables()\n        return layer(x)\n",
     "def f(x, reuse=False):\n    return layer(x)\n", "scope named only to reuse, no lookups left"),
    ("unwrap-scopes", "def g(x):\n    return tf.get_variable('w', [1]) * x\n\n\n"
                      "def f(x, reuse=False):\n    with tf.variable_scope('d') as scope:\n        if reuse:\n"
                      "            scope.reuse_variables()\n        return g(x)\n",
     "def g(x):\n    return tf.get_variable('w', [1]) * x\n\n\n"
     "def f(x, reuse=False):\n    with tf.variable_scope('d') as scope:\n        if reuse:\n"
     "            scope.reuse_variables()\n        return g(x)\n",
     "reuse still decides a get_variable lookup in a called function"),
    ("unwrap-scopes", "def f(x):\n    with tf.variable_scope('d') as scope:\n        print(scope.name)\n        return x\n",
     "def f(x):\n    with tf.variable_scope('d') as scope:\n        print(scope.name)\n        return x\n",
     "scope name read"),
    ("unwrap-scopes", "def f(loss):\n    with tf.variable_scope('train'):\n        return opt.minimize(loss)\n",
     "def f(loss):\n    with tf.variable_scope('train'):\n        return opt.minimize(loss)\n",
     "noop scope naming a step's slot variables"),
]


@pytest.mark.parametrize("rule, before, after", [c[:3] for c in CASES],
                         ids=[f"{c[0]}: {c[3]}" for c in CASES])
def test_rule(rule, before, after):
    result = migrate_source(HEADER + before, "case.py", select=[rule])
    assert result.new_source == HEADER + after


def test_eager_imports_switches_compat_v1_import():
    source = "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nx = tf.constant(1.0)\n"
    result = migrate_source(source, "case.py", select=["eager-imports"])
    assert result.new_source == "import tensorflow as tf\nx = tf.constant(1.0)\n"


@pytest.mark.parametrize("switch, after", [
    ('if tf.__version__.startswith("2"):\n    tf = tf.compat.v1\n    tf.disable_eager_execution()\n', ""),
    ('if int(tf.__version__[0]) > 1:\n    tf = tf.compat.v1\nelse:\n    print("TF1")\n',
     'if int(tf.__version__[0]) > 1:\n    pass\nelse:\n    print("TF1")\n'),
    ("tf = tf.compat.v1\n", ""),
])
def test_eager_imports_drops_a_rebinding_of_tf_to_compat_v1(switch, after):
    # TF1 code made to run on TF2 (`if tf.__version__ ...: tf = tf.compat.v1`): the eager output kept the rebinding,
    # and its TF2 names ran on compat.v1's module (`tf.function`, `tf.keras` happened to be there too).
    source = "import tensorflow as tf\n" + switch + "x = tf.constant(1.0)\n"
    result = migrate_source(source, "case.py", select=["eager-imports"])
    assert result.new_source == "import tensorflow as tf\n" + after + "x = tf.constant(1.0)\n"


def test_compat_mode_places_switch_after_import():
    source = "import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32)\ny = tf.contrib.foo(x)\n"
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert result.new_source.splitlines()[1:3] == ["import tensorflow.compat.v1 as tf", "tf.disable_v2_behavior()"]

