"""compat-mode: files kept in TF1 graph mode run on a stock TF >= 2.16 install, with nothing set by the user.

``tensorflow.compat.v1`` + ``disable_v2_behavior()``; ``tf.contrib`` names move to their TF2 home
(or an ERROR says the output will not run); Keras 2 APIs get ``TF_USE_LEGACY_KERAS`` set before
TensorFlow is imported. The last tests run compat outputs in subprocesses whose environment has no
``TF_USE_LEGACY_KERAS`` and compare their numbers with the legacy programs'.
"""
import os
import subprocess
import sys
import textwrap

import nbformat
import pytest

from tf_migrate import tf_tables
from tf_migrate.verify.output_compare import first_difference
from tf_migrate.engine import migrate_source
from tf_migrate.notebook import migrate_notebook
from tf_migrate.rules._compat_contrib import contrib_renames
from tf_migrate.verify import EQUIVALENT, verify_program

SWITCH = 'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # TF1 Keras APIs need Keras 2: pip install tf-keras\n'
PREAMBLE = "import os\n" + SWITCH
COMPAT_IMPORT = "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"


def compat(source: str):
    return migrate_source(textwrap.dedent(source), "case.py", mode="compat", select={"compat-mode"})


@pytest.mark.parametrize("before, after", [
    pytest.param("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n",
                 COMPAT_IMPORT + "x = tf.placeholder(tf.float32)\n", id="core TF1 only: no switch"),
    pytest.param("import tensorflow as tf\nh = tf.layers.dense(x, 3)\n",
                 PREAMBLE + COMPAT_IMPORT + "h = tf.layers.dense(x, 3)\n", id="tf.layers: switch before the TF import"),
    pytest.param("import os\nimport numpy as np\nimport tensorflow as tf\nc = tf.nn.rnn_cell.LSTMCell(4)\n",
                 "import os\nimport numpy as np\n" + SWITCH + COMPAT_IMPORT + "c = tf.nn.rnn_cell.LSTMCell(4)\n",
                 id="rnn cell: reuses import os"),
    pytest.param('"""Doc."""\nfrom __future__ import print_function\nimport sys\nfrom model import *\n'
                 "import tensorflow as tf\nh = tf.layers.conv2d(x, 2, 3)\n",
                 '"""Doc."""\nfrom __future__ import print_function\nimport sys\n' + PREAMBLE + "from model import *\n"
                 + COMPAT_IMPORT + "h = tf.layers.conv2d(x, 2, 3)\n", id="before a local module that may import TF"),
    pytest.param("try:\n    import tensorflow as tf\nexcept ImportError:\n    raise\nh = tf.layers.dense(x, 1)\n",
                 PREAMBLE + "try:\n    import tensorflow.compat.v1 as tf\nexcept ImportError:\n    raise\n"
                 "tf.disable_v2_behavior()\nh = tf.layers.dense(x, 1)\n", id="TF imported in try"),
    pytest.param(COMPAT_IMPORT + "m = tf.keras.Sequential()\n",
                 PREAMBLE + COMPAT_IMPORT + "m = tf.keras.Sequential()\n", id="tf.keras in graph mode, compat input"),
    pytest.param("import tensorflow as tf\nfrom tensorflow.keras.layers import Dense\n",
                 PREAMBLE + COMPAT_IMPORT + "from tensorflow.compat.v1.keras.layers import Dense\n",
                 id="from tensorflow.keras import"),
    pytest.param("import tensorflow as tf\n(a, b), _ = tf.keras.datasets.mnist.load_data()\n",
                 COMPAT_IMPORT + "(a, b), _ = tf.keras.datasets.mnist.load_data()\n",
                 id="tf.keras.datasets works with Keras 3: no switch"),
    pytest.param("import tensorflow as tf\nc = tf.contrib.rnn.MultiRNNCell([tf.contrib.rnn.BasicLSTMCell(3)])\n",
                 PREAMBLE + COMPAT_IMPORT + "c = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(3)])\n",
                 id="contrib rnn cells move to rnn_cell, which needs the switch"),
    pytest.param("import tensorflow as tf\nfrom tensorflow.contrib import rnn\nc = rnn.DropoutWrapper(rnn.GRUCell(3))\n"
                 "o, s = rnn.static_rnn(c, xs, dtype=tf.float32)\n",
                 PREAMBLE + COMPAT_IMPORT + "c = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(3))\n"
                 "o, s = tf.nn.static_rnn(c, xs, dtype=tf.float32)\n",
                 id="from tensorflow.contrib import rnn: import dropped"),
    pytest.param("import tensorflow as tf\nfrom tensorflow.contrib.rnn import LSTMCell, LSTMStateTuple as T\n"
                 "c = LSTMCell(3)\n",
                 PREAMBLE + COMPAT_IMPORT + "c = tf.nn.rnn_cell.LSTMCell(3)\n", id="contrib names imported one by one"),
    pytest.param("import tensorflow as tf\ni = tf.contrib.layers.xavier_initializer()\n",
                 COMPAT_IMPORT + "i = tf.glorot_uniform_initializer()\n", id="xavier_initializer"),
    pytest.param("import tensorflow as tf\ni = tf.contrib.layers.xavier_initializer(True, 5)\n",
                 COMPAT_IMPORT + "i = tf.glorot_uniform_initializer(seed=5)\n", id="xavier_initializer positional"),
    pytest.param("import tensorflow as tf\n"
                 "i = tf.contrib.layers.xavier_initializer(uniform=False, dtype=tf.float64)\n",
                 COMPAT_IMPORT + 'i = tf.variance_scaling_initializer(scale=1.0 * 1.3 * 0.87962566103423978 ** 2, '
                 'mode="fan_avg", distribution="truncated_normal", dtype=tf.float64)\n', id="xavier normal with dtype"),
    pytest.param("import tensorflow as tf\ni = tf.contrib.layers.variance_scaling_initializer(f, 'FAN_OUT', True)\n",
                 COMPAT_IMPORT + 'i = tf.variance_scaling_initializer(scale=f, mode="fan_out", distribution="uniform")\n',
                 id="variance_scaling_initializer uniform"),
    pytest.param("import tensorflow as tf\ni = tf.contrib.layers.variance_scaling_initializer(a + b, mode=m)\n",
                 COMPAT_IMPORT + "i = tf.variance_scaling_initializer(scale=(a + b) * 1.3 * 0.87962566103423978 ** 2, "
                 'mode=(m).lower(), distribution="truncated_normal")\n', id="variance_scaling_initializer defaults"),
    pytest.param("import tensorflow as tf\nd = d.map(f, tf.contrib.data.AUTOTUNE)\n"
                 "v = tf.contrib.framework.load_variable(checkpoint_dir=p, name='w')\n",
                 COMPAT_IMPORT + "d = d.map(f, tf.data.experimental.AUTOTUNE)\n"
                 "v = tf.train.load_variable(ckpt_dir_or_file=p, name='w')\n", id="table renames with keywords"),
    pytest.param("from tensorflow.examples.tutorials.mnist import input_data\nimport tensorflow as tf\n"
                 "x = tf.placeholder(tf.float32)\n",
                 "from tensorflow.examples.tutorials.mnist import input_data\n" + COMPAT_IMPORT
                 + "x = tf.placeholder(tf.float32)\n",
                 id="disable call after the import that binds the alias, not the first tensorflow import"),
    pytest.param("import tensorflow as tf\nfrom ops import *\nfrom math import *\nx = tf.placeholder(tf.float32)\n",
                 COMPAT_IMPORT + "from ops import *\nimport tensorflow.compat.v1 as tf\nfrom math import *\n"
                 "x = tf.placeholder(tf.float32)\n",
                 id="alias bound again after a helper's star import (it may bind plain TF2 as tf)"),
])
def test_rewrite(before, after):
    result = compat(before)
    assert result.new_source == after
    assert migrate_source(after, "case.py", mode="compat", select={"compat-mode"}).new_source == after  # idempotent


def findings(result, severity):
    return [(f.line, f.message) for f in result.findings if f.severity == severity and f.rule == "compat-mode"]


def test_keras_finding_names_the_first_use_and_the_package():
    result = compat("""\
        import numpy as np
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 3])
        h = tf.layers.dense(x, 4)
        c = tf.nn.rnn_cell.LSTMCell(4)
        """)
    [(line, message)] = [w for w in findings(result, "warning") if "tf-keras" in w[1]]
    assert line == 4
    assert message.startswith("`tf.layers.dense` needs Keras 2, the `tf-keras` package (pip install tf-keras)")
    assert "TF_USE_LEGACY_KERAS=1 before TensorFlow is imported" in message


def test_keras_finding_says_what_the_switch_must_precede():
    result = compat("from utils import *\nimport tensorflow as tf\nfrom tensorflow.keras import layers\n")
    [(line, message)] = [w for w in findings(result, "warning") if "tf-keras" in w[1]]
    assert line == 3
    assert "the switch goes before `from utils import *`, which may import TensorFlow" in message
    assert "`tensorflow.keras` imported as a module is routed when TensorFlow is first imported" in message
    assert result.new_source.startswith(PREAMBLE + "from utils import *\n")


def test_contrib_without_tf2_home_is_an_error_at_its_line():
    source = """\
        import tensorflow as tf
        import tensorflow.contrib.slim as slim
        x = tf.placeholder(tf.float32, [None, 4])
        h = tf.contrib.layers.fully_connected(x, 3)
        g = slim.conv2d(x, 3, 3)
        e = tf.estimator.RunConfig()
        """
    result = compat(source)
    assert findings(result, "error") == [
        (4, "`tf.contrib.layers.fully_connected` has no TF2 equivalent: this output will not run on TF2"),
        (5, "`tf.contrib.slim.conv2d` has no TF2 equivalent: this output will not run on TF2"),
        (6, "`tf.estimator` was removed in TF 2.16: this output will not run on TF2"),
        (2, "`tf.contrib.slim` has no TF2 equivalent: this import fails on TF2"),
    ]
    assert "import tensorflow.contrib.slim as slim\n" in result.new_source  # kept: the user must replace it


def test_contrib_summary_is_not_moved():
    """tf_upgrade_v2 ports tf.contrib.summary "best-effort" (other arguments, a step): not the same meaning."""
    result = compat("import tensorflow as tf\ntf.contrib.summary.scalar('loss', x)\n")
    assert "tf.contrib.summary.scalar" in result.new_source
    assert findings(result, "error")


def test_a_second_run_adds_nothing():
    source = "import tensorflow as tf\nfrom tensorflow.contrib import rnn\nx = tf.placeholder(tf.float32)\n" \
             "h = tf.layers.dense(x, 2)\nc = rnn.BasicLSTMCell(2)\nwith tf.Session() as s:\n    s.run(h)\n"
    once = migrate_source(source, "case.py")
    assert once.outcome == "compat"
    assert once.new_source.count("TF_USE_LEGACY_KERAS") == 1
    assert migrate_source(once.new_source, "case.py").new_source == once.new_source


def test_notebook_gets_the_switch_in_the_cell_with_the_first_tensorflow_import():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import numpy as np\ndata = np.ones((2, 3))"),
                nbformat.v4.new_markdown_cell("# Model"),
                nbformat.v4.new_code_cell("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
                                          "h = tf.layers.dense(x, 2)"),
                nbformat.v4.new_code_cell("with tf.Session() as sess:\n    sess.run(h, {x: data})")]
    result = migrate_notebook(nbformat.writes(nb), "nb.ipynb", mode="compat")
    cells = [cell.source for cell in nbformat.reads(result.new_source, as_version=4).cells]
    assert cells[0] == "import numpy as np\ndata = np.ones((2, 3))"
    assert cells[2].startswith(PREAMBLE + COMPAT_IMPORT)
    assert [(f.path, f.line) for f in result.findings if "tf-keras" in f.message] == [("nb.ipynb:cell 3", 3)]


# ---------------------------------------------------------------------------------------------------
# Running the outputs: each subprocess starts without TF_USE_LEGACY_KERAS, as a user's shell would.

def stock_environment():
    env = {k: v for k, v in os.environ.items() if k != "TF_USE_LEGACY_KERAS"}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    return env


def start_stock(source: str, tmp_path) -> subprocess.Popen:
    path = tmp_path / "migrated.py"
    path.write_text(source)
    return subprocess.Popen([sys.executable, str(path)], cwd=tmp_path, env=stock_environment(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# What tf_migrate.verify does to a legacy program before it starts (minus its shared random draws).
_LEGACY_BOOT = ("import sys, runpy\nimport tensorflow as tf\ntf.compat.v1.disable_v2_behavior()\n"
                "sys.modules['tensorflow'] = tf.compat.v1\nrunpy.run_path(sys.argv[1], run_name='__main__')\n")


def start_legacy(source: str, tmp_path) -> subprocess.Popen:
    path = tmp_path / "legacy.py"
    path.write_text(source)
    env = dict(stock_environment(), TF_USE_LEGACY_KERAS="1")
    return subprocess.Popen([sys.executable, "-c", _LEGACY_BOOT, str(path)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen):
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr[-3000:]
    return stdout


LAYERS_MLP = """\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
h = tf.layers.dense(x, 8, activation=tf.nn.tanh, kernel_initializer=tf.constant_initializer(np.linspace(-1, 1, 24)))
out = tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(0.3), bias_initializer=tf.ones_initializer())
loss = tf.reduce_mean(tf.square(out - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
X = np.linspace(-1, 1, 12).reshape(4, 3)
Y = X.sum(axis=1, keepdims=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train, loss], {x: X, y: Y})
        print(step, value)
"""

LSTM_DYNAMIC_RNN = """\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 5, 2])
init = tf.constant_initializer(0.1)
cells = [tf.nn.rnn_cell.LSTMCell(4, initializer=init), tf.nn.rnn_cell.GRUCell(3, kernel_initializer=init)]
outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells), x, dtype=tf.float32)
loss = tf.reduce_sum(outputs ** 2)
train = tf.train.AdamOptimizer(0.01).minimize(loss)
data = np.linspace(-1, 1, 20).reshape(2, 5, 2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        print(sess.run([loss, train], {x: data})[0])
"""

CONTRIB_PROGRAM = """\
import numpy as np
import tensorflow as tf
from tensorflow.contrib import rnn

tf.set_random_seed(3)
w = tf.get_variable("w", [3, 5], initializer=tf.contrib.layers.xavier_initializer(seed=1))
v = tf.get_variable("v", [2, 2, 3, 4], initializer=tf.contrib.layers.xavier_initializer(uniform=False, seed=2))
u = tf.get_variable("u", [6, 2], initializer=tf.contrib.layers.variance_scaling_initializer(seed=3))
x = tf.placeholder(tf.float32, [None, 4, 3])
cell = rnn.MultiRNNCell([rnn.BasicLSTMCell(5), tf.contrib.rnn.GRUCell(2)])
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([w, v, u]))
    print(sess.run(outputs, {x: np.ones((2, 4, 3))}))
"""

# CONTRIB_PROGRAM as TF 1.x ran it, with contrib's initializers written out (tensorflow/contrib/layers/
# python/layers/initializers.py at tensorflow/tensorflow@1681cd91; contrib.rnn's cells are core's).
CONTRIB_REFERENCE = """\
import math
import numpy as np
import tensorflow as tf

def contrib_variance_scaling(factor, mode, uniform, seed):
    def initializer(shape, dtype=tf.float32, partition_info=None):
        fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
        fan_out = float(shape[-1])
        for dim in shape[:-2]:
            fan_in *= float(dim)
            fan_out *= float(dim)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return tf.random_uniform(shape, -limit, limit, dtype, seed=seed)
        return tf.truncated_normal(shape, 0.0, math.sqrt(1.3 * factor / n), dtype, seed=seed)
    return initializer

tf.set_random_seed(3)
w = tf.get_variable("w", [3, 5], initializer=contrib_variance_scaling(1.0, "FAN_AVG", True, 1))
v = tf.get_variable("v", [2, 2, 3, 4], initializer=contrib_variance_scaling(1.0, "FAN_AVG", False, 2))
u = tf.get_variable("u", [6, 2], initializer=contrib_variance_scaling(2.0, "FAN_IN", False, 3))
x = tf.placeholder(tf.float32, [None, 4, 3])
cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(5), tf.nn.rnn_cell.GRUCell(2)])
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([w, v, u]))
    print(sess.run(outputs, {x: np.ones((2, 4, 3))}))
"""


KERAS_FIT = """import numpy as np
import tensorflow as tf
from tensorflow.keras.models import Sequential
from tensorflow.keras.layers import Dense
from tensorflow.keras.optimizers import SGD

w = tf.Variable(1.0)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(w * 2.0))
model = Sequential()
model.add(Dense(1, input_shape=(1,), kernel_initializer="ones"))
model.compile(loss="mse", optimizer=SGD(0.01))
x = np.linspace(0.0, 1.0, 64)
model.fit(x, 2.5 * x + 1.0, epochs=2, batch_size=16, shuffle=False, verbose=0)
print(np.round(model.get_weights()[0], 5))
"""


@pytest.mark.parametrize("program, reference", [
    pytest.param(LAYERS_MLP, LAYERS_MLP, id="tf.layers MLP"),
    # Keras imported from `tensorflow.keras`: TF1's Keras (its optimizers run in graph mode), as the legacy program
    # got it; from TF2's API its SGD failed in graph mode (zht007's notebook, probe 24)
    pytest.param(KERAS_FIT, KERAS_FIT, id="Keras fit in graph mode"),
    pytest.param(LSTM_DYNAMIC_RNN, LSTM_DYNAMIC_RNN, id="LSTMCell + GRUCell + dynamic_rnn"),
    pytest.param(CONTRIB_PROGRAM, CONTRIB_REFERENCE, id="contrib initializers and rnn cells"),
])
def test_compat_output_runs_on_stock_tf_and_prints_the_legacy_numbers(program, reference, tmp_path):
    result = migrate_source(program, "program.py", mode="compat")
    assert result.outcome == "compat"
    assert "tf.contrib" not in result.new_source
    migrated, legacy = start_stock(result.new_source, tmp_path), start_legacy(reference, tmp_path)
    migrated, legacy = finish(migrated), finish(legacy)
    assert legacy.strip()
    assert first_difference(legacy, migrated, rtol=1e-6, atol=1e-7) is None


def test_verify_runs_compat_output_without_setting_legacy_keras_for_it(tmp_path, monkeypatch):
    """The verifier sets TF_USE_LEGACY_KERAS for the legacy run only: the output must set it itself."""
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "1")  # even when the user's shell has it
    migrated = migrate_source(LAYERS_MLP, "mlp.py", mode="compat").new_source
    verdict = verify_program(LAYERS_MLP, migrated, path=tmp_path / "mlp.py", timeout=300)
    assert verdict.status == EQUIVALENT, verdict.detail
    without_switch = migrated.replace(SWITCH, "")
    verdict = verify_program(LAYERS_MLP, without_switch, path=tmp_path / "mlp.py", timeout=300)
    assert "is not available with Keras 3" in verdict.detail



def test_every_contrib_target_exists_in_tensorflow_compat_v1():
    tables = tf_tables.load()
    if not tables.symbol_renames:
        pytest.skip("TensorFlow is not installed")
    assert not set(contrib_renames()) & set(tables.reorders), "a moved contrib call would need its arguments reordered"
    targets = sorted(set(contrib_renames().values()))
    check = ("import sys, tensorflow.compat.v1 as v1\nmissing = []\nfor target in sys.argv[1:]:\n"
             "    obj = v1\n    for part in target.replace('tf.compat.v1.', 'tf.').split('.')[1:]:\n"
             "        obj = getattr(obj, part, None)\n    if obj is None:\n        missing.append(target)\n"
             "print(missing)\n")
    env = dict(stock_environment(), TF_USE_LEGACY_KERAS="1")
    done = subprocess.run([sys.executable, "-c", check, *targets], env=env, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "[]", done.stderr[-2000:]


def test_imports_from_tf1_api_packages_name_their_compat_v1_namesakes():
    source = ("from tensorflow.train import AdamOptimizer\nfrom tensorflow.nn.rnn_cell import LSTMCell\n"
              "from tensorflow.python.ops import array_ops\nimport tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
              "print(AdamOptimizer(0.1).get_name(), array_ops is not None)\n")
    migrated = migrate_source(source, "a.py", mode="compat").new_source
    assert "from tensorflow.compat.v1.train import AdamOptimizer\n" in migrated
    assert "from tensorflow.compat.v1.nn.rnn_cell import LSTMCell\n" in migrated
    assert "from tensorflow.python.ops import array_ops\n" in migrated  # not an API package: left as it is
    env = dict(stock_environment(), TF_USE_LEGACY_KERAS="1")
    done = subprocess.run([sys.executable, "-c", migrated], env=env, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "Adam True", done.stderr[-2000:]
