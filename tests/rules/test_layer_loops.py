"""tf.layers calls in a module-level ``for`` loop: layers-to-keras builds each layer in the loop, split-build-loops
makes (and builds) them in a first loop with the shapes it carries, and the run functions call them in a second."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

DENSE_LOOP = '''
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
h = x
for units in [8, 6]:
    h = tf.layers.dense(h, units, activation=tf.nn.relu)
out = tf.layers.dense(h, 1)
loss = tf.reduce_mean(tf.square(out - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
rng = np.random.RandomState(0)
xs = rng.randn(16, 4).astype(np.float32)
ys = rng.randn(16, 1).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(5):
        l, _ = sess.run([loss, train], feed_dict={x: xs, y: ys})
        print(step, round(float(l), 5))
'''

# Convolutions, batch norm trained through a fed flag, pooling: three lists, built with the shapes Keras computes.
CONV_LOOP = '''
import numpy as np
import tensorflow as tf

tf.set_random_seed(1)
x = tf.placeholder(tf.float32, [None, 8, 8, 1])
training = tf.placeholder_with_default(False, [])
h = x
for i, filters in enumerate([4, 8]):
    h = tf.layers.conv2d(h, filters, 3, padding="same", activation=tf.nn.relu, name="conv%d" % i)
    h = tf.layers.batch_normalization(h, training=training)
    h = tf.layers.max_pooling2d(h, 2, 2)
loss = tf.reduce_mean(tf.square(h - 0.5))
print([v.shape.as_list() for v in tf.trainable_variables()], len(tf.global_variables()))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
xs = np.random.RandomState(0).randn(6, 8, 8, 1).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(4):
        l, _ = sess.run([loss, train], feed_dict={x: xs, training: True})
        print(step, round(float(l), 4))
    print(sess.run(loss, {x: xs}).round(4))
'''


def test_a_dense_loop_makes_its_layers_in_a_first_loop_and_prints_the_legacy_numbers(tmp_path):
    result = migrate_source(DENSE_LOOP, "dense_loop.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert ("h_shape = tf.TensorShape([None, 4])  # carried through the loop that makes the layers\n"
            "for units in [8, 6]:\n"
            "    dense = tf.keras.layers.Dense(units=units, activation=tf.nn.relu)\n"
            "    dense.build(h_shape)\n"
            "    h_shape = dense.compute_output_shape(h_shape)\n"
            "    denses.append(dense)\n") in code
    assert "        for dense_i in denses:\n            h = dense_i(h)\n" in code
    assert "*(v for layer in denses for v in layer.trainable_variables)" in code
    # The layer after the loop reads what the loop gave `h`, not `x`'s width: it is not built with 4 inputs.
    assert ".build((None, 4))" not in code
    verdict = verify_program(DENSE_LOOP, code, path=tmp_path / "dense_loop.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_conv_loop_with_batch_norm_lists_its_variables_by_iteration_and_trains_alike(tmp_path):
    result = migrate_source(CONV_LOOP, "conv_loop.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "    batch_normalization.build(h_shape)\n" in code and "    max_pooling2d.build" not in code
    assert ("*(v for layers in zip(conv2ds, batch_normalizations, max_pooling2ds) for layer in layers "
            "for v in layer.trainable_variables)") in code
    assert "for layer in layers for v in layer.weights)" in code  # global variables: moving statistics too
    verdict = verify_program(CONV_LOOP, code, path=tmp_path / "conv_loop.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


@pytest.mark.parametrize("loop, why", [
    # the layer's input is no name whose shape the making loop carries
    ("for n in [2, 3]:\n    h = tf.layers.dense(tf.concat([h, x], 1), n)\n",
     "`tf.keras.layers.Dense` instances are made in a loop that also computes"),
    # a layer called twice: built once, where a second build would remake its variables
    ("for n in [2, 3]:\n    layer_out = tf.layers.dense(h, n)\n    h = tf.layers.dense(layer_out, 3)\n"
     "    h = tf.nn.relu(h)\n    h = h + layer_out[:, :1]\n",
     "instances are made in a loop that also computes"),
    ("i = 0\nwhile i < 2:\n    h = tf.layers.dense(h, 3)\n    i += 1\n", "has no eager rewrite"),
    ("def net(h):\n    i = 0\n    while i < 2:\n        h = tf.layers.dense(h, 3)\n        i += 1\n    return h\n"
     "h = net(h)\n", "has no eager rewrite"),
])
def test_loops_it_cannot_split_keep_the_file_compat_with_the_reason(loop, why):
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\nh = x\n" + loop
              + "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              + "    print(sess.run(h, {x: np.ones((2, 3))}).shape)\n")
    result = migrate_source(source, "unsplit.py")
    assert result.outcome == "compat"
    assert why in result.compat_reason


def test_variables_of_layers_built_at_their_first_call_read_before_any_run_keep_the_file_compat():
    """``dense`` after a flatten: its input width is not known where it is built, so its variables exist once a run
    has called it; TF1 listed them as soon as the graph held the layer (the rewrite printed 2, not 4)."""
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 4, 4, 1])\n"
              "h = tf.layers.conv2d(x, 2, 3)\nh = tf.layers.flatten(h)\nlogits = tf.layers.dense(h, 3)\n"
              "print(len(tf.trainable_variables()))\nwith tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run(logits, {x: np.ones((1, 4, 4, 1))}).shape)\n")
    result = migrate_source(source, "lazy_listing.py")
    assert result.outcome == "compat"
    assert "reads the variables of Keras layers that exist once they have been called" in result.compat_reason


def test_a_loop_over_a_reshaped_input_carries_the_shape_the_reshape_gives(tmp_path):
    source = ("import numpy as np\nimport tensorflow as tf\ntf.set_random_seed(1)\n"
              "x = tf.placeholder(tf.float32, [None, 64])\nh = tf.reshape(x, [-1, 8, 8, 1])\n"
              "for filters in [4, 8]:\n    h = tf.layers.conv2d(h, filters, 3, activation=tf.nn.relu)\n"
              "h = tf.reduce_mean(h, axis=[1, 2])\nloss = tf.reduce_mean(tf.square(h - 0.5))\n"
              "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
              "xs = np.random.RandomState(0).randn(3, 64).astype(np.float32)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    for step in range(3):\n        print(sess.run([loss, train], {x: xs})[0])\n")
    result = migrate_source(source, "reshaped_loop.py")
    assert result.outcome == "eager", result.compat_reason
    assert "h_shape = tf.TensorShape([None, 8, 8, 1])  # carried through the loop" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "reshaped_loop.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_layers_after_the_loop_are_built_with_the_shape_it_carries_so_lists_before_a_run_hold_them(tmp_path):
    """A flatten and a dense layer after a conv loop: TF1 made the dense layer's variables where the graph called
    it; built there with the carried shapes, they exist before the run, and the listing prints TF1's numbers."""
    source = CONV_LOOP.replace(
        "loss = tf.reduce_mean(tf.square(h - 0.5))\n",
        "h = tf.layers.flatten(h)\nlogits = tf.layers.dense(h, 3)\nloss = tf.reduce_mean(tf.square(logits - 0.5))\n")
    result = migrate_source(source, "conv_loop_dense.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert ("h_shape_2 = flatten.compute_output_shape(h_shape)\ndense = tf.keras.layers.Dense(units=3)\n"
            "dense.build(h_shape_2)\n") in code
    assert "dense.compute_output_shape" not in code  # (no layer after it reads that shape)
    verdict = verify_program(source, code, path=tmp_path / "conv_loop_dense.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


# spinningup's mlp: a helper's layers in a `for` loop, one layer an iteration (it was "`tf.layers.dense` has no eager
# rewrite", or, called twice, "each call made new variables"): built in the loop, kept by its tf.Module in a list.
MLP = '''import numpy as np
import tensorflow as tf
tf.set_random_seed(0)


def mlp(x, hidden_sizes=(32, 32), activation=tf.tanh, output_activation=None):
    for h in hidden_sizes[:-1]:
        x = tf.layers.dense(x, units=h, activation=activation)
    return tf.layers.dense(x, units=hidden_sizes[-1], activation=output_activation)


x_ph = tf.placeholder(tf.float32, shape=(None, 3))
a_ph = tf.placeholder(tf.float32, shape=(None, 2))
with tf.variable_scope('pi'):
    pi = mlp(x_ph, list((8, 8)) + [2], tf.nn.relu, tf.tanh)
with tf.variable_scope('q'):
    q = tf.squeeze(mlp(tf.concat([x_ph, a_ph], axis=-1), [8, 8, 1], tf.nn.relu, None), axis=1)
loss = tf.reduce_mean((q - 1.0) ** 2) + tf.reduce_mean(pi ** 2)
train = tf.train.AdamOptimizer(1e-2).minimize(loss)
xs = np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)
as_ = np.linspace(-1, 1, 8).reshape(4, 2).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(5):
        l, _ = sess.run([loss, train], {x_ph: xs, a_ph: as_})
        print(i, round(float(l), 5))
    print(sess.run(pi, {x_ph: xs[:1]}))
'''


@pytest.mark.parametrize("calls", ["twice", "once"])
def test_a_helper_making_its_layers_in_a_loop_becomes_a_module_holding_a_list(tmp_path, calls):
    # Called once and followed by a layer: that layer is made where it stands, the helper's at its first call, in a
    # run (after it); a seeded program would see other initial values, an unseeded one cannot tell (_lazy_builds).
    source = MLP if calls == "twice" else MLP.replace("mlp(tf.concat([x_ph, a_ph], axis=-1), [8, 8, 1], tf.nn.relu, "
                                                      "None)", "tf.layers.dense(tf.concat([x_ph, a_ph], axis=-1), 1)"
                                                      ).replace("tf.set_random_seed(0)\n", "")
    result = migrate_source(source, "mlp.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "class Mlp(tf.Module):" in code
    assert ("        for i, h in enumerate(hidden_sizes[:-1]):\n"
            "            self.dense.append(tf.keras.layers.Dense(units=h, activation=activation))\n") in code
    assert "            dense = self.dense[i]\n            x = dense(x)\n" in code
    assert "*(v for layer in mlp_1.dense for v in layer.trainable_variables)" in code or \
        "*(v for layer in mlp.dense for v in layer.trainable_variables)" in code  # (each layer's, in TF1's order)
    verdict = verify_program(source, code, path=tmp_path / "mlp.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_seeded_helper_called_once_before_another_layer_stays_compat_with_the_reason():
    source = MLP.replace("mlp(tf.concat([x_ph, a_ph], axis=-1), [8, 8, 1], tf.nn.relu, None)",
                         "tf.layers.dense(tf.concat([x_ph, a_ph], axis=-1), 1)")
    result = migrate_source(source, "mlp.py")
    assert result.outcome == "compat"
    assert "`tf.keras.layers.Dense` after its first call makes variables" in result.compat_reason


def test_a_loop_helper_called_in_a_program_function_converts(tmp_path):
    # jachiam's rl-intro shape: `mlp` called twice in `train(hidden=4)`, given values of its literal parameters.
    source = '''import numpy as np
import tensorflow as tf


def mlp(x, hidden_sizes=(8,)):
    for size in hidden_sizes:
        x = tf.layers.dense(x, units=size, activation=tf.tanh)
    return x


def train(hidden=4, n_acts=2):
    x = tf.placeholder(tf.float32, [None, 3])
    q = tf.layers.dense(mlp(x, [hidden]), units=n_acts)
    q2 = tf.layers.dense(mlp(x, [hidden]), units=n_acts)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(q, {x: np.ones([1, 3])}), sess.run(q2, {x: np.ones([1, 3])}))


train()
'''
    result = migrate_source(source, "mlp.py")
    assert result.outcome == "eager", result.compat_reason
    assert "mlp_1 = Mlp([hidden])" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "mlp.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
