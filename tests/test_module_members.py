"""analysis/modules: the variables of a tf.Module class as members of its objects (module_members), in creation order,
and how a list of them is written (member_list): single variables, lists a loop of __init__ makes, Keras layers."""
import libcst as cst
import pytest

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.modules import CELL_LIST, OPTIONAL, member_list, module_members
from tf_migrate.tfnames import TFNames

HEADER = "import numpy as np\nimport tensorflow as tf\n\n"


def _members(source: str):
    module = cst.parse_module(source)
    cls = next(s for s in module.body if isinstance(s, cst.ClassDef))
    return module_members(cls, TFNames.scan(module), set())


def test_module_members_in_creation_order():
    assert _members(HEADER + '''
class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(1.0)
        self.step = tf.Variable(0, trainable=False)
        self.b = tf.Variable(2.0)

    def __call__(self, x):
        return x * self.w + self.b
''') == (("w", True, 0), ("step", False, 0), ("b", True, 0))


_LOOP_MODULE = '''
class Net(tf.Module):
    def __init__(self, sizes):
        super().__init__()

        def weight(shape):
            return tf.Variable(tf.ones(shape))
        self.W = []
        self.b = []
        for i, n in enumerate(sizes):
            self.W.append(weight([2, n]))
            self.b.append(tf.Variable(tf.zeros([n])))
        self.out = weight([2, 1])

    def __call__(self, x):
        return x
'''


def test_module_members_made_in_a_loop_are_lists_of_that_loop():
    assert _members(HEADER + _LOOP_MODULE) == (("W", True, 1), ("b", True, 1), ("out", True, 0))


def test_member_list_interleaves_the_lists_one_loop_makes():
    made = pm.Symbol("net", pm.LAYER, 0, members=(("W", True, 1), ("b", True, 1), ("out", True, 0)))
    assert member_list("net", made, trainable_only=True) == [
        "*(v for made in zip(net.W, net.b) for v in made)", "net.out"]
    single = pm.Symbol("net", pm.LAYER, 0, members=(("W", True, 1), ("out", False, 0)))
    assert member_list("net", single, trainable_only=True) == ["*net.W"]


def test_a_loops_list_of_keras_layers_lists_each_layers_variables():
    # (it was `*net.dense`: the layers themselves starred into the variable list, an AttributeError in the step)
    members = _members(HEADER + '''
class Net(tf.Module):
    def __init__(self, sizes):
        super().__init__()
        self.dense = []
        for i, n in enumerate(sizes):
            self.dense.append(tf.keras.layers.Dense(units=n))
        self.out = tf.Variable(1.0)
''')
    assert members == (("dense", True, CELL_LIST), ("out", True, 0))
    made = pm.Symbol("net", pm.LAYER, 0, members=members)
    assert member_list("net", made, trainable_only=True) == [
        "*(v for layer in net.dense for v in layer.trainable_variables)", "net.out"]
    mixed = HEADER + "class Net(tf.Module):\n    def __init__(self, sizes):\n        self.d = []\n        self.w = []\n" \
        "        for n in sizes:\n            self.d.append(tf.keras.layers.Dense(n))\n" \
        "            self.w.append(tf.Variable(1.0))\n"
    assert _members(mixed) is None  # (TF1 interleaved the two lists' variables)


@pytest.mark.parametrize("body", [
    pytest.param("    def __call__(self, x):\n        self.v = tf.Variable(1.0)\n        return x * self.v\n",
                 id="variable made in __call__"),
    pytest.param("    def __init__(self, a):\n        if a:\n            self.v = tf.Variable(1.0)\n        else:\n"
                 "            self.v = tf.Variable(2.0)\n", id="variable made in both branches of an if of __init__"),
    pytest.param("    def __init__(self, a):\n        if a:\n            self.v = tf.Variable(1.0)\n\n"
                 "    def reset(self):\n        self.v = None\n", id="branch variable bound again elsewhere"),
])
def test_module_members_unknown(body):
    assert _members(HEADER + "class Net(tf.Module):\n" + body) is None


def test_a_variable_made_in_an_if_of_init_is_an_optional_member():
    members = _members(HEADER + "class Net(tf.Module):\n    def __init__(self, a):\n        self.w = tf.Variable(0.5)\n"
                       "        if a:\n            self.v = tf.Variable(1.0)\n")
    assert members == (("w", True, 0), ("v", True, OPTIONAL))
