"""legacy-keras-eager: eager output that keeps a Keras-2 compat API sets TF_USE_LEGACY_KERAS itself."""
import os
import subprocess
import sys

from tf_migrate.engine import migrate_source

SWITCH = 'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # TF1 Keras APIs need Keras 2: pip install tf-keras\n'
HELPER = ("import tensorflow as tf\n\ndef rnn(x, n):\n    cell = tf.nn.rnn_cell.BasicRNNCell(n)\n"
          "    outputs, states = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n    return outputs\n")


def test_a_helper_keeping_compat_rnn_cells_gets_the_switch():
    result = migrate_source(HELPER, "ops.py")
    assert result.outcome == "eager"
    assert "tf.compat.v1.nn.rnn_cell.BasicRNNCell" in result.new_source
    assert result.new_source.startswith("import os\n" + SWITCH + "import tensorflow as tf\n")
    assert [f.rule for f in result.findings if "TF_USE_LEGACY_KERAS" in f.message] == ["legacy-keras-eager"]
    assert migrate_source(result.new_source, "ops.py").new_source == result.new_source


def test_tf2_keras_needs_no_switch():
    source = "import tensorflow as tf\nlayer = tf.keras.layers.Dense(3)\n"
    assert migrate_source(source, "case.py", select={"legacy-keras-eager"}).new_source == source


def test_the_helper_runs_on_stock_tf_from_a_file_that_imported_tensorflow_first(tmp_path):
    """The lazy rnn_cell module reads the switch at its first use, after the helper's import."""
    (tmp_path / "ops.py").write_text(migrate_source(HELPER, "ops.py").new_source)
    (tmp_path / "main.py").write_text("import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"
                                      "from ops import rnn\nx = tf.placeholder(tf.float32, [1, 2, 3])\n"
                                      "print(rnn(x, 4).shape)\n")
    env = {k: v for k, v in os.environ.items() if k != "TF_USE_LEGACY_KERAS"}
    done = subprocess.run([sys.executable, "main.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "(1, 2, 4)" in done.stdout
