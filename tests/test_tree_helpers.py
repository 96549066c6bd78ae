"""Helpers of another module of the tree that make variables per call, built as tf.Module classes across modules.

The provider defines the class in place of the function; each importer builds one instance per call site, where
the call stood, and calls it on the fed tensors (rules/_tree_helpers, tf_migrate/tree_helpers).
"""
from __future__ import annotations

import dataclasses

import pytest

from tf_migrate.cli import EXIT_OK
from tf_migrate.project import plan
from tf_migrate.tfnames import HelperClass
from tf_migrate.tree_helpers import disagreement
from tests.trees import migrate, output

OPS = '''import tensorflow as tf


def weight_variable(name, shape):
    return tf.get_variable("W_" + name, shape=shape, initializer=tf.truncated_normal_initializer(stddev=0.1, seed=3))


def fc_layer(x, num_units, name, use_relu=True):
    in_dim = x.get_shape()[1]
    W = weight_variable(name, [in_dim, num_units])
    b = tf.get_variable("b_" + name, initializer=tf.constant(0.1, shape=[num_units]))
    layer = tf.matmul(x, W) + b
    if use_relu:
        layer = tf.nn.relu(layer)
    return layer
'''

MAIN = '''import numpy as np
import tensorflow as tf
from ops import fc_layer

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 2])
hidden = fc_layer(x, 4, "FC1")
logits = fc_layer(hidden, 2, "OUT", use_relu=False)
loss = tf.reduce_mean(tf.square(logits - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train, loss], {x: np.linspace(0, 1, 6).reshape(2, 3), y: np.ones((2, 2))})
        print(step, value)
'''


def test_the_provider_defines_the_class_and_the_importer_builds_one_per_call(tmp_path):
    _, outcomes, _ = migrate(tmp_path, {"ops.py": OPS, "main.py": MAIN})
    assert outcomes == {"ops.py": "eager", "main.py": "eager"}
    ops, migrated = output(tmp_path, "ops.py"), output(tmp_path, "main.py")
    assert "class FcLayer(tf.Module):" in ops and "def fc_layer(" not in ops
    assert "from ops import FcLayer\n" in migrated
    assert "fc_layer_1 = FcLayer(4, \"FC1\")\n" in migrated and "fc_layer_2 = FcLayer(2, \"OUT\", use_relu=False)\n" in migrated
    assert "Session" not in migrated and "placeholder" not in migrated
    assert "[fc_layer_1.W, fc_layer_1.b, fc_layer_2.W, fc_layer_2.b]" in migrated  # the variables, in TF1's order


def test_the_migrated_tree_prints_the_legacy_numbers(tmp_path, capsys):
    code, outcomes, _ = migrate(tmp_path, {"ops.py": OPS, "main.py": MAIN}, "--verify-entry", "main.py")
    assert outcomes == {"ops.py": "eager", "main.py": "eager"}
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err


def test_a_star_import_needs_no_import_change(tmp_path):
    _, outcomes, _ = migrate(tmp_path, {"ops.py": OPS, "main.py": MAIN.replace("from ops import fc_layer",
                                                                               "from ops import *")})
    assert outcomes == {"ops.py": "eager", "main.py": "eager"}
    assert "from ops import *\n" in output(tmp_path, "main.py")


CANNOT_BUILD = MAIN.replace('hidden = fc_layer(x, 4, "FC1")', 'hidden = fc_layer(x, num_units=4, name="FC1", '
                                                                 'use_relu=tf.constant(True))')
STAR_COMPAT = ("import tensorflow as tf\nfrom ops import *\n\nq = tf.RandomShuffleQueue(3, 0, tf.float32)\n"
               "h = fc_layer(tf.reshape(q.dequeue(), [1, 1]), 2, 'Q')\n")


@pytest.mark.parametrize("other", [
    pytest.param(CANNOT_BUILD, id="an importer whose class would differ"),
    pytest.param(STAR_COMPAT, id="a compat module calling it through a star import"),
])
def test_an_importer_that_does_not_build_the_class_keeps_the_function_for_all(tmp_path, other):
    _, outcomes, reasons = migrate(tmp_path, {"ops.py": OPS, "main.py": MAIN, "other.py": other})
    assert set(outcomes.values()) == {"compat"}
    assert "other.py too, which does not build it as a class" in reasons["main.py"]
    assert "def fc_layer(" in output(tmp_path, "ops.py")


def test_importers_expecting_different_classes_disagree(tmp_path):
    for name, text in {"ops.py": OPS, "main.py": MAIN, "other.py": MAIN}.items():
        (tmp_path / name).write_text(text)
    project = plan(tmp_path, sorted(tmp_path.glob("*.py")))
    provider = str(tmp_path / "ops.py")
    form = HelperClass(provider, "fc_layer", "FcLayer", ("x",), True, (("W", True, 0), ("b", True, 0)))
    other_form = dataclasses.replace(form, tensor_params=("x", "use_relu"))
    same = [(tmp_path / "main.py", form), (tmp_path / "other.py", form)]
    assert disagreement(project, provider, "fc_layer", same) == ""
    differ = [(tmp_path / "main.py", form), (tmp_path / "other.py", other_form)]
    assert "built as different classes" in disagreement(project, provider, "fc_layer", differ)
    alone = [(tmp_path / "main.py", form)]
    assert "other.py too, which does not build it as a class" in disagreement(project, provider, "fc_layer", alone)


def test_a_module_importing_the_helper_without_calling_it_on_tensors_keeps_the_function(tmp_path):
    registry = "from ops import fc_layer\nLAYERS = {'fc': fc_layer}\n"
    _, outcomes, reasons = migrate(tmp_path, {"ops.py": OPS, "main.py": MAIN, "registry.py": registry})
    assert outcomes["main.py"] == "compat" and outcomes["ops.py"] == "compat"
    assert "registry.py too, which does not build it as a class" in reasons["main.py"]


def test_a_module_importing_the_provider_whole_and_using_the_function_keeps_it(tmp_path):
    whole = "import ops\nprint(ops.fc_layer.__name__)\n"
    _, outcomes, reasons = migrate(tmp_path, {"ops.py": OPS, "main.py": MAIN, "whole.py": whole})
    assert outcomes["main.py"] == "compat"
    assert "whole.py imports whole and uses as a function" in reasons["main.py"]


WHOLE_MAIN = MAIN.replace("from ops import fc_layer", "import ops").replace("= fc_layer(", "= ops.fc_layer(")


def test_an_importer_of_the_whole_module_builds_the_class_through_it(tmp_path, capsys):
    code, outcomes, _ = migrate(tmp_path, {"ops.py": OPS, "main.py": WHOLE_MAIN}, "--verify-entry", "main.py")
    assert outcomes == {"ops.py": "eager", "main.py": "eager"}
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err
    migrated = output(tmp_path, "main.py")
    assert "import ops\n" in migrated and "fc_layer_1 = ops.FcLayer(4, \"FC1\")\n" in migrated
    assert "class FcLayer(tf.Module):" in output(tmp_path, "ops.py")


def test_a_helper_its_own_module_calls_is_not_exported(tmp_path):
    calls_itself = OPS + "\n\ndef two_layers(x):\n    return fc_layer(fc_layer(x, 3, 'a'), 3, 'b')\n"
    _, outcomes, reasons = migrate(tmp_path, {"ops.py": calls_itself, "main.py": MAIN})
    assert outcomes["main.py"] == "compat"
    assert "ops.py uses it too (or it does not only compute tensors), so it stays a function there" in reasons["main.py"]


def test_variable_scopes_around_the_calls_keep_the_function(tmp_path):
    scoped = MAIN.replace('hidden = fc_layer(x, 4, "FC1")', 'with tf.variable_scope("net"):\n'
                                                            '    hidden = fc_layer(x, 4, "FC1")')
    _, outcomes, reasons = migrate(tmp_path, {"ops.py": OPS, "main.py": scoped})
    assert outcomes["main.py"] == "compat"
    assert "variable scopes, through which TF1 shared the variables" in reasons["main.py"]


def test_variables_made_at_the_first_call_must_not_be_listed_before_it(tmp_path):
    """fc_layer reads its input's shape, so its class makes the variables at its first call: a variable list read
    at build time would miss them."""
    listed = MAIN + "    print([v.name for v in tf.trainable_variables()])\n"
    _, outcomes, reasons = migrate(tmp_path, {"ops.py": OPS, "main.py": listed})
    assert outcomes == {"ops.py": "compat", "main.py": "compat"}
    assert "`tf.trainable_variables` reads the variables before any run" in reasons["main.py"]


def test_a_helper_called_on_python_values_only_stays_a_function(tmp_path, capsys):
    """`W = weight_variable(...)` at build time makes its variable once, as TF1 did: nothing to split."""
    python_only = MAIN.replace("from ops import fc_layer", "from ops import weight_variable").replace(
        'hidden = fc_layer(x, 4, "FC1")\nlogits = fc_layer(hidden, 2, "OUT", use_relu=False)',
        'W = weight_variable("one", [3, 2])\nlogits = tf.matmul(x, W)')
    code, outcomes, _ = migrate(tmp_path, {"ops.py": OPS, "main.py": python_only}, "--verify-entry", "main.py")
    assert outcomes == {"ops.py": "eager", "main.py": "eager"}
    assert 'W = weight_variable("one", [3, 2])' in output(tmp_path, "main.py")
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err


LAYERS = '''import tensorflow as tf


def dense(x, n):
    w = tf.Variable(tf.ones([int(x.shape[1]), n]) * 0.5)
    return tf.matmul(x, w)
'''
GRAPH_READER = '''import tensorflow as tf

print(len(tf.get_default_graph().get_operations()))
'''
DENSE_MAIN = '''import numpy as np
import tensorflow as tf
from layers import dense
{extra}
x = tf.placeholder(tf.float32, [None, 3])
loss = tf.reduce_sum(dense(x, 2))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(2):
        print(step, sess.run([train, loss], {{x: np.ones((2, 3))}})[1])
'''


def test_a_helper_module_exporting_a_class_is_not_neutral(tmp_path, capsys):
    """layers.py alone would stay eager beside compat importers (it only defines tf.Variable helpers), but once it
    defines `Dense` for main.py it has no `dense` left: main.py, tied to a compat module, needs it compat too."""
    (tmp_path / "alone").mkdir()
    _, outcomes, _ = migrate(tmp_path / "alone", {"layers.py": LAYERS, "main.py": DENSE_MAIN.format(extra="")})
    assert outcomes == {"layers.py": "eager", "main.py": "eager"}
    assert "class Dense(tf.Module):" in output(tmp_path / "alone", "layers.py")
    assert "dense_1 = Dense(2)\n" in output(tmp_path / "alone", "main.py")
    tied = {"layers.py": LAYERS, "graph_reader.py": GRAPH_READER, "main.py": DENSE_MAIN.format(extra="import graph_reader")}
    code, outcomes, _ = migrate(tmp_path, tied, "--verify-entry", "main.py")
    assert outcomes == {"layers.py": "compat", "graph_reader.py": "compat", "main.py": "compat"}
    assert "def dense(" in output(tmp_path, "layers.py")
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err
