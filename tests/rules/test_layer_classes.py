"""layer-classes: tf.layers.Dense(...) and the other tf.layers classes become the Keras layers they were built on."""
from tf_migrate.engine import migrate_source

# The TensorFlow guide's low-level introduction (probe 21, ylqi007's introduction_examples.py): before, the file
# stayed compat ("`tf.layers.Dense` has no eager rewrite").
LINEAR_MODEL = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, shape=[None, 3])
y_true = tf.constant([[0.0], [-1.0]])
hidden = tf.layers.Dense(units=4, activation=tf.nn.relu)
drop = tf.layers.Dropout(0.5)
linear_model = tf.layers.Dense(units=1)
y_pred = linear_model(drop(hidden(x)))
loss = tf.losses.mean_squared_error(labels=y_true, predictions=y_pred)
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(5):
        _, value = sess.run((train, loss), {x: np.array([[1, 2, 3], [4, 5, 6]], np.float32)})
        print(value)
'''


def test_layer_objects_become_keras_layers_and_train_alike(tmp_path):
    from tf_migrate.verify import verify_program
    result = migrate_source(LINEAR_MODEL, "linear.py")
    assert result.outcome == "eager", result.compat_reason
    for made in ("hidden = tf.keras.layers.Dense(units=4, activation=tf.nn.relu)",
                 "drop = tf.keras.layers.Dropout(0.5)", "linear_model = tf.keras.layers.Dense(units=1)"):
        assert made in result.new_source
    verdict = verify_program(LINEAR_MODEL, result.new_source, path=tmp_path / "linear.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_tf1_only_arguments_are_left_to_compat_mode():
    for arguments in ("units=1, _reuse=True", "units=1, kernel_initializer=None"):
        result = migrate_source(LINEAR_MODEL.replace("tf.layers.Dense(units=1)", f"tf.layers.Dense({arguments})"),
                                "linear.py")
        assert result.outcome == "compat"
        assert "`tf.layers.Dense` has no eager rewrite" in result.compat_reason
