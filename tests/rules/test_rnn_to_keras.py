"""rnn-to-keras: TF1 rnn cells + dynamic_rnn / static_rnn / bidirectional_dynamic_rnn -> Keras RNN layers.

Rewrites run through the engine (the layers must leave a file the session rule takes eager);
the numbers are checked by the golden twins (tests/golden/rnn_*.py) and the checkpoint test
(test_rnn_checkpoints.py). What the layers cannot reproduce keeps the file compat, with the reason.
"""
import numpy as np
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

HEAD = '''\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 5, 3])
'''
RUN = '''
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(outputs, {x: np.ones((1, 5, 3))}))
'''


def _migrate(body: str):
    return migrate_source(HEAD + body + RUN, "case.py")


def _reasons(result):
    return " | ".join(f.message for f in result.findings if f.rule == "rnn-to-keras")


@pytest.mark.parametrize("body, expected", [
    pytest.param("cell = tf.nn.rnn_cell.LSTMCell(4)\noutputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n",
                 ['lstm = tf.keras.layers.LSTM(units=4, unit_forget_bias=False, return_sequences=True, '
                  'return_state=True, zero_output_for_mask=True, **tf1_cell_initializers("lstm", 4, forget_bias=1.0))',
                  "lstm.build((None, None, 3))", "def tf1_cell_initializers(", "def keras_rnn_weights(",
                  "outputs, state = lstm_outputs, (lstm_c, lstm_h)"], id="LSTMCell: TF1's draw mapped, (c, h) state"),
    pytest.param("def build(inputs, size):\n"
                 "    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(size), inputs, dtype=tf.float32)\n"
                 "outputs, state = build(x, 4)\n", ["gru = tf.keras.layers.GRU(units=4, reset_after=False,"],
                 id="units from a parameter given a literal: the layer is built before the function with it"),
    pytest.param("cell = tf.contrib.rnn.GRUCell(4)\noutputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n",
                 ["tf.keras.layers.GRU(units=4, reset_after=False,", 'tf1_cell_initializers("gru", 4)',
                  'tf.ones(shape) if kind == "gru" and index == 1'],
                 id="contrib GRUCell: reset before the matmul, gates bias 1.0"),
    pytest.param("cell = tf.nn.rnn_cell.BasicRNNCell(4, activation=tf.nn.relu)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n",
                 ["tf.keras.layers.SimpleRNN(units=4, activation=tf.nn.relu,"], id="BasicRNNCell keeps its activation"),
    pytest.param("cell = tf.nn.rnn_cell.BasicLSTMCell(4, forget_bias=0.0)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n",
                 ['**tf1_cell_initializers("lstm", 4))'], id="forget_bias goes into the mapped bias"),
    pytest.param("cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(4), tf.nn.rnn_cell.GRUCell(2)])\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n",
                 ["gru.build((None, None, 4))", "outputs, state = gru_outputs, ((lstm_c, lstm_h), gru_state, )"],
                 id="MultiRNNCell stacks layers, each fed the last one's width"),
    pytest.param("cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(4), input_keep_prob=0.9, "
                 "output_keep_prob=0.5)\noutputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n",
                 ["rnn_dropped = tf.nn.dropout(x, rate=1 - (0.9))",
                  "gru_outputs = tf.nn.dropout(gru_outputs, rate=1 - (0.5))"],
                 id="DropoutWrapper: dropout on the sequence in and out"),
    pytest.param("lengths = tf.constant([3])\ncell = tf.nn.rnn_cell.GRUCell(4)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)\n",
                 ["rnn_mask = tf.sequence_mask(lengths, tf.shape(x)[1])", "gru(x, mask=rnn_mask)"],
                 id="sequence_length becomes a mask"),
    pytest.param("cell = tf.nn.rnn_cell.LSTMCell(4)\ninit = cell.zero_state(1, tf.float32)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, initial_state=init)\n",
                 ["init = (tf.zeros([1, 4]), tf.zeros([1, 4]))",
                  "lstm(tf.ensure_shape(x, [1, None, None]), initial_state=[init[1], init[0]])"],
                 id="zero_state is zeros of the state; LSTM's (c, h) goes to Keras as [h, c]; x held to its batch"),
    pytest.param("def build(inputs):\n"
                 "    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), inputs, dtype=tf.float32)\n"
                 "outputs, state = build(x)\n", ["gru.build((None, None, 3))", "    return gru_outputs, gru_state"],
                 id="returned from a function called once"),
])
def test_rewrite(body, expected):
    result = _migrate(body)
    assert result.outcome == "eager", result.findings
    for line in expected:
        assert line in result.new_source
    assert "rnn_cell" not in result.new_source and "contrib" not in result.new_source


@pytest.mark.parametrize("body, why", [
    pytest.param("cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n", "peephole", id="peepholes"),
    pytest.param("cell = tf.nn.rnn_cell.LSTMCell(4, num_proj=2)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n", "projection", id="projection"),
    pytest.param("cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(4), state_keep_prob=0.5)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n", "state_keep_prob",
                 id="state dropout"),
    pytest.param("z = tf.reshape(x, [-1, 5, tf.shape(x)[2]])\ncell = tf.nn.rnn_cell.GRUCell(4)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, z, dtype=tf.float32)\n", "input width", id="unknown width"),
    pytest.param("cell = tf.nn.rnn_cell.GRUCell(4)\noutputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n"
                 "size = cell.state_size\n", "used other than", id="cell used otherwise"),
    pytest.param("cell = tf.nn.rnn_cell.LSTMCell(4, state_is_tuple=False)\n"
                 "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n", "state_is_tuple",
                 id="concatenated state"),
    pytest.param("for i in range(2):\n    cell = tf.nn.rnn_cell.GRUCell(4)\n"
                 "outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), x, dtype=tf.float32)\n", "loop",
                 id="cell in a loop"),
    pytest.param("def build(inputs):\n"
                 "    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), inputs, dtype=tf.float32)\n"
                 "outputs, state = build(x)\nmore, _ = build(x)\n", "called 2 times", id="function called twice"),
    pytest.param("def build(inputs, size):\n"
                 "    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(size), inputs, dtype=tf.float32)\n"
                 "n = 4\nif n:\n    outputs, state = build(x, n)\n", "local to `build`",
                 id="units from a name bound after the function, called in a branch"),
    pytest.param("def build(inputs):\n"
                 "    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(n), inputs, dtype=tf.float32)\n"
                 "outputs, state = build(x)\nn = 4\n", "bound after the call of `build`",
                 id="units from a name bound after the call"),
    pytest.param("def build(inputs, size):\n    size = size * 2\n"
                 "    return tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(size), inputs, dtype=tf.float32)\n"
                 "outputs, state = build(x, 4)\n", "local to `build`", id="units from a parameter bound again"),
])
def test_what_keras_cannot_match_stays_compat(body, why):
    result = _migrate(body)
    assert result.outcome == "compat"
    assert why in _reasons(result)


def test_state_fields_become_indices_on_states_and_fetched_values():
    result = migrate_source(HEAD + "cell = tf.nn.rnn_cell.LSTMCell(4)\n"
                            "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n"
                            "top = tf.reduce_sum(state.h)\n"
                            "with tf.Session() as s:\n"
                            "    s.run(tf.global_variables_initializer())\n"
                            "    fetched, total = s.run([state, top], {x: np.ones((1, 5, 3))})\n"
                            "    print(fetched.c.shape, total)\n", "case.py")
    assert result.outcome == "eager", result.findings
    assert "tf.reduce_sum(state[1])" in result.new_source and "fetched[0].shape" in result.new_source


def test_function_called_once_builds_its_layers_before_it():
    result = migrate_source(HEAD + '''
def lstm_cell():
    return tf.nn.rnn_cell.BasicLSTMCell(4)


def model(inputs):
    stacked = tf.nn.rnn_cell.MultiRNNCell([lstm_cell() for _ in range(2)])
    outputs, _ = tf.nn.dynamic_rnn(stacked, inputs, dtype=tf.float32)
    return outputs[:, -1]


outputs = model(x)
''' + RUN, "case.py")
    assert result.outcome == "eager", result.findings
    source = result.new_source
    assert source.index("lstm_2.build((None, None, 4))") < source.index("def model(inputs):")
    assert "def lstm_cell" not in source


def test_function_defined_above_its_arguments_builds_its_layers_at_its_call(tmp_path):
    # A helper defined above the hyper-parameters it is called with (as in a file that once star-imported it): its
    # layers cannot be built before the `def`, so they are built before the statement that calls it, given the
    # arguments that call settles there; the program prints TF1's numbers.
    source = """\
import numpy as np
import tensorflow as tf


def RNN(inputs, weights, num_hidden):
    cell = tf.nn.rnn_cell.BasicRNNCell(num_hidden)
    outputs, states = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
    return tf.matmul(outputs[:, -1, :], weights)


tf.set_random_seed(3)
input_dim = 2
num_hidden_units = 3
x = tf.placeholder(tf.float32, [None, 4, input_dim])
W = tf.Variable(tf.ones([num_hidden_units, 1]))
# Network predictions
pred = RNN(x, W, num_hidden_units)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(pred, {x: np.arange(16, dtype=np.float32).reshape(2, 4, 2) / 10}))
"""
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert new.index("num_hidden_units = 3") < new.index("# Network predictions\nsimple_rnn = tf.keras.layers."
                                                         "SimpleRNN(units=num_hidden_units,")
    assert new.index("simple_rnn.build((None, None, input_dim))") < new.index("def run_pred(x):")
    assert new.index("def RNN(") < new.index("simple_rnn = ")
    verdict = verify_program(source, new, path=tmp_path / "case.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_an_embedding_of_a_numpy_matrix_gives_the_rnn_its_input_width(tmp_path):
    # lazyprogrammer's POS tagger: `We = np.random.randn(V, E)`, `tf.nn.embedding_lookup(tf.Variable(We), inputs)`:
    # the width of the rnn's input is the matrix's last dimension (it was refused as not given by the text).
    source = """\
import numpy as np
import tensorflow as tf

np.random.seed(0)
V, E, T, H, K = 12, 5, 6, 8, 3
We = np.random.randn(V, E).astype(np.float32)
inputs = tf.placeholder(tf.int32, shape=(None, T))
targets = tf.placeholder(tf.int32, shape=(None, T))
tfWe = tf.Variable(We)
Wo = tf.Variable(np.random.randn(H, K).astype(np.float32) * 0.1)
bo = tf.Variable(np.zeros(K, dtype=np.float32))
cell = tf.nn.rnn_cell.GRUCell(num_units=H, activation=tf.nn.relu)
x = tf.nn.embedding_lookup(tfWe, inputs)
outputs, states = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
outputs = tf.reshape(outputs, (-1, H))
logits = tf.matmul(outputs, Wo) + bo
cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(targets, [-1]), logits=logits))
train_op = tf.train.AdamOptimizer(1e-2).minimize(cost)
xs = np.random.randint(V, size=(4, T))
ys = np.random.randint(K, size=(4, T))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(5):
        _, c = sess.run([train_op, cost], feed_dict={inputs: xs, targets: ys})
        print(i, c)
"""
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "gru.build((None, None, E))" in result.new_source
    for refused in ("We = np.load('embedding.npy')", "We = np.random.randn(*(V, E))"):
        assert migrate_source(source.replace("We = np.random.randn(V, E)", refused), "case.py").outcome == "compat"
    verdict = verify_program(source, result.new_source, path=tmp_path / "case.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_saver_gets_tf1_named_mirrors():
    result = _migrate("cell = tf.nn.rnn_cell.GRUCell(4, name='enc')\n"
                      "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope='encoder')\n"
                      "saver = tf.train.Saver()\n")
    assert result.outcome == "eager", result.findings
    for name in ("encoder/enc/gates/kernel", "encoder/enc/gates/bias", "encoder/enc/candidate/kernel",
                 "encoder/enc/candidate/bias"):
        assert f'"{name}": gru_' in result.new_source


def test_saver_of_trainable_variables_keeps_the_rnn_weights():
    result = _migrate("cell = tf.nn.rnn_cell.LSTMCell(4)\n"
                      "outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n"
                      "saver = tf.train.Saver(tf.trainable_variables())\n")
    assert result.outcome == "eager", result.findings
    assert '"rnn/lstm_cell/kernel": lstm_kernel, "rnn/lstm_cell/bias": lstm_bias' in result.new_source


def test_weight_mapping_helpers_invert_each_other():
    namespace = {}
    from tf_migrate.codegen.rnn_weights import HELPERS
    exec(HELPERS, namespace)

    class _Layer:
        def __init__(self, weights):
            self.weights = weights

        def get_weights(self):
            return self.weights

    class _Variable:
        def assign(self, value):
            self.value = value

    rng = np.random.default_rng(0)
    for kind, shapes in {"lstm": [(7, 16), (16,)], "gru": [(7, 8), (8,), (7, 4), (4,)], "rnn": [(7, 4), (4,)]}.items():
        tf1 = [rng.normal(size=shape) for shape in shapes]
        keras = namespace["keras_rnn_weights"](kind, tf1, 3, 0.7)
        variables = [_Variable() for _ in tf1]
        namespace["assign_tf1_rnn_weights"](kind, _Layer(keras), variables, 0.7)
        for variable, value in zip(variables, tf1):
            np.testing.assert_allclose(variable.value, value)


def test_an_initial_state_written_as_none_is_none_given(tmp_path):
    """MorvanZhou's RNN tutorials write `initial_state=None` out: the layer got `initial_state=[None[1], None[0]]`."""
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 4, 3])\n"
              "cell = tf.nn.rnn_cell.LSTMCell(num_units=5)\n"
              "outputs, (c, h) = tf.nn.dynamic_rnn(cell, x, initial_state=None, dtype=tf.float32, time_major=False)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run(h, {x: np.ones((2, 4, 3))}).shape)\n")
    result = migrate_source(source, "rnn.py")
    assert result.outcome == "eager", result.compat_reason
    assert "None[1]" not in result.new_source and "lstm(x)" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "case.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


@pytest.mark.parametrize("cell", ["tf.nn.rnn_cell.LSTMCell(num_units=8)", "tf.nn.rnn_cell.GRUCell(8)"])
def test_a_zero_state_of_batch_one_runs_an_input_of_any_declared_batch(tmp_path, cell):
    """MorvanZhou's 403_RNN_regression: `zero_state(batch_size=1)` for a placeholder of batch None. TF1 kept the
    state's batch in its loop; the Keras layer traced with the signature's None batch crashed the converted program
    (`enters the loop with shape (1, 8), but has shape (None, 8) after one iteration`)."""
    source = f"""\
import numpy as np
import tensorflow as tf
tf.set_random_seed(1)
tf_x = tf.placeholder(tf.float32, [None, 5, 1])
tf_y = tf.placeholder(tf.float32, [None, 5, 1])
rnn_cell = {cell}
init_s = rnn_cell.zero_state(batch_size=1, dtype=tf.float32)
outputs, final_s = tf.nn.dynamic_rnn(rnn_cell, tf_x, initial_state=init_s, time_major=False)
outs = tf.layers.dense(outputs, 1)
loss = tf.losses.mean_squared_error(labels=tf_y, predictions=outs)
train_op = tf.train.AdamOptimizer(0.02).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for step in range(4):
    steps = np.linspace(step * np.pi, (step + 1) * np.pi, 5)
    x = np.sin(steps)[np.newaxis, :, np.newaxis]
    y = np.cos(steps)[np.newaxis, :, np.newaxis]
    _, l = sess.run([train_op, loss], {{tf_x: x, tf_y: y}})
    print(step, l)
"""
    result = migrate_source(source, "rnn.py")
    assert result.outcome == "eager", result.compat_reason
    assert "(tf.ensure_shape(tf_x, [1, None, None]), initial_state=" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "case.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_an_input_declared_with_the_states_batch_is_not_held():
    source = ("import numpy as np\nimport tensorflow as tf\nBATCH = 2\n"
              "y = tf.placeholder(tf.float32, [BATCH, 5, 3])\ncell = tf.nn.rnn_cell.GRUCell(4)\n"
              "init = cell.zero_state(BATCH, tf.float32)\n"
              "outputs, state = tf.nn.dynamic_rnn(cell, y, initial_state=init)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(sess.run(outputs, {y: np.ones((2, 5, 3))}))\n")
    result = migrate_source(source, "rnn.py")
    assert result.outcome == "eager", result.compat_reason
    assert "gru(y, initial_state=[init])" in result.new_source and "ensure_shape" not in result.new_source

