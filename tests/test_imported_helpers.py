"""Functions imported from another module of the tree: the importer's analysis knows what they do."""
from __future__ import annotations

import json

import pytest

from tf_migrate.cli import EXIT_OK, main

UTILS = '''"""Helpers of the tree: no TF runs when this module is imported."""
import tensorflow as tf


def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1, seed=1))


def corrupt(x):
    return tf.multiply(x, tf.cast(tf.greater(x, 0.5), tf.float32))
'''

# Compat alone: `W` holds what an unknown function returned, and `x` goes into one.
MAIN = '''import numpy as np
import tensorflow as tf
from utils import weight_variable, corrupt as noisy

x = tf.placeholder(tf.float32, [None, 3])
W = weight_variable([3, 2])
y = tf.reduce_sum(tf.matmul(noisy(x), W))
train = tf.train.GradientDescentOptimizer(0.1).minimize(y)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train, y], {x: np.linspace(0, 1, 6).reshape(2, 3)})
        print(step, value)
'''

# Kept compat for a reason of its own (a queue op inside an expression, outside a run), and importing the same
# helpers.
QUEUED = '''import tensorflow as tf
from utils import corrupt

queue = tf.FIFOQueue(3, tf.float32)
push = queue.enqueue([2.0])
value = corrupt(queue.dequeue())
with tf.Session() as sess:
    sess.run(push)
    print(sess.run(value))
'''

SCOPED = '''import tensorflow as tf


def linear(x, n):
    w = tf.get_variable("w", [int(x.shape[1]), n])
    return tf.matmul(x, w)
'''

SCOPED_MAIN = '''import numpy as np
import tensorflow as tf
from scoped import linear

x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope("a"):
    y = linear(x, 2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: np.ones((1, 3))}).shape)
'''


def migrate(tmp_path, files, *extra):
    (tmp_path / "src").mkdir()
    for name, text in files.items():
        (tmp_path / "src" / name).write_text(text)
    report = tmp_path / "report.json"
    code = main([str(tmp_path / "src"), "-q", "--report", str(report), *extra])
    result = json.loads(report.read_text())
    outcomes = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    reasons = {name.rsplit("/", 1)[1]: why for name, why in result["compat_reasons"].items()}
    return code, outcomes, reasons


def test_imported_variable_makers_and_tensor_functions_let_the_importer_go_eager(tmp_path):
    code, outcomes, _ = migrate(tmp_path, {"utils.py": UTILS, "main.py": MAIN}, "-o", str(tmp_path / "out"))
    assert outcomes == {"utils.py": "eager", "main.py": "eager"}
    migrated = (tmp_path / "out" / "main.py").read_text()
    assert "Session" not in migrated and "placeholder" not in migrated
    assert "W = weight_variable([3, 2])" in migrated  # made once, at build time, as in TF1
    assert "noisy(x)" in migrated  # recomputed in the run function from the fed x


def test_the_migrated_tree_prints_the_legacy_numbers(tmp_path, capsys):
    code, _, _ = migrate(tmp_path, {"utils.py": UTILS, "main.py": MAIN}, "--verify-entry", "main.py")
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err


def test_a_neutral_helper_module_stays_eager_beside_a_compat_importer(tmp_path, capsys):
    """utils.py only defines functions of TF2 ops: its eager form also builds queued.py's graph."""
    code, outcomes, reasons = migrate(tmp_path, {"utils.py": UTILS, "main.py": MAIN, "queued.py": QUEUED},
                                      "--verify-entry", "queued.py")
    assert outcomes == {"utils.py": "eager", "main.py": "eager", "queued.py": "compat"}
    assert "`queue.dequeue` inside an expression, outside a run" in reasons["queued.py"]
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err


def test_a_star_import_by_a_compat_module_keeps_the_helper_module_compat(tmp_path):
    """`from utils import *` would rebind the compat module's `tf` to utils' TF2 one."""
    starred = QUEUED.replace("from utils import corrupt", "from utils import *")
    _, outcomes, reasons = migrate(tmp_path, {"utils.py": UTILS, "main.py": MAIN, "queued.py": starred})
    assert outcomes == {"utils.py": "compat", "main.py": "compat", "queued.py": "compat"}
    assert "kept in compat mode with" in reasons["utils.py"]


def test_a_helper_sharing_variables_through_its_callers_scopes_keeps_the_importer_compat(tmp_path):
    _, outcomes, reasons = migrate(tmp_path, {"scoped.py": SCOPED, "main.py": SCOPED_MAIN})
    assert outcomes["main.py"] == "compat"
    assert "`linear` creates variables each time it is called on graph tensors" in reasons["main.py"]
    assert "this module uses variable scopes, through which TF1 shared the variables" in reasons["main.py"]


SCOPED_OPS = '''import tensorflow as tf


def lrelu(x, leak=0.2, name="lrelu"):
    with tf.variable_scope(name):
        return 0.6 * x + 0.4 * abs(x)
'''
QUEUED_LRELU = QUEUED.replace("from utils import corrupt", "from scoped_ops import lrelu").replace("corrupt(", "lrelu(")


def test_a_helper_module_whose_scopes_only_name_ops_stays_eager_beside_a_compat_importer(tmp_path):
    _, outcomes, _ = migrate(tmp_path, {"scoped_ops.py": SCOPED_OPS, "queued.py": QUEUED_LRELU})
    assert outcomes == {"scoped_ops.py": "eager", "queued.py": "compat"}


def test_op_names_read_by_a_compat_importer_keep_the_scopes_helper_module_compat(tmp_path):
    reads_name = QUEUED_LRELU.replace("    print(sess.run(value))", "    print(value.name, sess.run(value))")
    _, outcomes, _ = migrate(tmp_path, {"scoped_ops.py": SCOPED_OPS, "queued.py": reads_name})
    assert outcomes == {"scoped_ops.py": "compat", "queued.py": "compat"}


def test_a_helper_calling_a_variable_maker_defined_after_it_makes_variables(tmp_path):
    """Python calls `make` when `layer` runs: defined later in the module, it still makes layer's variables."""
    later = ('import tensorflow as tf\n\n\ndef layer(x):\n    return tf.matmul(x, make([3, 2]))\n\n\n'
             'def make(shape):\n    return tf.Variable(tf.ones(shape))\n')
    main_source = MAIN.replace("from utils import weight_variable, corrupt as noisy", "from later import layer")
    main_source = main_source.replace("y = tf.reduce_sum(tf.matmul(noisy(x), W))", "y = tf.reduce_sum(layer(x) + W[0])")
    main_source = main_source.replace("W = weight_variable([3, 2])", "W = tf.Variable(tf.ones([3, 2]))")
    _, outcomes, reasons = migrate(tmp_path, {"later.py": later, "main.py": main_source})
    assert outcomes["main.py"] == "compat"
    assert "`layer` creates variables each time it is called on graph tensors" in reasons["main.py"]


def test_a_star_import_is_read_in_one_order_whatever_the_hash_seed(tmp_path):
    """The names `from ops import *` brings are a set: read in sorted order, so the report is the same each run."""
    import subprocess
    import sys
    ops = "import tensorflow as tf\n\n\n" + "".join(
        f"def {name}(x, reuse=False):\n    with tf.variable_scope('{name}', reuse=reuse):\n"
        f"        return tf.matmul(x, tf.get_variable('w', [3, 3]))\n\n\n" for name in ("conv", "deconv", "linear", "lrelu"))
    model = "import tensorflow as tf\nfrom ops import *\n\nx = tf.placeholder(tf.float32, [None, 3])\n" + "".join(
        f"y_{name} = {name}(x)\n" for name in ("lrelu", "linear", "deconv", "conv"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ops.py").write_text(ops)
    (tmp_path / "src" / "model.py").write_text(model)
    reasons = set()
    for seed in ("1", "2", "3"):
        report = tmp_path / f"report_{seed}.json"
        subprocess.run([sys.executable, "-m", "tf_migrate", str(tmp_path / "src"), "-q", "-o", str(tmp_path / seed),
                        "--report", str(report)], env={**__import__("os").environ, "PYTHONHASHSEED": seed}, check=False)
        reasons.add(json.dumps(json.loads(report.read_text())["compat_reasons"], sort_keys=True))
    assert len(reasons) == 1, reasons


# ``import utils`` then ``utils.weight_variable(...)``: the functions of a module imported whole are summarized too.
WHOLE_MAIN = MAIN.replace("from utils import weight_variable, corrupt as noisy", "import utils as u").replace(
    "weight_variable(", "u.weight_variable(").replace("noisy(", "u.corrupt(")


def test_functions_of_a_module_imported_whole_let_the_importer_go_eager(tmp_path, capsys):
    code, outcomes, _ = migrate(tmp_path, {"utils.py": UTILS, "main.py": WHOLE_MAIN}, "--verify-entry", "main.py",
                                "-o", str(tmp_path / "out"))
    assert outcomes == {"utils.py": "eager", "main.py": "eager"}
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err
    migrated = (tmp_path / "out" / "main.py").read_text()
    assert "Session" not in migrated and "W = u.weight_variable([3, 2])" in migrated


# ``u`` bound to something else where ``u.corrupt(x)`` is called: it calls what ``u`` holds there, not utils.py's.
REBOUND = [
    pytest.param("def build(u, x):\n    return u.corrupt(x)\n\n\ny = tf.reduce_sum(tf.matmul(build(u, x), W))",
                 "(`build` calls `u.corrupt`, from `utils`)", id="a parameter"),
    pytest.param("class Net:\n    def corrupt(self, v):\n        return v * 3.0\n\n\n"
                 "y = tf.reduce_sum(tf.matmul(sum([u.corrupt(x) for u in [Net()]]), W))",
                 "`u.corrupt` comes from `utils`", id="a comprehension's target"),
]


@pytest.mark.parametrize("binding, why", REBOUND)
def test_a_module_name_bound_again_is_not_taken_for_the_module(tmp_path, binding, why):
    rebound = WHOLE_MAIN.replace("y = tf.reduce_sum(tf.matmul(u.corrupt(x), W))", binding)
    _, outcomes, reasons = migrate(tmp_path, {"utils.py": UTILS, "main.py": rebound})
    assert outcomes["main.py"] == "compat"
    assert why in reasons["main.py"]


NETS = """import tensorflow as tf


def dense(x, w, b):
    return tf.nn.relu(tf.matmul(x, w) + b)


def loss_of(logits, labels):
    return tf.reduce_mean(tf.square(logits - labels))


def make_weights(n_in, n_out):
    return tf.Variable(tf.random_normal([n_in, n_out], seed=4)), tf.Variable(tf.zeros([n_out]))
"""

PACKAGE_MAIN = """import numpy as np
import tensorflow as tf
import pkg.nets
import pkg.nets as N

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 2])
w, b = pkg.nets.make_weights(3, 2)
loss = pkg.nets.loss_of(N.dense(x, w, b), y)
train = tf.train.AdamOptimizer(0.05).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(4):
        print(sess.run([train, loss], {x: np.ones((2, 3)), y: np.zeros((2, 2))})[1])
"""


def test_a_package_module_imported_whole_by_its_dotted_name_and_by_an_alias(tmp_path, capsys):
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "nets.py").write_text(NETS)
    (tmp_path / "src" / "main.py").write_text(PACKAGE_MAIN)
    report = tmp_path / "report.json"
    code = main([str(tmp_path / "src"), "-q", "--report", str(report), "--verify-entry", "main.py"])
    outcomes = {name.rsplit("/", 1)[1]: outcome for name, outcome in json.loads(report.read_text())["files"].items()}
    assert outcomes == {"nets.py": "eager", "main.py": "eager"}
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err
