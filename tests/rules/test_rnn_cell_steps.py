"""rnn-cell-steps: TF1 rnn cells stepped by hand (`cell(x_t, state)`) -> Keras rnn cells, TF1's math and values.

The numbers are checked by the golden twins (tests/golden/rnn_cells_stepped_by_hand.py,
rnn_gru_stepped_state_fed_back.py), run in separate processes with verify's shared draws. Here: what
is converted, and what is left to rnn-to-keras, which keeps the file compat with its reason.
"""
import pytest

from tf_migrate.engine import migrate_source

HEAD = '''\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 3, 2])
'''
STEPS = '''\
state = cell.zero_state(tf.shape(x)[0], tf.float32)
for t in range(3):
    (output, state) = cell(x[:, t, :], state)
'''
RUN = '''
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(output, {x: np.ones((1, 3, 2))}))
'''


def _migrate(body: str):
    return migrate_source(HEAD + body + RUN, "case.py")


@pytest.mark.parametrize("body, expected", [
    pytest.param("cell = tf.nn.rnn_cell.BasicRNNCell(4)\n" + STEPS,
                 ['cell = tf.keras.layers.SimpleRNNCell(units=4, **tf1_cell_initializers("rnn", 4))',
                  "state = tf.zeros([tf.shape(x)[0], 4])", "(output, state) = cell(x[:, t, :], state)",
                  "def tf1_cell_initializers("], id="BasicRNNCell: steps as written"),
    pytest.param("cell = tf.nn.rnn_cell.GRUCell(4, kernel_initializer=tf.orthogonal_initializer())\n" + STEPS,
                 ['tf.keras.layers.GRUCell(units=4, reset_after=False, **tf1_cell_initializers("gru", 4, '
                  'kernel_initializer=tf.compat.v1.orthogonal_initializer()))'], id="GRUCell keeps its initializer"),
    pytest.param("cell = tf.nn.rnn_cell.LSTMCell(4)\n" + STEPS + "output = state.h\n",
                 ['tf.keras.layers.LSTMCell(units=4, unit_forget_bias=False, **tf1_cell_initializers("lstm", 4, '
                  'forget_bias=1.0))', "(output, state) = tf1_lstm_step(cell, x[:, t, :], state)",
                  "def tf1_lstm_step(cell, inputs, state):", "output = state[1]"],
                 id="LSTMCell: TF1's (c, h) state through tf1_lstm_step"),
])
def test_converted(body, expected):
    result = _migrate(body)
    assert result.outcome == "eager", result.findings
    for text in expected:
        assert text in result.new_source, text
    assert "rnn_cell" not in result.new_source


@pytest.mark.parametrize("body, reason", [
    pytest.param("cell = tf.nn.rnn_cell.GRUCell(4)\n" + STEPS + "size = cell.state_size\n",
                 "the cell `cell` is used other than by the rnn call and zero_state", id="other uses"),
    pytest.param("cell = tf.nn.rnn_cell.GRUCell(4)\nagain = tf.nn.rnn_cell.GRUCell(4, reuse=True)\n" + STEPS
                 + "(output, state) = again(x[:, 0, :], state)\n",
                 "used other than by the rnn call", id="a cell that reuses another's variables"),
    pytest.param("cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(4)])\n" + STEPS,
                 "used other than by the rnn call", id="MultiRNNCell stepped"),
    pytest.param("cell = tf.nn.rnn_cell.GRUCell(4)\n" + STEPS + "saver = tf.train.Saver()\n",
                 "used other than by the rnn call", id="a Saver names the variables by TF1's scopes"),
])
def test_left_to_rnn_to_keras(body, reason):
    result = _migrate(body)
    assert result.outcome == "compat"
    assert reason in result.compat_reason


def test_a_function_called_twice_keeps_its_cells():
    """Each call made new variables, or shared them by scope: one Keras cell per call would not say which."""
    body = ("def step(inputs):\n    cell = tf.nn.rnn_cell.GRUCell(4)\n"
            "    return cell(inputs, cell.zero_state(1, tf.float32))[0]\n"
            "output = step(x[:, 0, :]) + step(x[:, 1, :])\n")
    result = _migrate(body)
    assert result.outcome == "compat"
    assert "rnn_cell.GRUCell" in result.new_source


def test_a_cell_stepped_in_a_graph_loop_is_left():
    body = ("cell = tf.nn.rnn_cell.GRUCell(4)\nstate = cell.zero_state(1, tf.float32)\n"
            "_, output = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, cell(x[:, 0, :], s)[1]), (0, state))\n")
    result = _migrate(body)
    assert "tf.keras.layers.GRUCell" not in result.new_source
