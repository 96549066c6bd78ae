"""helper-modules: a helper that makes variables and computes on graph tensors -> a tf.Module class,
one instance per TF1 call; compat, with the reason, where the split would not be faithful."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

HEADER = "import numpy as np\nimport tensorflow as tf\n\n"

ADD_LAYER = HEADER + '''
def add_layer(inputs, in_size, out_size, activation_function=None):
    Weights = tf.Variable(tf.reshape(tf.range(in_size * out_size, dtype=tf.float32), [in_size, out_size]) * 0.1)
    biases = tf.Variable(tf.zeros([1, out_size]) + 0.1)
    Wx_plus_b = tf.matmul(inputs, Weights) + biases
    if activation_function is None:
        outputs = Wx_plus_b
    else:
        outputs = activation_function(Wx_plus_b)
    return outputs


x_data = np.linspace(-1, 1, 8, dtype=np.float32)[:, np.newaxis]
y_data = np.square(x_data) - 0.5
xs = tf.placeholder(tf.float32, [None, 1])
ys = tf.placeholder(tf.float32, [None, 1])
l1 = add_layer(xs, 1, 4, activation_function=tf.nn.relu)
prediction = add_layer(l1, 4, 1, activation_function=None)
loss = tf.reduce_mean(tf.reduce_sum(tf.square(ys - prediction), axis=[1]))
train_step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(5):
    sess.run(train_step, feed_dict={xs: x_data, ys: y_data})
    print(sess.run(loss, feed_dict={xs: x_data, ys: y_data}))
print([v.shape.as_list() for v in tf.trainable_variables()])
'''


def test_each_call_becomes_an_instance_built_where_the_call_stood():
    result = migrate_source(ADD_LAYER, "case.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "class AddLayer(tf.Module):" in new
    assert "    def __init__(self, in_size, out_size, activation_function=None):" in new
    assert "        self.activation_function = activation_function\n" in new
    assert "    def __call__(self, inputs):\n        Wx_plus_b = tf.matmul(inputs, self.Weights) + self.biases" in new
    assert "add_layer_1 = AddLayer(1, 4, activation_function=tf.nn.relu)\n" in new
    assert "add_layer_2 = AddLayer(4, 1, activation_function=None)\n" in new
    assert "l1 = add_layer_1(xs)" in new and "prediction = add_layer_2(l1)" in new
    # TF1's creation order: tf.Module.trainable_variables would sort them by attribute name
    assert "[add_layer_1.Weights, add_layer_1.biases, add_layer_2.Weights, add_layer_2.biases]" in new


@pytest.mark.parametrize("functions", ["compiled", "eager"])
def test_numeric_twin(functions):
    result = migrate_source(ADD_LAYER, "case.py", functions=functions)
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(ADD_LAYER), run_migrated(result.new_source))


def test_idempotent():
    once = migrate_source(ADD_LAYER, "case.py").new_source
    assert migrate_source(once, "case.py").new_source == once


def _program(helper: str, calls: str) -> str:
    return HEADER + helper + "\n\nx = tf.placeholder(tf.float32, [None, 2])\n" + calls + (
        "\nsess = tf.Session()\nsess.run(tf.global_variables_initializer())\n"
        "print(sess.run(y, {x: np.ones((1, 2))}))\n")


_DENSE = '''
def dense(x, n):
    w = tf.Variable(tf.ones([2, n]))
    return tf.matmul(x, w)
'''

# Layers made in a loop: each pass makes `w` and `b` from Python sizes, through a weight function
# defined inside the helper, and computes the layer.
_LAYERS = '''
def mlp(x, sizes):
    def weight(shape):
        return tf.Variable(tf.ones(shape) * 0.1)

    for i, n in enumerate(sizes):
        if i == 0:
            y = x
            width = 2
        else:
            width = sizes[i - 1]
        w = tf.Variable(tf.ones([width, n]))
        b = weight([n])
        y = tf.tanh(tf.matmul(y, w) + b)
    return y
'''
_LAYERS_CALL = "y = mlp(x, [3, 2])"


def test_layers_made_in_a_loop_become_lists_with_the_same_numbers():
    source = _program(_LAYERS, _LAYERS_CALL)
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "self.w.append(tf.Variable(tf.ones([width, n])))" in code and "w = self.w[i]" in code
    assert "self.b.append(weight([n]))" in code and "b = self.b[i]" in code
    assert_same_output(run_legacy(source), run_migrated(code))


_SCOPED = '''
def add_layer(x, n_in, n_out):
    with tf.name_scope('layer'):
        with tf.name_scope('weights'):
            w = tf.Variable(tf.ones([n_in, n_out]) * 0.5, name='W')
        with tf.name_scope('Wx'):
            y = tf.matmul(x, w)
        return y
'''


def test_name_scopes_are_kept_around_what_each_method_makes():
    source = _program(_SCOPED, "y = add_layer(x, 2, 3)")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert ("        with tf.name_scope('layer'):\n            with tf.name_scope('weights'):\n"
            "                self.w = tf.Variable(") in code
    assert "    def __call__(self, x):\n        with tf.name_scope('layer'):\n" in code
    assert_same_output(run_legacy(source), run_migrated(code))


_COMPUTED_SCOPE = '''
def add_layer(x, n_in, n_out, n_layer):
    layer_name = 'layer%s' % n_layer
    with tf.name_scope(layer_name):
        w = tf.Variable(tf.ones([n_in, n_out]) * 0.5, name='W')
        y = tf.matmul(x, w)
    return y
'''


def test_a_computed_scope_name_is_read_through_self_in_both_methods():
    # MorvanZhou tf15: `layer_name` became `self.layer_name`, but the `with` of `__init__` still read
    # `layer_name` (the self-check caught the undefined name; the file stayed compat).
    source = _program(_COMPUTED_SCOPE, "y = add_layer(x, 2, 3, n_layer=1)")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "        self.layer_name = 'layer%s' % n_layer\n        with tf.name_scope(self.layer_name):\n" in code
    assert "    def __call__(self, x):\n        with tf.name_scope(self.layer_name):\n" in code
    assert_same_output(run_legacy(source), run_migrated(code))


_SHAPED = '''
def dense(x, n, scale=0.1):
    in_dim = int(x.get_shape()[1])
    w = tf.Variable(tf.reshape(tf.range(in_dim * n, dtype=tf.float32), [in_dim, n]) * scale)
    b = tf.Variable(tf.zeros([n]) + scale)
    return tf.nn.tanh(tf.matmul(x, w) + b)
'''


@pytest.mark.parametrize("functions", ["compiled", "eager"])
def test_variables_shaped_by_the_input_are_made_at_the_first_call(functions):
    """TF1 read the input's static shape where the helper ran; the module reads it at its first call, in the
    first trace, and keeps TF1's creation order because nothing after the calls makes or lists variables."""
    source = _program(_SHAPED, "h = dense(x, 3)\ny = dense(h, 2, scale=0.2)\n"
                               "train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(y ** 2))") \
        + "for _ in range(3):\n    sess.run(train, {x: np.ones((4, 2))})\nprint(sess.run(y, {x: np.ones((1, 2))}))\n"
    result = migrate_source(source, "case.py", functions=functions)
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert ("    def build(self, x):\n" in code and "        self.built = False\n" in code
            and "    def __call__(self, x):\n        if not self.built:\n            self.build(x)\n" in code)
    assert "dense_1 = Dense(3)\ndense_2 = Dense(2, scale=0.2)\n" in code
    assert "[dense_1.w, dense_1.b, dense_2.w, dense_2.b]" in code  # TF1's creation order
    assert_same_output(run_legacy(source), run_migrated(code))


_SHAPED_SCALE = '''
def scale_layer(x):
    width = x.get_shape().as_list()[-1]
    s = tf.Variable(tf.linspace(0.5, 1.5, width))
    return x * s
'''


def test_helpers_that_all_wait_for_their_first_calls_keep_the_creation_order():
    # easy-tensorflow's CNN: conv_layer and fc_layer both read their input's shape; each waited for the other
    # ("`fc_layer` after its first call makes variables"), and the notebook stayed compat. Made at their first
    # calls, in the order Python calls them, they are made in TF1's order.
    source = _program(_SHAPED + _SHAPED_SCALE, "h = dense(x, 3)\nh = scale_layer(h)\ny = dense(h, 2, scale=0.2)\n"
                      "train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(y ** 2))") \
        + "for _ in range(3):\n    sess.run(train, {x: np.ones((4, 2))})\nprint(sess.run(y, {x: np.ones((1, 2))}))\n"
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert code.count("    def build(self, x):\n") == 2
    assert "[dense_1.w, dense_1.b, scale_layer.s, dense_2.w, dense_2.b]" in code  # TF1's creation order
    assert_same_output(run_legacy(source), run_migrated(code))


def test_a_helper_made_at_the_call_after_one_that_waits_is_refused_where_the_program_is_seeded():
    unseeded = _program(_SHAPED + _DENSE.replace("def dense(", "def fixed("), "h = dense(x, 2)\ny = fixed(h, 2)")
    result = migrate_source("tf.set_random_seed(1)\n".join(unseeded.split("\n\nx = ", 1)[0:1]) + "\n\n"
                            "tf.set_random_seed(1)\nx = " + unseeded.split("\n\nx = ", 1)[1], "case.py", mode="eager")
    assert "`fixed` after its first call makes variables" in " ".join(f.message for f in result.findings)
    # Unseeded, TF1 drew other initial values at each run: the order variables are made in shows nowhere.
    result = migrate_source(unseeded, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(unseeded), run_migrated(result.new_source))


@pytest.mark.parametrize("source, reason", [
    pytest.param(_program('''
def dense(x, n):
    in_dim = x.get_shape()[1]
    w = tf.Variable(tf.ones([in_dim, n]) * tf.reduce_mean(x))
    return tf.matmul(x, w)
''', "y = dense(x, 3)"), "depend on the value of the tensor argument `x`", id="initial value read from the input"),
    pytest.param(_program(_SHAPED, "tf.set_random_seed(1)\nh = dense(x, 3)\nextra = tf.Variable(tf.ones([3]))\n"
                                   "y = dense(h, 2)"),
                 "`tf.Variable` after its first call makes variables", id="shaped by the input, a variable after"),
    pytest.param(_program(_SHAPED, "h = dense(x, 3)\ny = dense(h, 2)\nprint(len(tf.trainable_variables()))"),
                 "`tf.trainable_variables` reads the variables before any run", id="shaped by the input, listed"),
    pytest.param(_program(_DENSE, "y = x\nn = 2\nwhile n < 4:\n    y = dense(y, 2)\n    n += 1"),
                 "called in a loop", id="called in a while loop"),
    pytest.param(_program(_DENSE, "y = x\nfor n in (2, 2):\n    if n:\n        y = dense(y, n)"),
                 "called in a loop", id="called in a block of a loop"),
    pytest.param(_program(_SHAPED, "y = x\nfor n in (2, 3):\n    y = dense(y, n)"),
                 "called in a loop, and its variables wait for its first call", id="called in a loop, shaped by input"),
    pytest.param(_program(_DENSE, "make = dense\ny = dense(x, 2)"), "used other than by calling it",
                 id="used as a value"),
    pytest.param(_program('''
def scaled(x, s):
    w = tf.Variable(tf.ones([2, 2]))
    return tf.matmul(x, w) * s
''', "y = scaled(x, 2.0)\ny = scaled(2.0, x)"), "tensors for different parameters", id="tensor parameters differ"),
    pytest.param(_program('''
def dense(x, n, bias=True):
    w = tf.Variable(tf.ones([2, n]))
    y = tf.matmul(x, w)
    if bias:
        b = tf.Variable(tf.zeros([n]))
        y = y + b
    return y
''', "y = dense(x, 2)"), "makes variables inside a block", id="variables made in a block"),
    pytest.param(_program('''
def dense(x, n):
    w = tf.Variable(tf.ones([2, n]))
    h = tf.matmul(x, w)
    v = tf.Variable(tf.ones([n, h.shape[1]]))
    return tf.matmul(h, v)
''', "y = dense(x, 2)"), "the tensor argument `x` through `h`", id="variable shaped by the forward"),
    pytest.param(_program('''
def dense(x, n):
    n = int(n)
    w = tf.Variable(tf.ones([2, n]))
    return tf.matmul(x, w)
''', "y = dense(x, 3.0)"), "`n` is bound more than once", id="parameter rebound"),
    pytest.param(_program(_LAYERS.replace("        w = tf.Variable", "        if n > 1:\n            break\n"
                                                                     "        w = tf.Variable"), _LAYERS_CALL),
                 "without break or continue", id="layer loop that breaks"),
    pytest.param(_program(_LAYERS.replace("for i, n in enumerate(sizes):", "while sizes:\n        n = sizes.pop()"),
                          _LAYERS_CALL), "it makes variables inside a `while` block", id="layer while loop"),
    pytest.param(_program(_LAYERS.replace("    return y\n", "    return y + tf.reduce_sum(w)\n"), _LAYERS_CALL),
                 "`w` is read after the loop that makes it", id="layer variable read after its loop"),
    pytest.param(_program(_LAYERS.replace("        w = tf.Variable(tf.ones([width, n]))\n",
                                          "        if n > 1:\n            w = tf.Variable(tf.ones([width, n]))\n"),
                          _LAYERS_CALL), "makes variables inside a block: `w` in an `if`", id="layer variable in an if"),
    pytest.param(_program(_LAYERS.replace("            width = sizes[i - 1]\n",
                                          "            width = y.shape[1]\n"), _LAYERS_CALL),
                 "tensor argument `x` through `y`", id="layer shape read from the forward"),
    pytest.param(_program(_LAYERS.replace("    def weight(shape):\n", "    def weight(shape):\n        print(x)\n"),
                          _LAYERS_CALL), "tensor argument `x` through `weight`", id="inner function reads a tensor"),
])
def test_stays_compat_with_the_reason(source, reason):
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "has no tf.Module form here" in result.compat_reason and reason in result.compat_reason, \
        result.compat_reason


# MorvanZhou's add_layer stacked by a loop over the layer sizes (each iteration made new variables in TF1).
ADD_LAYER_LOOP = ADD_LAYER.replace("l1 = add_layer(xs, 1, 4, activation_function=tf.nn.relu)\n",
                                   "l1 = xs\nfor n_in, n_out in [(1, 4), (4, 4)]:\n"
                                   "    l1 = add_layer(l1, n_in, n_out, activation_function=tf.nn.relu)\n")


def test_a_helper_called_in_a_loop_makes_its_instances_in_a_first_loop():
    result = migrate_source(ADD_LAYER_LOOP, "case.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert ("add_layer_1s = []\nfor n_in, n_out in [(1, 4), (4, 4)]:\n"
            "    add_layer_1 = AddLayer(n_in, n_out, activation_function=tf.nn.relu)\n"
            "    add_layer_1s.append(add_layer_1)\n") in new
    assert "    for add_layer_1_i in add_layer_1s:\n        l1 = add_layer_1_i(l1)\n" in new
    # every instance's variables, in TF1's creation order
    assert "[*(v for obj in add_layer_1s for v in (obj.Weights, obj.biases)), add_layer_2.Weights" in new
    assert_same_output(run_legacy(ADD_LAYER_LOOP), run_migrated(new))


def test_a_helper_called_in_a_loop_of_main_makes_its_instances_there_too():
    head, _, program = ADD_LAYER_LOOP.partition("x_data = ")
    body = "".join(f"    {line}" if line.strip() else line for line in ("x_data = " + program).splitlines(True))
    source = head + "def main():\n" + body + "\n\nmain()\n"
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "    add_layer_1s = []\n    for n_in, n_out in [(1, 4), (4, 4)]:\n" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_loop_whose_instances_cannot_be_made_first_stays_compat():
    # A random op among the lines that compute: TF1 numbered them in the order it built them, interleaved with the
    # variables' initial values; the loop is not split, and building an instance at each run would not be TF1.
    source = ADD_LAYER_LOOP.replace("activation_function=tf.nn.relu)\n",
                                    "activation_function=tf.nn.relu)\n    l1 = tf.nn.dropout(l1, 0.5)\n", 1)
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "`AddLayer` instances are made in a loop that also computes, and the loop does not split" in \
        result.compat_reason


# A helper that builds tf.keras layers and calls them, called for two networks (a DQN's eval and target). Before:
# it was not known to make variables; the eager output built new layers in the run function and trained no
# variable (an empty variable list: the output crashed).
KERAS_HELPER = HEADER + '''
def net(x):
    l1 = tf.keras.layers.Dense(4, activation=tf.nn.relu, kernel_initializer="ones")
    h = l1(x)
    out = tf.keras.layers.Dense(1, kernel_initializer="ones")
    return out(h)


x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
q = net(x)
q_target = net(x)
loss = tf.reduce_mean(tf.square(q - y - 0.1 * q_target))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
xs = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(4, 2)
ys = np.array([[0.5], [0.1], [-0.2], [0.3]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(i, sess.run([loss, train], {x: xs, y: ys})[0])
'''


def test_a_helper_building_keras_layers_becomes_a_module_holding_them():
    result = migrate_source(KERAS_HELPER, "case.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "        self.l1 = tf.keras.layers.Dense(4, activation=tf.nn.relu, kernel_initializer=\"ones\")\n" in new
    assert "        h = self.l1(x)\n" in new and "net_1 = Net()\nnet_2 = Net()\n" in new
    # the layers' variables exist after their first call: listed where the list is read
    assert "[*net_1.l1.trainable_variables, *net_1.out.trainable_variables, *net_2.l1.trainable_variables" in new
    assert_same_output(run_legacy(KERAS_HELPER), run_migrated(new))


def test_a_module_of_keras_layers_listed_before_any_run_stays_compat():
    # Its layers make their variables at its first call, in a run; TF1 listed them after the build (a `[]` before).
    source = KERAS_HELPER.replace("with tf.Session() as sess:\n",
                                  "print(len(tf.trainable_variables()))\nwith tf.Session() as sess:\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert ("its Keras layers make their variables at its first call, and `tf.trainable_variables` reads the "
            "variables before any run") in result.compat_reason


def test_helper_from_another_module_stays_compat():
    source = HEADER.replace("import numpy as np\n", "import numpy as np\nfrom layers import dense\n") + (
        "x = tf.placeholder(tf.float32, [None, 2])\ny = dense(x, 2)\n"
        "sess = tf.Session()\nprint(sess.run(y, {x: np.ones((1, 2))}))\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "`dense` is imported from `layers" in result.compat_reason


def test_helper_of_python_values_only_is_left_alone():
    source = HEADER + '''
def weight_variable(shape):
    return tf.Variable(tf.ones(shape))


x = tf.placeholder(tf.float32, [None, 2])
w = weight_variable([2, 1])
y = tf.matmul(x, w)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(sess.run(y, {x: np.ones((1, 2))}))
'''
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager"
    assert "tf.Module" not in result.new_source and "def weight_variable(shape):" in result.new_source


def test_helper_in_a_program_that_runs_no_graph_is_left_alone():
    source = HEADER + _DENSE + "\n\ndef build(x):\n    return dense(x, 2)\n\n\nlogits = build(tf.ones([1, 2]))\n"
    result = migrate_source(source, "case.py")
    assert "tf.Module" not in result.new_source
    assert result.new_source == migrate_source(source, "case.py", ignore=["helper-modules"]).new_source


# jachiam's rl-intro: the helper called in `train(hidden_dim=32, n_layers=1)`, given `[hidden_dim] * n_layers`, a
# value of the function's parameters, which every call of `train` leaves at their literal defaults: Python values.
IN_A_PROGRAM_FUNCTION = HEADER + _DENSE + '''

def train(width=2, depth=1):
    x = tf.placeholder(tf.float32, [None, 2])
    y = dense(x, width * depth)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(y, {x: np.ones((1, 2))}))


if __name__ == "__main__":
    train()
'''


def test_a_call_given_values_of_literal_parameters_is_given_python_values():
    result = migrate_source(IN_A_PROGRAM_FUNCTION, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "dense = Dense(width * depth)" in result.new_source
    assert_same_output(run_legacy(IN_A_PROGRAM_FUNCTION), run_migrated(result.new_source))
    # a call passing `train` a computed value: the parameter may hold a tensor
    computed = IN_A_PROGRAM_FUNCTION.replace("    train()", "    train(width=np.int64(2))")
    assert migrate_source(computed, "case.py").outcome == "compat"
