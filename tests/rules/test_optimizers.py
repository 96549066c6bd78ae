"""optimizers: tf.train optimizers -> Keras twins with TF1's values, or TF1's own where Keras rounds otherwise.

Keras' SGD with momentum and Keras' Adam round their updates differently from TF1's kernels (measured:
the rule's module doc), so Momentum and Adam stay ``tf.compat.v1.train`` optimizers, which give TF1's
numbers bit for bit, where the program trains plain variables only. A compat.v1 optimizer cannot
update Keras layers' variables: where the module may build some, the Keras twin, with a warning.
"""
import libcst as cst
import numpy as np
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.analysis.variable_owners import keras_owned_variables
from tf_migrate.engine import migrate_source
from tf_migrate.tfnames import TFNames

HEADER = "import tensorflow as tf\n"
KERAS_ADAM = ("tf.keras.optimizers.Adam(learning_rate=0.01, beta_1=tf.constant(0.9, tf.float32), "
              "beta_2=tf.constant(0.999, tf.float32), epsilon=1e-08)")
LAYER = "h = tf.layers.dense(x, 3)\n"

CASES = [
    pytest.param("opt = tf.train.AdamOptimizer(0.01)\n", "opt = tf.compat.v1.train.AdamOptimizer(0.01)\n",
                 id="adam on plain variables stays TF1's"),
    pytest.param("opt = tf.train.MomentumOptimizer(0.1, momentum=0.9, use_nesterov=True)\n",
                 "opt = tf.compat.v1.train.MomentumOptimizer(0.1, momentum=0.9, use_nesterov=True)\n",
                 id="momentum on plain variables stays TF1's, arguments as given"),
    pytest.param("from model import net\nopt = tf.train.AdamOptimizer(0.01)\ntrain = opt.minimize(loss)\n",
                 "from model import net\nopt = tf.compat.v1.train.AdamOptimizer(0.01)\ntrain = opt.minimize(loss)\n",
                 id="Keras variables possible, optimizer only stepped: TF1's, given the layers' tf.Variables"),
    pytest.param("from model import net\ntrain = tf.train.AdamOptimizer(0.01).minimize(loss)\n",
                 "from model import net\ntrain = tf.compat.v1.train.AdamOptimizer(0.01).minimize(loss)\n",
                 id="Keras variables possible, optimizer stepped where made: TF1's"),
    pytest.param(LAYER + "opt = tf.train.AdamOptimizer(0.01)\nkept = [opt]\n",
                 LAYER + f"opt = {KERAS_ADAM}\nkept = [opt]\n",
                 id="adam with a tf.layers layer, handed elsewhere: Keras, TF1's epsilon and float32 betas"),
    pytest.param("cell = tf.nn.rnn_cell.GRUCell(4)\nopt = tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)\n"
                 "model.compile(optimizer=opt)\n",
                 "cell = tf.nn.rnn_cell.GRUCell(4)\n"
                 "opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=True)\n"
                 "model.compile(optimizer=opt)\n",
                 id="momentum with an rnn cell, handed to Keras: Keras SGD"),
    pytest.param("from model import net\nself.opt = tf.train.AdamOptimizer(0.01)\nnet.fit(self.opt)\n",
                 f"from model import net\nself.opt = {KERAS_ADAM}\nnet.fit(self.opt)\n",
                 id="a module of the project may build Keras layers, handed to it: Keras"),
    pytest.param("from model import net\nself.opt = tf.train.AdamOptimizer(0.01)\nop = self.opt.minimize(l)\n",
                 "from model import net\nself.opt = tf.compat.v1.train.AdamOptimizer(0.01)\n"
                 "op = self.opt.minimize(l)\n",
                 id="a module of the project may build Keras layers, attribute only stepped: TF1's"),
    pytest.param("opt = tf.train.AdagradOptimizer(0.5)\n",
                 "opt = tf.keras.optimizers.Adagrad(learning_rate=0.5, initial_accumulator_value=0.1, epsilon=0.0)\n",
                 id="adagrad: Keras is TF1's bit for bit"),
    pytest.param("opt = tf.train.GradientDescentOptimizer(0.5)\n", "opt = tf.keras.optimizers.SGD(learning_rate=0.5)\n",
                 id="gradient descent: Keras is TF1's bit for bit"),
    # A Keras optimizer raises on an int learning rate, which TF1's converted (alexchung16's tf_stop_gradient.py).
    pytest.param("opt = tf.train.GradientDescentOptimizer(1)\n", "opt = tf.keras.optimizers.SGD(learning_rate=1.0)\n",
                 id="an int learning rate becomes a float"),
    pytest.param("lr = 2\nopt = tf.train.GradientDescentOptimizer(lr)\n",
                 "lr = 2\nopt = tf.keras.optimizers.SGD(learning_rate=float(lr))\n",
                 id="a name bound to int literals only is given as a float"),
    pytest.param("lr = 2\nlr *= 0.5\nopt = tf.train.GradientDescentOptimizer(lr)\n",
                 "lr = 2\nlr *= 0.5\nopt = tf.keras.optimizers.SGD(learning_rate=lr)\n",
                 id="a name changed otherwise is left as it is"),
    pytest.param("opt = tf.train.RMSPropOptimizer(0.01)\n", "opt = tf.compat.v1.train.RMSPropOptimizer(0.01)\n",
                 id="rmsprop stays v1"),
    pytest.param("opt = tf.compat.v1.train.AdamOptimizer(0.01)\n", "opt = tf.compat.v1.train.AdamOptimizer(0.01)\n",
                 id="noop TF1's adam on a second run"),
    pytest.param("opt = tf.keras.optimizers.Adam(0.01)\n", "opt = tf.keras.optimizers.Adam(0.01)\n",
                 id="noop keras adam"),
]


@pytest.mark.parametrize("before, after", CASES)
def test_rule(before, after):
    result = migrate_source(HEADER + before, "case.py", select=["optimizers"])
    assert result.new_source == HEADER + after


def test_findings_say_why():
    kept = migrate_source(HEADER + "opt = tf.train.AdamOptimizer(0.01)\n", "case.py", select=["optimizers"])
    keras = migrate_source(HEADER + LAYER + "opt = tf.train.AdamOptimizer(0.01)\nsteps = [opt]\n", "case.py",
                           select=["optimizers"])
    assert [(f.line, f.severity) for f in kept.findings] == [(2, "info")]
    assert kept.findings[0].message.startswith("Keras Adam rounds its update differently (it computes beta ** step")
    assert kept.findings[0].message.endswith("kept as tf.compat.v1.train.AdamOptimizer for TF1's numbers")
    assert [(f.line, f.severity) for f in keras.findings] == [(3, "warning")]
    assert "numbers may differ from TF1's in the last digits" in keras.findings[0].message
    assert keras.findings[0].message.endswith("the program may train Keras layers' variables (`tf.layers.dense`), "
                                              "which TF2 code trains with Keras optimizers")


@pytest.mark.parametrize("source, reason", [
    pytest.param("import numpy as np\nimport os.path\nfrom collections import OrderedDict\n"
                 "w = tf.Variable(tf.keras.initializers.GlorotUniform()([2, 3]))\n"
                 "opt = tf.keras.optimizers.Adam(0.1)\n", None, id="host packages, initializers, optimizers"),
    pytest.param("from tensorflow.examples.tutorials.mnist import input_data\n", None, id="tensorflow's own module"),
    pytest.param("import keras\n", "`import keras`, which this file does not show", id="keras imported"),
    pytest.param("from . import layers\n", "`from . import ...`, which this file does not show", id="relative import"),
    pytest.param("from tensorflow.keras.layers import Dense\nd = Dense(3)\n", "`tf.keras.layers.Dense`",
                 id="a name imported from tf.keras"),
    pytest.param("class Net(tf.keras.Model):\n    pass\n", "`tf.keras.Model`", id="a Keras model subclassed"),
    pytest.param("y, s = tf.nn.dynamic_rnn(cell, x)\n", "`tf.nn.dynamic_rnn`", id="dynamic rnn"),
    pytest.param("from tensorflow.compat.v1.layers import *\n", "`from tensorflow.compat.v1.layers import *`",
                 id="star import of TF1 layers"),
])
def test_keras_owned_variables(source, reason):
    module = cst.parse_module(HEADER + source)
    assert keras_owned_variables(module, TFNames.scan(module)) == reason


PLAIN_TRAINING = '''\
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
features = rng.randn(32, 5).astype(np.float32)
labels = rng.randn(32, 3).astype(np.float32)
x = tf.placeholder(tf.float32, [None, 5])
y = tf.placeholder(tf.float32, [None, 3])
W = tf.Variable((rng.randn(5, 3) * 0.5).astype(np.float32))
b = tf.Variable(np.zeros(3, np.float32))
loss = tf.reduce_mean(tf.square(tf.tanh(tf.matmul(x, W) + b) - y)) + 0.01 * tf.reduce_sum(W * W * W)
train = OPTIMIZER.minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(8):
        sess.run(train, {x: features, y: labels})
        print(sess.run(W).tolist(), sess.run(b).tolist())
'''


@pytest.mark.parametrize("optimizer", ["tf.train.AdamOptimizer(0.01)",
                                       "tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)"])
def test_plain_variables_train_to_tf1s_last_bit(optimizer):
    source = PLAIN_TRAINING.replace("OPTIMIZER", optimizer)
    migrated = migrate_source(source, "case.py")
    assert migrated.outcome == "eager", migrated.findings
    assert "tf.compat.v1." + optimizer.split("(")[0][len("tf."):] + "(" in migrated.new_source
    # float repr of every variable at every step: equal text is equal bits
    assert run_migrated(migrated.new_source) == run_legacy(source)


EMBEDDING = '''\
import numpy as np
import tensorflow as tf

embeddings = tf.Variable(np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4))
ids = tf.placeholder(tf.int32, [None])
target = tf.placeholder(tf.float32, [None, 4])
rows = tf.nn.embedding_lookup(embeddings, ids)
LAYER
loss = tf.reduce_sum(tf.square(rows - target))
train = tf.train.AdamOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(4):
        sess.run(train, {ids: np.array([1, 1, 1, 4], np.int32), target: np.full((4, 4), 0.5, np.float32)})
        print(sess.run(embeddings).tolist())
'''
DENSIFIED = "tf.convert_to_tensor(grad) for grad in gradients"


def test_tf1_adam_gets_sparse_gradients_as_in_tf1():
    """Repeated ids: TF1's sparse Adam sums their rows itself; dense gradients would round otherwise."""
    source = EMBEDDING.replace("LAYER\n", "")
    migrated = migrate_source(source, "case.py")
    assert "tf.compat.v1.train.AdamOptimizer(0.1)" in migrated.new_source
    assert DENSIFIED not in migrated.new_source
    assert run_migrated(migrated.new_source) == run_legacy(source)


def test_keras_adam_gets_dense_gradients():
    source = EMBEDDING.replace("LAYER", "rows = rows + tf.layers.dense(rows, 4)").replace(
        "train = tf.train.AdamOptimizer(0.1).minimize(loss)",
        "optimizer = tf.train.AdamOptimizer(0.1)\noptimizers = [optimizer]\ntrain = optimizer.minimize(loss)")
    migrated = migrate_source(source, "case.py")
    assert migrated.outcome == "eager", migrated.findings
    assert "tf.keras.optimizers.Adam(" in migrated.new_source and DENSIFIED in migrated.new_source


@pytest.mark.parametrize("handed_elsewhere", [False, True])
def test_keras_layer_variables_train_with_tf1s_adam_where_the_program_only_steps_it(handed_elsewhere):
    """A TF1 Adam given a Keras layer's variables themselves would fail ('Variable' object has no attribute
    '_in_graph_mode'): the step gives it the tf.Variables they hold. Handed elsewhere, it is Keras'."""
    optimizer = "tf.train.AdamOptimizer(0.01)"
    source = PLAIN_TRAINING.replace("OPTIMIZER", "adam").replace(
        "tf.matmul(x, W) + b", "tf.layers.dense(x, 3) + tf.matmul(x, W) + b").replace(
        "train = adam", f"adam = {optimizer}\n" + ("optimizers = [adam]\n" if handed_elsewhere else "") + "train = adam")
    migrated = migrate_source(source, "case.py")
    assert migrated.outcome == "eager", migrated.findings
    if handed_elsewhere:
        assert "tf.keras.optimizers.Adam(" in migrated.new_source and "compat.v1.train" not in migrated.new_source
    else:
        assert "adam = tf.compat.v1.train.AdamOptimizer(0.01)" in migrated.new_source
        assert "var.value if isinstance(var, tf.keras.Variable) else var" in migrated.new_source
    printed = run_migrated(migrated.new_source).splitlines()
    assert len(printed) == 8 and "nan" not in printed[-1]


def test_tf1_adam_on_keras_variables_trains_as_on_the_tf_variables_they_hold():
    """The same training twice, in one process: a Keras Dense layer's kernel stepped by TF1's Adam through
    ``.value``, and a plain tf.Variable with the same start: bit for bit."""
    import tensorflow as tf

    start = np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3)
    features = np.linspace(0.5, -0.5, 20, dtype=np.float32).reshape(4, 5)
    layer = tf.keras.layers.Dense(3, use_bias=False, kernel_initializer=tf.constant_initializer(start))
    layer.build((None, 5))
    plain = tf.Variable(start)
    for weights, forward in ((layer.kernel, layer), (plain, lambda x: tf.matmul(x, plain))):
        adam = tf.compat.v1.train.AdamOptimizer(0.05)

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.tanh(forward(features)) ** 2)
            grads = tape.gradient(loss, [weights])
            adam.apply_gradients([(g, v.value if isinstance(v, tf.keras.Variable) else v)
                                  for g, v in zip(grads, [weights])])

        for _ in range(5):
            step()
    np.testing.assert_array_equal(layer.kernel.numpy(), plain.numpy())


def test_adam_first_update_is_tf1s_to_the_last_bit():
    # Keras' `1 - beta` from Python floats differs from TF1's float32 arithmetic by 1e-5 relative in
    # the first update; with the betas as float32 tensors the eager step gives TF1's variables exactly.
    import tensorflow as tf

    values = np.linspace(-3.0, 3.0, 12).astype(np.float32)
    grads = np.linspace(5.0, -7.0, 12).astype(np.float32) ** 3

    legacy_var = tf.Variable(values)
    tf1 = tf.compat.v1.train.AdamOptimizer(0.1)
    tf1.apply_gradients([(tf.constant(grads), legacy_var)])

    migrated_var = tf.Variable(values)
    keras = tf.keras.optimizers.Adam(learning_rate=0.1, beta_1=tf.constant(0.9, tf.float32),
                                     beta_2=tf.constant(0.999, tf.float32), epsilon=1e-08)
    keras.apply_gradients([(tf.constant(grads), migrated_var)])
    np.testing.assert_array_equal(migrated_var.numpy(), legacy_var.numpy())


@pytest.mark.parametrize("optimizer", ["tf.train.GradientDescentOptimizer(lr)", "tf.train.AdagradOptimizer(lr)"])
def test_a_learning_rate_variable_is_read_through_a_callable(optimizer):
    # `lr = tf.Variable(...)` assigned between epochs (char-rnn's decay): Keras optimizers take a float, a schedule or
    # a callable, not a variable (`SGD(learning_rate=lr)` raised ValueError after migration).
    decayed = "        sess.run(tf.assign(lr, 0.2 * 0.5 ** step))\n        sess.run(train,"
    source = PLAIN_TRAINING.replace("train = OPTIMIZER", f"lr = tf.Variable(0.2, trainable=False)\ntrain = {optimizer}"
                                    ).replace("        sess.run(train,", decayed)
    migrated = migrate_source(source, "case.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "(learning_rate=lambda: lr" in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))
