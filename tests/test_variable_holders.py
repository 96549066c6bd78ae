"""Objects of plain classes that hold variables (``class HiddenLayer:`` making ``self.W = tf.Variable(...)`` in
``__init__``, computing in ``forward``), and sessions handed to an object by a setter (``model.set_session(sess)``).

The course and RL-agent shape: layer objects built by a model's ``__init__`` or by the script, a model class whose
methods run its graph in ``self.session``, given by the driver after it opened the session
(analysis/modules.variable_holders, analysis/session_setters). The objects' variables are listed one by one
where TF1 listed trainable variables; the setter and its calls go.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis.modules import variable_holders
from tf_migrate.cli import EXIT_OK
from tf_migrate.engine import migrate_source
from tf_migrate.tfnames import TFNames
from tests.trees import migrate, output
from tests.twins import assert_same_output, run_legacy, run_migrated

LAYER = '''import numpy as np
import tensorflow as tf


class HiddenLayer:
    def __init__(self, M1, M2, f=tf.nn.tanh):
        self.W = tf.Variable(np.random.randn(M1, M2).astype(np.float32) * 0.1)
        self.b = tf.Variable(np.zeros(M2).astype(np.float32))
        self.f = f

    def forward(self, X):
        return self.f(tf.matmul(X, self.W) + self.b)
'''

SCRIPT = LAYER + '''

np.random.seed(0)
h1 = HiddenLayer(4, 10)
h2 = HiddenLayer(10, 1, lambda x: x)
X = tf.placeholder(tf.float32, shape=(None, 4))
Y = tf.placeholder(tf.float32, shape=(None,))
Y_hat = tf.reshape(h2.forward(h1.forward(X)), [-1])
cost = tf.reduce_sum(tf.square(Y - Y_hat))
train_op = tf.train.GradientDescentOptimizer(1e-3).minimize(cost)
session = tf.Session()
session.run(tf.global_variables_initializer())
x = np.random.randn(8, 4).astype(np.float32)
y = x.sum(axis=1)
for i in range(20):
    session.run(train_op, feed_dict={X: x, Y: y})
print(session.run(Y_hat, feed_dict={X: x}))
'''

MODEL = LAYER + '''

class ValueModel:
    def __init__(self, D):
        self.h1 = HiddenLayer(D, 10)
        self.h2 = HiddenLayer(10, 1, lambda x: x)
        self.X = tf.placeholder(tf.float32, shape=(None, D), name='X')
        self.Y = tf.placeholder(tf.float32, shape=(None,), name='Y')
        Y_hat = tf.reshape(self.h2.forward(self.h1.forward(self.X)), [-1])
        self.predict_op = Y_hat
        cost = tf.reduce_sum(tf.square(self.Y - Y_hat))
        self.train_op = tf.train.GradientDescentOptimizer(1e-3).minimize(cost)

    def set_session(self, session):
        self.session = session

    def partial_fit(self, X, Y):
        self.session.run(self.train_op, feed_dict={self.X: np.atleast_2d(X), self.Y: np.atleast_1d(Y)})

    def predict(self, X):
        return self.session.run(self.predict_op, feed_dict={self.X: np.atleast_2d(X)})


def main():
    np.random.seed(0)
    model = ValueModel(4)
    init = tf.global_variables_initializer()
    session = tf.InteractiveSession()
    session.run(init)
    model.set_session(session)
    X = np.random.randn(8, 4).astype(np.float32)
    for i in range(20):
        model.partial_fit(X, X.sum(axis=1))
    print(model.predict(X))


if __name__ == '__main__':
    main()
'''


def test_objects_of_a_plain_class_holding_variables_are_trained_as_tf1_trained_them():
    result = migrate_source(SCRIPT, "holders.py")
    assert result.outcome == "eager", result.compat_reason
    assert "tape.gradient(cost, [h1.W, h1.b, h2.W, h2.b])" in result.new_source
    assert "class HiddenLayer:\n" in result.new_source  # the class stays as it was: eager objects hold variables
    assert_same_output(run_legacy(SCRIPT), run_migrated(result.new_source))


def test_a_model_built_from_layer_objects_and_given_its_session_by_a_setter_converts():
    result = migrate_source(MODEL, "model.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "[self.h1.W, self.h1.b, self.h2.W, self.h2.b]" in new
    assert "set_session" not in new and "session" not in new.split("def main():")[1]
    assert "self.run_train_op(X=tf.cast(np.atleast_2d(X), tf.float32), Y=tf.cast(np.atleast_1d(Y), tf.float32))" in new
    assert_same_output(run_legacy(MODEL), run_migrated(new))


LISTED = MODEL.replace(
    "        self.h1 = HiddenLayer(D, 10)\n        self.h2 = HiddenLayer(10, 1, lambda x: x)\n",
    "        self.layers = []\n        M1 = D\n        for M2 in [10, 6]:\n            layer = HiddenLayer(M1, M2)\n"
    "            self.layers.append(layer)\n            M1 = M2\n        layer = HiddenLayer(M1, 1, lambda x: x)\n"
    "        self.layers.append(layer)\n").replace(
    "        Y_hat = tf.reshape(self.h2.forward(self.h1.forward(self.X)), [-1])\n",
    "        Z = self.X\n        for layer in self.layers:\n            Z = layer.forward(Z)\n"
    "        Y_hat = tf.reshape(Z, [-1])\n")


def test_a_list_of_layer_objects_built_in_a_loop_is_trained_object_by_object():
    result = migrate_source(LISTED, "model.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    # each object's variables, once: the one appended after the loop is the list's too (analysis/covered_variables)
    assert "variables = [*(v for obj in self.layers for v in (obj.W, obj.b))]\n" in new
    assert "        for layer in self.layers:\n            Z = layer.forward(Z)\n" in new  # its own `layer`
    assert_same_output(run_legacy(LISTED), run_migrated(new))


def test_a_script_lists_the_objects_variables_where_tf1_listed_its_trainable_variables():
    source = SCRIPT.replace("h1 = HiddenLayer(4, 10)\nh2 = HiddenLayer(10, 1, lambda x: x)\n",
                            "layers = []\nfor sizes in [(4, 10), (10, 1)]:\n    layers.append(HiddenLayer(*sizes))\n"
                            ).replace("Y_hat = tf.reshape(h2.forward(h1.forward(X)), [-1])\n",
                                      "Z = X\nfor h in layers:\n    Z = h.forward(Z)\nY_hat = tf.reshape(Z, [-1])\n"
                                      ) + "print(len(tf.trainable_variables()))\n"
    result = migrate_source(source, "holders.py")
    assert result.outcome == "eager", result.compat_reason
    assert "print(len([*(v for obj in layers for v in (obj.W, obj.b))]))" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_loop_building_layer_objects_and_computing_with_them_keeps_the_file_compat():
    # Kept at build time for its objects, the loop would compute once: TF1 recomputed `Z * 2.0` at each run.
    source = SCRIPT.replace("h1 = HiddenLayer(4, 10)\nh2 = HiddenLayer(10, 1, lambda x: x)\n", "").replace(
        "Y_hat = tf.reshape(h2.forward(h1.forward(X)), [-1])\n",
        "Z = X\nlayers = []\nfor sizes in [(4, 10), (10, 1)]:\n    layers.append(HiddenLayer(*sizes))\n"
        "    Z = Z * 2.0\nfor h in layers:\n    Z = h.forward(Z)\nY_hat = tf.reshape(Z, [-1])\n")
    result = migrate_source(source, "holders.py")
    assert result.outcome == "compat"
    assert "a loop that builds objects holding variables also computes on the per-run tensor `Z`" \
        in result.compat_reason


def test_a_list_mixing_layer_objects_and_variables_is_not_listed():
    source = SCRIPT.replace("h1 = HiddenLayer(4, 10)\nh2 = HiddenLayer(10, 1, lambda x: x)\n",
                            "layers = []\nfor sizes in [(4, 10), (10, 1)]:\n    layers.append(HiddenLayer(*sizes))\n"
                            "layers.append(tf.Variable(1.0))\nh1, h2 = layers[0], layers[1]\n")
    result = migrate_source(source, "holders.py")
    assert result.outcome == "compat"
    assert "`layers` would mix objects holding variables with other values" in result.compat_reason


def test_a_driver_in_another_module_giving_the_model_its_session_converts_with_it(tmp_path, capsys):
    model, driver = MODEL.split("\n\ndef main():")
    files = {"model.py": model.rstrip() + "\n", "train.py": "import numpy as np\nimport tensorflow as tf\n"
             "from model import ValueModel\n\n\ndef main():" + driver}
    code, outcomes, reasons = migrate(tmp_path, files, "--verify-entry", "train.py")
    assert outcomes == {"model.py": "eager", "train.py": "eager"}, reasons
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err
    assert "session" not in output(tmp_path, "train.py").split("def main():")[1]
    assert "set_session" not in output(tmp_path, "model.py")


def test_a_setter_that_gives_the_session_on_keeps_the_file_compat():
    source = MODEL.replace("        self.session = session\n",
                           "        self.session = session\n        self.h1.session = session\n")
    result = migrate_source(source, "model.py")
    assert result.outcome == "compat"
    assert "a session passed to code outside this module, which still needs it" in result.compat_reason


def test_a_session_attribute_used_beyond_runs_keeps_the_setters_call():
    source = MODEL.replace("    def predict(self, X):\n",
                           "    def graph(self):\n        return self.session.graph\n\n    def predict(self, X):\n")
    result = migrate_source(source, "model.py")
    assert result.outcome == "compat"
    assert "a session passed to code outside this module" in result.compat_reason


def test_a_member_object_whose_class_makes_variables_when_called_is_not_known():
    # forward() makes its variables: each call would make new ones. Before, `self.h1.forward(...)` in a model's
    # __init__ was taken for a method of the model's own class, and the trained list came out empty (a crash).
    source = MODEL.replace("        self.W = tf.Variable(np.random.randn(M1, M2).astype(np.float32) * 0.1)\n",
                           "        self.M = (M1, M2)\n").replace(
        "        return self.f(tf.matmul(X, self.W) + self.b)",
        "        self.W = tf.Variable(np.ones(self.M, np.float32))\n        return self.f(tf.matmul(X, self.W) + self.b)")
    result = migrate_source(source, "model.py")
    assert result.outcome == "compat"
    assert "`self.h2` is an object the analysis does not know" in result.compat_reason


def test_a_layer_class_calling_a_function_of_another_module_in_init_is_not_a_holder():
    source = SCRIPT.replace("import numpy as np\n", "import numpy as np\nfrom util import init_weight\n").replace(
        "tf.Variable(np.random.randn(M1, M2).astype(np.float32) * 0.1)", "tf.Variable(init_weight(M1, M2))")
    result = migrate_source(source, "holders.py")
    assert result.outcome == "compat"
    assert "`h2` is an object the analysis does not know" in result.compat_reason


OPTIONAL_BIAS = SCRIPT.replace('''    def __init__(self, M1, M2, f=tf.nn.tanh):
        self.W = tf.Variable(np.random.randn(M1, M2).astype(np.float32) * 0.1)
        self.b = tf.Variable(np.zeros(M2).astype(np.float32))
        self.f = f

    def forward(self, X):
        return self.f(tf.matmul(X, self.W) + self.b)''', '''    def __init__(self, M1, M2, f=tf.nn.tanh, use_bias=True):
        W = tf.ones((M1, M2)) * np.sqrt(2. / M1, dtype=np.float32)
        self.W = tf.Variable(W)
        self.use_bias = use_bias
        if use_bias:
            self.b = tf.Variable(np.zeros(M2).astype(np.float32) + 0.5)
        self.f = f

    def forward(self, X):
        if self.use_bias:
            return self.f(tf.matmul(X, self.W) + self.b)
        return self.f(tf.matmul(X, self.W))''').replace(
    "h2 = HiddenLayer(10, 1, lambda x: x)", "h2 = HiddenLayer(10, 1, lambda x: x, use_bias=False)")


def test_a_variable_made_in_a_branch_of_init_is_listed_where_the_object_has_it():
    # lazyprogrammer's HiddenLayer: `if use_bias: self.b = tf.Variable(...)`, the initial value drawn by a TF op
    # of the arguments (`W = tf.random_normal(...)`, here tf.ones) before the variable.
    source = OPTIONAL_BIAS + "print(len(tf.trainable_variables()))\n"
    result = migrate_source(source, "holders.py")
    assert result.outcome == "eager", result.compat_reason
    assert 'print(len([h1.W, *([h1.b] if hasattr(h1, "b") else []), h2.W, *([h2.b] if hasattr(h2, "b") else [])]))' \
        in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_branch_variable_bound_again_elsewhere_is_not_a_member_the_attribute_tells():
    source = OPTIONAL_BIAS.replace("        self.f = f\n", "        self.f = f\n\n    def drop_bias(self):\n"
                                   "        self.b = None\n", 1)
    result = migrate_source(source, "holders.py")
    assert result.outcome == "compat"
    assert "`h2` is an object the analysis does not know" in result.compat_reason


def test_a_class_computing_on_a_value_from_outside_in_init_or_making_variables_in_a_method_is_no_holder():
    module = cst.parse_module(SCRIPT)
    names = TFNames.scan(module)
    assert set(variable_holders(module, names)) == {"HiddenLayer"}
    changed = cst.parse_module(SCRIPT.replace("        self.f = f\n",
                                              "        self.f = f\n        self.scale = tf.ones([M2]) * SCALE\n"))
    assert variable_holders(changed, TFNames.scan(changed)) == {}
    layered = cst.parse_module(SCRIPT.replace("        return self.f(tf.matmul(X, self.W) + self.b)",
                                              "        return self.f(tf.keras.layers.Dense(3)(X))"))
    assert variable_holders(layered, TFNames.scan(layered)) == {}  # forward made a layer at each call


def test_a_second_session_initializing_the_objects_variables_again_keeps_the_file_compat():
    # TF1's second initializer run reset the model's trained variables, which the main() scope does not list:
    # eager variables would keep them (a silent difference the verifier showed on a probe).
    source = MODEL.replace("    print(model.predict(X))\n", "    print(model.predict(X))\n    other = tf.Session()\n"
                           "    other.run(tf.global_variables_initializer())\n    model.set_session(other)\n"
                           "    print(model.predict(X))\n")
    result = migrate_source(source, "model.py")
    assert result.outcome == "compat"
    assert "variables are initialized again (a second session)" in result.compat_reason
