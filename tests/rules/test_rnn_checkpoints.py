"""rnn-checkpoints: a checkpoint of TF1 rnn cells restores into the Keras layers of the migration, and back.

Each program builds one cell under ``dynamic_rnn`` (with ``sequence_length``), then saves or
restores with ``tf.train.Saver`` and prints the outputs and the final state. The legacy program
runs under TF1 graph semantics and the migration under plain TF2, each in its own process
(``tf_migrate.verify.run_program``): kernels split at the input width, gates reordered and
``forget_bias`` moved into the bias must give the same numbers (atol 1e-5) in both directions.
"""
import re

import numpy as np
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import run_program

PROGRAM = '''\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 5, 3])
lengths = tf.placeholder(tf.int32, [None])
cell = tf.nn.rnn_cell.{cell}
outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
saver = tf.train.Saver()
data = np.linspace(-1.0, 1.0, 30).reshape(2, 5, 3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    {step}
    out, final = sess.run([outputs, state], {{x: data, lengths: [5, 3]}})
    print(np.round(out, 6).tolist())
    print(np.round(np.concatenate([np.ravel(part) for part in {parts}]), 6).tolist())
'''
CELLS = {
    "lstm": ("LSTMCell(4)", "final"),  # forget_bias=1.0 by default
    "basic lstm": ("BasicLSTMCell(4, forget_bias=0.5)", "final"),
    "gru": ("GRUCell(4)", "[final]"),
}
_NUMBERS = re.compile(r"-?\d+\.\d*(?:e-?\d+)?")


def _program(name: str, step: str) -> str:
    cell, parts = CELLS[name]
    return PROGRAM.format(cell=cell, step=step, parts=parts)


def _numbers(run) -> np.ndarray:
    assert run.returncode == 0, run.stderr[-2000:]
    return np.array([float(n) for n in _NUMBERS.findall(run.stdout)])


@pytest.mark.parametrize("name", sorted(CELLS))
def test_checkpoints_cross_between_tf1_cells_and_keras_layers(name, tmp_path):
    path = str(tmp_path / "model.ckpt")
    save, restore = f"saver.save(sess, {path!r})", f"saver.restore(sess, {path!r})"
    migrated = migrate_source(_program(name, restore), "restore.py")
    assert migrated.outcome == "eager", migrated.findings
    assert "keras.layers." in migrated.new_source and "rnn_cell" not in migrated.new_source

    legacy_saved = _numbers(run_program(_program(name, save), path=tmp_path / "save.py", mode="legacy"))
    restored = _numbers(run_program(migrated.new_source, path=tmp_path / "restore.py", mode="migrated"))
    np.testing.assert_allclose(restored, legacy_saved, atol=1e-5)

    # and back: the migration writes TF1's layout under TF1's names
    migrated_save = migrate_source(_program(name, save), "save.py")
    assert migrated_save.outcome == "eager", migrated_save.findings
    saved = _numbers(run_program(migrated_save.new_source, path=tmp_path / "save2.py", mode="migrated"))
    legacy_restored = _numbers(run_program(_program(name, restore), path=tmp_path / "restore2.py", mode="legacy"))
    np.testing.assert_allclose(legacy_restored, saved, atol=1e-5)


NAMES = '''\
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 5, 3])
a, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(4), x, dtype=tf.float32)
b, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(4), x, dtype=tf.float32, scope="second")
cells = [tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(2), output_keep_prob=0.5) for _ in range(2)]
c, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells), x, dtype=tf.float32, scope="multi")
d, _ = tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(2), tf.nn.rnn_cell.BasicRNNCell(2), x,
                                       dtype=tf.float32)
e, _ = tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2, name="named"), tf.unstack(x, 5, 1), dtype=tf.float32)
saver = tf.train.Saver()
print(sorted(v.name[:-2] for v in tf.global_variables()))
'''


def test_saver_keys_are_the_names_tf1_gave_the_cells(tmp_path):
    legacy = run_program(NAMES, path=tmp_path / "names.py", mode="legacy")
    assert legacy.returncode == 0, legacy.stderr[-2000:]
    migrated = migrate_source(NAMES.partition("print(")[0], "names.py")  # reading TF1 names needs TF1
    assert migrated.outcome == "eager", migrated.findings
    saver_line = next(line for line in migrated.new_source.splitlines() if "train.Saver(" in line)
    assert sorted(re.findall(r'"([^"]+)": ', saver_line)) == eval(legacy.stdout.strip().splitlines()[-1])
