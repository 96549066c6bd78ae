"""rnn-to-keras on classes (rules/_rnn_classes.py): an rnn a class builds in ``__init__`` has its Keras layers built
there and held by the object; an LSTM state that leaves ``__init__`` keeps the file compat (TF1 gave it as an
``LSTMStateTuple``), and so do rnns built in other methods."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program
from tests.rules.test_rnn_to_keras import _reasons
from tests.trees import migrate, output


# A model class whose __init__ builds the rnn (the common layout of public RNN code): the layers are built in
# __init__, held by the object as any layer it builds, and run in the methods the session rule generates.
CLASS_PROGRAM = '''\
import numpy as np
import tensorflow as tf

tf.set_random_seed(3)
N_STEPS, N_IN, N_CLASSES = 5, 3, 2


class SequenceClassifier(object):
    def __init__(self, n_hidden, n_layers, learning_rate=0.05):
        self.x = tf.placeholder(tf.float32, [None, N_STEPS, N_IN], name="x")
        self.y = tf.placeholder(tf.float32, [None, N_CLASSES], name="y")
        self.lengths = tf.placeholder(tf.int32, [None])
        cells = [tf.nn.rnn_cell.GRUCell(n_hidden) for _ in range(n_layers)]
        stacked = tf.nn.rnn_cell.MultiRNNCell(cells)
        outputs, state = tf.nn.dynamic_rnn(stacked, self.x, sequence_length=self.lengths, dtype=tf.float32)
        last = state[-1]
        w = tf.Variable(tf.truncated_normal([n_hidden, N_CLASSES], stddev=0.1))
        b = tf.Variable(tf.zeros([N_CLASSES]))
        self.logits = tf.matmul(last, w) + b
        self.loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=self.y, logits=self.logits))
        self.train_op = tf.train.AdamOptimizer(learning_rate).minimize(self.loss)
        hits = tf.equal(tf.argmax(self.logits, 1), tf.argmax(self.y, 1))
        self.accuracy = tf.reduce_mean(tf.cast(hits, tf.float32))


rng = np.random.RandomState(0)
data = rng.randn(8, N_STEPS, N_IN).astype(np.float32)
labels = np.eye(N_CLASSES, dtype=np.float32)[rng.randint(0, N_CLASSES, 8)]
lengths = np.array([5, 4, 3, 5, 2, 5, 1, 4], np.int32)
model = SequenceClassifier(n_hidden=6, n_layers=2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(4):
        feed = {model.x: data, model.y: labels, model.lengths: lengths}
        _, loss = sess.run([model.train_op, model.loss], feed_dict=feed)
        print("step", step, "loss %.5f" % loss)
    print("accuracy", sess.run(model.accuracy, {model.x: data, model.y: labels, model.lengths: lengths}))
'''


def test_a_class_builds_its_rnn_layers_in_init_and_prints_the_legacy_numbers(tmp_path):
    result = migrate_source(CLASS_PROGRAM, "case.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    init = new[new.index("    def __init__"):new.index("\n    def ", new.index("    def __init__") + 1)]
    # two layers (the one construction passes n_layers=2), each built in __init__ with the width it is fed
    assert "gru.build((None, None, N_IN))" in init and "gru_2.build((None, None, n_hidden))" in init
    assert "self.gru = gru" in init and "tf.nn.rnn_cell" not in new
    assert "self.gru(rnn_inputs, mask=rnn_mask)" in new
    verdict = verify_program(CLASS_PROGRAM, new, path=tmp_path / "case.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


LSTM_CLASS = '''\
import numpy as np
import tensorflow as tf


class Model:
    def __init__(self, n_hidden):
        self.x = tf.placeholder(tf.float32, [None, 4, 2])
        cell = tf.nn.rnn_cell.LSTMCell(n_hidden)
{state}
        self.out = outputs[:, -1]


model = Model(3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run({fetch}, {{model.x: np.ones((2, 4, 2), np.float32)}}))
'''


def test_a_class_using_its_lstm_state_inside_init_converts():
    source = LSTM_CLASS.format(state="        outputs, state = tf.nn.dynamic_rnn(cell, self.x, dtype=tf.float32)\n"
                                     "        self.h = tf.identity(state.h)", fetch="[model.out, model.h]")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "h = tf.identity(state[1])" in result.new_source


@pytest.mark.parametrize("state, fetch", [
    pytest.param("        outputs, state = tf.nn.dynamic_rnn(cell, self.x, dtype=tf.float32)\n"
                 "        self.final_state = state", "model.final_state", id="state kept on the object"),
    pytest.param("        outputs, self.final_state = tf.nn.dynamic_rnn(cell, self.x, dtype=tf.float32)",
                 "model.final_state", id="state unpacked onto the object"),
    pytest.param("        self.initial_state = cell.zero_state(tf.shape(self.x)[0], tf.float32)\n"
                 "        outputs, _ = tf.nn.dynamic_rnn(cell, self.x, initial_state=self.initial_state)",
                 "model.out", id="zero state kept on the object"),
])
def test_a_class_keeping_its_lstm_state_on_the_object_stays_compat(state, fetch):
    # TF1 gave the state as an LSTMStateTuple (`.c`, its printed form); code outside __init__ would get a tuple.
    result = migrate_source(LSTM_CLASS.format(state=state, fetch=fetch), "case.py")
    assert result.outcome == "compat"
    assert "LSTMStateTuple" in _reasons(result)


def test_a_class_building_its_rnn_outside_init_stays_compat():
    source = LSTM_CLASS.format(state="        outputs = tf.zeros([1, 4, 3])", fetch="model.build()").replace(
        "        cell = tf.nn.rnn_cell.LSTMCell(n_hidden)\n", "").replace(
        "\n\nmodel = Model(3)", "\n\n    def build(self):\n        cell = tf.nn.rnn_cell.GRUCell(3)\n"
        "        return tf.nn.dynamic_rnn(cell, self.x, dtype=tf.float32)[0]\n\n\nmodel = Model(3)")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert "other than __init__" in _reasons(result)


def test_a_class_reads_widths_and_layer_counts_from_its_own_members():
    # `self.state_size = state_size` in a placeholder's shape, `range(self.num_layers)` with the parameter's default
    source = '''\
import numpy as np
import tensorflow as tf


class RNNClassifier:
    def __init__(self, state_size, hidden_size, num_layers=2):
        self.state_size = state_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.states = tf.placeholder(shape=[None, None, self.state_size], dtype=tf.float32)
        cells = [tf.nn.rnn_cell.BasicRNNCell(self.hidden_size) for _ in range(self.num_layers)]
        outputs, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells), self.states, dtype=tf.float32)
        self.last = outputs[:, -1]


net = RNNClassifier(state_size=2, hidden_size=5)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(net.last, {net.states: np.ones((3, 4, 2), np.float32)}))
'''
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "simple_rnn.build((None, None, self.state_size))" in result.new_source
    assert "simple_rnn_2.build((None, None, self.hidden_size))" in result.new_source


def test_a_model_class_with_an_rnn_converts_with_the_script_of_another_module_that_runs_it(tmp_path):
    # model.py holds the class, train.py builds it once and runs it (issue 14's layout): both go eager
    # (the stack's depth written out: the one construction is in the other module, which does not give the number)
    model = CLASS_PROGRAM[:CLASS_PROGRAM.index("\nrng = ")].replace("tf.set_random_seed(3)\n", "").replace(
        "range(n_layers)", "range(2)")
    train = ("import numpy as np\nimport tensorflow as tf\nfrom model import SequenceClassifier, N_STEPS, N_IN, "
             "N_CLASSES\n\ntf.set_random_seed(3)\n" + CLASS_PROGRAM[CLASS_PROGRAM.index("\nrng = "):])
    _, outcomes, reasons = migrate(tmp_path, {"model.py": model, "train.py": train})
    assert outcomes == {"model.py": "eager", "train.py": "eager"}, reasons
    assert "self.gru = gru" in output(tmp_path, "model.py")
    assert "model.run_train_op_loss" in output(tmp_path, "train.py")


# A char-RNN class whose run feeds its final LSTM state back as the next initial state (issue 15), the state's
# fields kept on the object as tensors: converts, and prints TF1's numbers.
CHAR_LM_CLASS = '''\
import numpy as np
import tensorflow as tf

tf.set_random_seed(24)


class CharLM:
    def __init__(self, vocab, n_hidden):
        self.x = tf.placeholder(tf.int32, [1, 5])
        self.c0 = tf.placeholder(tf.float32, [1, n_hidden])
        self.h0 = tf.placeholder(tf.float32, [1, n_hidden])
        emb = tf.Variable(tf.random_uniform([vocab, 3], -0.5, 0.5))
        inputs = tf.nn.embedding_lookup(emb, self.x)
        cell = tf.nn.rnn_cell.BasicLSTMCell(n_hidden)
        init = tf.nn.rnn_cell.LSTMStateTuple(self.c0, self.h0)
        outputs, state = tf.nn.dynamic_rnn(cell, inputs, initial_state=init)
        self.c1, self.h1 = state.c, state.h
        self.logits = tf.layers.dense(tf.reshape(outputs, [-1, n_hidden]), vocab)


lm = CharLM(7, 4)
c = np.zeros((1, 4), np.float32)
h = np.zeros((1, 4), np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        seq = np.array([[i, i + 1, i + 2, i + 3, i + 4]], np.int32)
        logits, c, h = sess.run([lm.logits, lm.c1, lm.h1], {lm.x: seq, lm.c0: c, lm.h0: h})
        print(i, logits.argmax(1), h.round(4))
'''


def test_a_char_rnn_class_feeding_its_state_back_prints_the_legacy_numbers(tmp_path):
    result = migrate_source(CHAR_LM_CLASS, "char_lm.py")
    assert result.outcome == "eager", result.compat_reason
    assert "c1, h1 = state[0], state[1]" in result.new_source
    verdict = verify_program(CHAR_LM_CLASS, result.new_source, path=tmp_path / "char_lm.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail
