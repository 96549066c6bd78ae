"""frozen-keras-layers: a tf.keras layer built with trainable=False in TF1 graph code keeps the file compat (TF1
trained its variables anyway), with the reason at the constructor."""
import pytest

from tests.twins import run_legacy
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
frozen = tf.keras.layers.Dense(3, kernel_initializer="ones"{trainable})
head = tf.keras.layers.Dense(1, kernel_initializer="ones")
loss = tf.reduce_mean(tf.square(head(frozen(x)) - y))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(8, 4)
ys = np.linspace(0.0, 1.0, 8, dtype=np.float32).reshape(8, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(i, sess.run([loss, train], {{x: xs, y: ys}})[0])
'''


@pytest.mark.parametrize("flag", ["False", "freeze"])
def test_a_frozen_keras_layer_keeps_the_file_compat_with_the_reason_at_it(flag):
    source = PROGRAM.format(trainable=f", trainable={flag}").replace("x = tf.placeholder", "freeze = False\nx = "
                                                                    "tf.placeholder", 1)
    result = migrate_source(source, "frozen.py")
    assert result.outcome == "compat"
    assert "TF1 made its variables trainable anyway" in result.compat_reason
    line = next(i for i, text in enumerate(source.splitlines(), 1) if text.startswith("frozen ="))
    assert any(f.rule == "eager-blocker" and f.line == line for f in result.findings)


def test_the_legacy_program_trains_the_frozen_layer():
    # What the rule guards: TF1's minimize() moved the "frozen" layer (its loss falls faster than the head alone's).
    frozen, trainable = (run_legacy(PROGRAM.format(trainable=t)) for t in (", trainable=False", ""))
    assert frozen == trainable


def test_keras_layers_without_the_flag_and_tf_layers_with_it_convert(tmp_path):
    result = migrate_source(PROGRAM.format(trainable=", trainable=True"), "plain.py")
    assert result.outcome == "eager", result.compat_reason
    layers = PROGRAM.format(trainable="").replace(
        'frozen = tf.keras.layers.Dense(3, kernel_initializer="ones")',
        'h = tf.layers.dense(x, 3, kernel_initializer=tf.ones_initializer(), trainable=False)').replace(
        "head(frozen(x))", "head(h)")
    result = migrate_source(layers, "layers.py")
    assert result.outcome == "eager", result.compat_reason  # TF1's tf.layers kept them out of the collection
    verdict = verify_program(layers, result.new_source, path=tmp_path / "layers.py", timeout=240)  # (tf.layers)
    assert verdict.status == "equivalent", verdict.detail


def test_a_keras_program_without_a_session_is_not_blocked():
    source = ("import tensorflow as tf\nlayer = tf.keras.layers.Dense(2, trainable=False)\n"
              "print(layer(tf.ones([1, 3])).shape)\n")
    result = migrate_source(source, "keras_only.py")
    assert not any("trainable anyway" in f.message for f in result.findings)
