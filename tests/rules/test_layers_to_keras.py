"""layers-to-keras: tf.layers calls become Keras layers built once; layers that share variables stay TF1."""
from tf_migrate.engine import migrate_source
# A second layer of one name under a reusing scope is the first layer's variables, called again (TF1 prints
# True); two Keras layers would be two sets of variables.
SHARED = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope('A'):
    h = tf.layers.dense(x, 4, name='l1')
with tf.variable_scope('A', reuse=True):
    h2 = tf.layers.dense(x, 4, name='l1')
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    a, b = sess.run([h, h2], {x: np.ones((1, 3))})
    print(np.array_equal(a, b))
'''


def test_layers_under_a_reusing_scope_are_not_made_anew():
    for source in (SHARED, SHARED.replace("reuse=True", "reuse=tf.AUTO_REUSE")):
        result = migrate_source(source, "shared.py")
        assert result.outcome == "compat", source
        assert "keras.layers.Dense" not in result.new_source
        assert any("shares the variables of an earlier layer" in f.message for f in result.findings)


def test_a_layer_given_reuse_true_calls_the_layer_of_its_scoped_name(tmp_path):
    """The scope entered again without reuse, the layer with it: `A/l1`'s variables, the same Keras layer."""
    from tf_migrate.verify import verify_program
    source = SHARED.replace("with tf.variable_scope('A', reuse=True):\n    h2 = tf.layers.dense(x, 4, name='l1')",
                            "with tf.variable_scope('A'):\n    h2 = tf.layers.dense(x, 4, name='l1', reuse=True)")
    result = migrate_source(source, "shared.py")
    assert result.outcome == "eager", result.compat_reason
    assert "h2 = l1(x)" in result.new_source and result.new_source.count("keras.layers.Dense(") == 1
    verdict = verify_program(source, result.new_source, path=tmp_path / "shared.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_function_that_builds_its_layers_once_through_its_reuse_parameter_converts():
    source = '''
import numpy as np
import tensorflow as tf


def net(x, reuse=False):
    with tf.variable_scope('net', reuse=reuse):
        return tf.layers.dense(x, 2, name='out', kernel_initializer=tf.ones_initializer())


x = tf.placeholder(tf.float32, [None, 3])
a = net(x)
b = net(x * 2.0, reuse=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([a, b], {x: np.ones((1, 3))}))
'''
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.findings
    assert result.new_source.count("tf.keras.layers.Dense(") == 1


# The GAN shape: a generator configured by its parameters, built by one call and called again with reuse=True;
# what configures it (`n_hidden`, `n_out`) is bound after the function, so its layers are built where it is first
# called, configured by the values every call passes.
GAN_SHAPED = '''
import numpy as np
import tensorflow as tf

tf.set_random_seed(0)
np.random.seed(0)


def generator(z, n_out, n_units=5, reuse=False, alpha=0.01):
    with tf.variable_scope('generator', reuse=reuse):
        h = tf.layers.dense(z, n_units, activation=None)
        h = tf.maximum(alpha * h, h)
        return tf.tanh(tf.layers.dense(h, n_out))


def discriminator(x, reuse=False):
    with tf.variable_scope('discriminator', reuse=reuse):
        return tf.layers.dense(tf.nn.relu(tf.layers.dense(x, 6)), 1)


n_in = 3
n_hidden = 4
alpha = 0.2
z = tf.placeholder(tf.float32, [None, 2])
real = tf.placeholder(tf.float32, [None, n_in])
fake = generator(z, n_in, n_units=n_hidden, alpha=alpha)
d_real = discriminator(real)
d_fake = discriminator(fake, reuse=True)
d_loss = tf.reduce_mean(d_fake) - tf.reduce_mean(d_real)
t_vars = tf.trainable_variables()
d_train = tf.train.GradientDescentOptimizer(0.1).minimize(d_loss, var_list=t_vars[4:])
g_train = tf.train.GradientDescentOptimizer(0.1).minimize(-tf.reduce_mean(d_fake), var_list=t_vars[:4])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        feed = {z: np.random.rand(4, 2), real: np.random.rand(4, n_in)}
        sess.run(d_train, feed)
        sess.run(g_train, feed)
        print(step, sess.run(d_loss, feed))
    print(sess.run(generator(z, n_in, n_units=n_hidden, reuse=True, alpha=alpha), {z: np.ones((1, 2))}))
'''


def test_layers_configured_by_parameters_every_call_gives_alike_are_built_where_the_function_is_first_called():
    result = migrate_source(GAN_SHAPED, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    out = result.new_source
    assert "tf.layers" not in out
    assert "Dense(units=n_hidden, activation=None)" in out and "Dense(units=n_in)" in out
    # built after `n_hidden = 4` (their configuration), and before the first call's graph is read
    assert out.index("n_hidden = 4") < out.index("Dense(units=n_hidden") < out.index("t_vars =")
    assert "dense.build((None, 2))" in out and "build((None, n_hidden))" in out


def test_the_gan_shaped_program_prints_what_tf1_printed(tmp_path):
    from tf_migrate.verify import verify_program
    result = migrate_source(GAN_SHAPED, "gan.py")
    verdict = verify_program(GAN_SHAPED, result.new_source, path=tmp_path / "gan.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_parameter_the_calls_give_different_values_keeps_its_layer_tf1():
    # (the same value here, by another text: only the text is compared)
    source = GAN_SHAPED.replace("n_units=n_hidden, reuse=True", "n_units=4, reuse=True")
    result = migrate_source(source, "gan.py")
    assert result.outcome == "compat"
    assert any("configured from values local to its function" in f.message for f in result.findings)


def test_layers_are_made_where_tf1_made_them_so_the_variable_list_keeps_tf1s_order(tmp_path):
    """The discriminator called first: TF1 listed its variables first, and `t_vars[:4]` are its."""
    from tf_migrate.verify import verify_program
    source = GAN_SHAPED.replace(
        "fake = generator(z, n_in, n_units=n_hidden, alpha=alpha)\nd_real = discriminator(real)\n",
        "d_real = discriminator(real)\nfake = generator(z, n_in, n_units=n_hidden, alpha=alpha)\n",
    ).replace("var_list=t_vars[4:]", "var_list=t_vars[:4]").replace("var_list=t_vars[:4])\nwith", "var_list=t_vars[4:])\nwith")
    assert source.count("t_vars[:4]") == 1 and source.index("d_real = discriminator") < source.index("fake = generator")
    result = migrate_source(source, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    out = result.new_source
    assert out.index("Dense(units=6)") < out.index("Dense(units=n_hidden")
    verdict = verify_program(source, out, path=tmp_path / "gan.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_function_called_in_a_loop_without_reuse_keeps_its_layers_tf1():
    """Each pass of the loop made new variables in TF1 (two towers); one Keras layer would be shared by both."""
    source = '''
import numpy as np
import tensorflow as tf


def tower(x):
    return tf.layers.dense(x, 2, kernel_initializer=tf.ones_initializer())


x = tf.placeholder(tf.float32, [None, 3])
outs = []
for i in range(2):
    outs.append(tower(x * (i + 1)))
loss = tf.reduce_sum(outs[0]) + 2.0 * tf.reduce_sum(outs[1])
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, {x: np.ones((1, 3))})
    print(sess.run(outs, {x: np.ones((1, 3))}))
'''
    for variant in (source, source.replace("outs = []\nfor i in range(2):\n    outs.append(tower(x * (i + 1)))",
                                           "outs = [tower(x * (i + 1)) for i in range(2)]")):
        result = migrate_source(variant, "towers.py")
        assert result.outcome == "compat"
        # (its layers are built at each call, and the instances helper-modules makes of it cannot be made once)
        assert any("`tower` creates variables each time it is called on graph tensors, and has no tf.Module form "
                   "here: it is called in a loop" in f.message for f in result.findings), \
            [f.message for f in result.findings]


def test_a_function_run_twice_through_its_caller_keeps_its_layers_tf1():
    """`tower` stands in one call, but `build` runs it twice: TF1 made two layers."""
    source = '''
import numpy as np
import tensorflow as tf


def tower(x):
    return tf.layers.dense(x, 2, kernel_initializer=tf.ones_initializer())


def build(x):
    return tower(x)


x = tf.placeholder(tf.float32, [None, 3])
a = build(x)
b = build(x * 2.0)
train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(a) + 2.0 * tf.reduce_sum(b))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, {x: np.ones((1, 3))})
    print(sess.run([a, b], {x: np.ones((1, 3))}))
'''
    result = migrate_source(source, "towers.py")
    assert result.outcome == "compat"
    assert any("`build` creates variables each time it is called on graph tensors, and has no tf.Module form" in
               f.message for f in result.findings)


def test_a_call_that_runs_many_times_with_reuse_true_shares_the_layers_the_first_call_made(tmp_path):
    from tf_migrate.verify import verify_program
    source = '''
import numpy as np
import tensorflow as tf


def tower(x, reuse=False):
    with tf.variable_scope('tower', reuse=reuse):
        return tf.layers.dense(x, 2, kernel_initializer=tf.ones_initializer())


x = tf.placeholder(tf.float32, [None, 3])
first = tower(x)
outs = [tower(x * (i + 1), reuse=True) for i in range(2)]
train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(first) + tf.reduce_sum(outs[1]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, {x: np.ones((1, 3))})
    print(sess.run(outs, {x: np.ones((1, 3))}))
'''
    result = migrate_source(source, "towers.py")
    assert result.outcome == "eager", result.compat_reason
    assert result.new_source.count("tf.keras.layers.Dense(") == 1
    verdict = verify_program(source, result.new_source, path=tmp_path / "towers.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
    # a reuse flag that may be False on some pass (`reuse=i > 0` is not read): each pass may make new variables
    flagged = source.replace("first = tower(x)\n", "first = x\n").replace("reuse=True) for", "reuse=i > 0) for")
    assert migrate_source(flagged, "towers.py").outcome == "compat"


# MorvanZhou's GAN tutorial: the discriminator's layers called again by name with `reuse=True`.
REUSED_BY_NAME = '''
import numpy as np
import tensorflow as tf
tf.set_random_seed(1)
with tf.variable_scope('G'):
    z = tf.placeholder(tf.float32, [None, 2])
    fake = tf.layers.dense(z, 3)
with tf.variable_scope('D'):
    real = tf.placeholder(tf.float32, [None, 3], name='real_in')
    h_real = tf.layers.dense(real, 4, tf.nn.relu, name='l')
    p_real = tf.layers.dense(h_real, 1, tf.nn.sigmoid, name='out')
    h_fake = tf.layers.dense(fake, 4, tf.nn.relu, name='l', reuse=True)
    p_fake = tf.layers.dense(h_fake, 1, tf.nn.sigmoid, name='out', reuse=True)
d_loss = -tf.reduce_mean(tf.log(p_real) + tf.log(1 - p_fake))
g_loss = tf.reduce_mean(tf.log(1 - p_fake))
train_d = tf.train.AdamOptimizer(0.01).minimize(d_loss, var_list=tf.get_collection(
    tf.GraphKeys.TRAINABLE_VARIABLES, scope='D'))
train_g = tf.train.AdamOptimizer(0.01).minimize(g_loss, var_list=tf.get_collection(
    tf.GraphKeys.TRAINABLE_VARIABLES, scope='G'))
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(len(tf.trainable_variables()))
for step in range(3):
    print(sess.run([d_loss, g_loss, train_d, train_g], {z: np.ones((2, 2)) * step, real: np.ones((2, 3))})[:2])
'''


def test_a_layer_reused_by_its_name_calls_the_same_keras_layer(tmp_path):
    from tf_migrate.verify import verify_program
    result = migrate_source(REUSED_BY_NAME, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    assert "h_fake = l(fake)" in result.new_source and result.new_source.count("keras.layers.Dense(") == 3
    verdict = verify_program(REUSED_BY_NAME, result.new_source, path=tmp_path / "gan.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_layer_reused_by_its_name_but_configured_otherwise_is_not_converted():
    result = migrate_source(REUSED_BY_NAME.replace("h_fake = tf.layers.dense(fake, 4, tf.nn.relu",
                                                   "h_fake = tf.layers.dense(fake, 4, tf.nn.tanh"), "gan.py")
    assert result.outcome == "compat"
    assert any("not a module-level layer configured alike" in f.message for f in result.findings)


# rasbt's convolutional autoencoders: a Saver of every variable after convolution layers whose input channels
# the program states (a literal reshape, then each layer's filters, pooling keeping them).
CONV_LAYERS_THEN_SAVER = '''
import numpy as np
import tensorflow as tf

tf.set_random_seed(1)
x = tf.placeholder(tf.float32, [None, 64])
image = tf.reshape(x, shape=[-1, 8, 8, 1])
conv = tf.layers.conv2d(image, filters=4, kernel_size=(3, 3), padding='same', activation=tf.nn.relu)
pool = tf.layers.max_pooling2d(conv, pool_size=(2, 2), strides=(2, 2), padding='same')
up = tf.layers.conv2d_transpose(pool, filters=2, kernel_size=(3, 3), strides=(2, 2), padding='same')
out = tf.layers.conv2d(up, filters=1, kernel_size=(3, 3), padding='same')
cost = tf.reduce_mean(tf.square(out - image))
train = tf.train.GradientDescentOptimizer(0.1).minimize(cost)
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        print(sess.run([train, cost], {x: np.ones((2, 64))})[1])
'''


def test_convolution_layers_whose_input_channels_are_stated_are_built_where_made(tmp_path):
    # Before: the Saver's var_list named layers Keras had not built yet (an undefined marker the self-check caught:
    # compat). The channels come from the reshape's last size, then from each layer's filters.
    result = migrate_source(CONV_LAYERS_THEN_SAVER, "case.py")
    assert result.outcome == "eager", result.compat_reason
    for built in ("conv2d.build((None, None, None, 1))", "conv2d_transpose.build((None, None, None, 4))",
                  "conv2d_1.build((None, None, None, 2))"):
        assert built in result.new_source, result.new_source
    from tf_migrate.verify import verify_program
    verdict = verify_program(CONV_LAYERS_THEN_SAVER, result.new_source, path=tmp_path / "conv.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


# A DQN's network helper, called for its eval and target networks under their own scopes, without reuse: each call
# made new layers in TF1. Before: left alone (compat).
TWO_NETWORKS = '''
import numpy as np
import tensorflow as tf


def net(x, scope, trainable):
    with tf.variable_scope(scope):
        h = tf.layers.dense(x, 4, activation=tf.nn.relu, name="l1", trainable=trainable,
                            kernel_initializer=tf.ones_initializer())
        return tf.layers.dense(h, 1, name="out", trainable=trainable, kernel_initializer=tf.ones_initializer())


x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
q = net(x, "eval", True)
q_target = net(x, "target", False)
loss = tf.reduce_mean(tf.square(q - y - 0.1 * q_target))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
xs = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(4, 2)
ys = np.array([[0.5], [0.1], [-0.2], [0.3]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(i, sess.run([loss, train], {x: xs, y: ys})[0])
    print(sess.run(q_target, {x: xs[:2]}))
'''


def test_a_helper_called_for_two_networks_builds_its_layers_at_each_call(tmp_path):
    from tf_migrate.verify import verify_program
    result = migrate_source(TWO_NETWORKS, "dqn.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "class Net(tf.Module):" in new
    assert ('        self.l1 = tf.keras.layers.Dense(units=4, activation=tf.nn.relu, name="l1", trainable=trainable,'
            in new)
    assert 'net_1 = Net("eval", True)\nnet_2 = Net("target", False)\n' in new
    verdict = verify_program(TWO_NETWORKS, new, path=tmp_path / "dqn.py", timeout=240)  # (tf.layers)
    assert verdict.status == "equivalent", verdict.detail


def test_a_helper_whose_layers_are_copied_by_scope_stays_compat():
    # The target network's update reads the variables by their scope, before any run: the module's are not made
    # yet (its layers make them at its first call), and have no scoped names.
    source = TWO_NETWORKS.replace("loss = ", "copy = [tf.assign(t, e) for t, e in zip(\n"
                                  "    tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='target'),\n"
                                  "    tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='eval'))]\nloss = ")
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "compat"
    assert "`tf.get_collection` reads the variables before any run" in result.compat_reason
