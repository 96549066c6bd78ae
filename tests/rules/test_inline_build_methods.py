"""inline-build-methods: private methods that __init__ calls to build the graph run where each call stands."""
from pathlib import Path

import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.inline_build_methods import InlineBuildMethods
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.rules.alone import apply_alone

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "class_build_methods_from_init.py"
AGENT = GOLDEN.read_text().partition("# output\n")[0]  # the golden case's input: two build methods


def test_build_methods_move_into_init_and_the_class_converts():
    result = migrate_source(AGENT, "agent.py")
    assert result.outcome == "eager", result.findings
    code = result.new_source
    assert "_build_net" not in code and "_build_loss" not in code
    assert "placeholder" not in code and "Session" not in code
    assert sum("its body moves to each call" in f.message for f in result.findings) == 2
    assert_same_output(run_legacy(AGENT), run_migrated(code))


# Build methods with parameters, called more than once, or with locals __init__ has too: each call
# runs the body with its own arguments and fresh names, and the program prints the legacy numbers.
TWO_HEADS = '''
import numpy as np
import tensorflow as tf


class Agent(object):
    def __init__(self, width):
        self.width = width
        self.s = tf.placeholder(tf.float32, [None, 3])
        w = tf.Variable(tf.fill([3, 2], 0.1))
        self.q = self._head(self.s, 0.5, scale=2.0)
        self.v = self._head(self.s * w[0, 0] + 1.0, 0.25)
        self.both = self.q + self.v
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def _head(self, x, init, scale=1.0):
        w = tf.Variable(tf.fill([3, self.width], init))
        h = tf.matmul(x, w) * scale
        return tf.reduce_sum(h, axis=1)

    def run(self, s):
        return self.sess.run(self.both, {self.s: s})


agent = Agent(4)
print(np.round(agent.run(np.ones((2, 3))), 5))
'''


def test_a_method_called_twice_with_arguments_runs_in_place_at_both_calls():
    code = _rule_alone(TWO_HEADS)
    assert "def _head" not in code
    assert "w_2 = tf.Variable(tf.fill([3, self.width], 0.5))" in code  # `w` of __init__ keeps its name
    assert "w_3 = tf.Variable(tf.fill([3, self.width], 0.25))" in code
    assert "x = self.s * w[0, 0] + 1.0" in code  # an argument that is not a plain name is computed once
    assert "h = tf.matmul(self.s, w_2) * 2.0" in code and "h_2 = tf.matmul(x, w_3) * 1.0" in code
    result = migrate_source(TWO_HEADS, "agent.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(TWO_HEADS), run_migrated(result.new_source))


TUPLE_RETURN = '''
import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self):
        self.x, self.y, self.loss = self._build()

    def _build(self):
        x = tf.placeholder(tf.float32, [None, 2])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.Variable(tf.fill([2, 1], 0.3))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        return x, y, loss


model = Model()
sess = tf.Session()
sess.run(tf.global_variables_initializer())
print(np.round(sess.run(model.loss, {model.x: np.ones((4, 2)), model.y: np.zeros((4, 1))}), 5))
'''


def test_returned_locals_become_the_targets_themselves():
    code = _rule_alone(TUPLE_RETURN)
    assert "self.x = tf.placeholder(tf.float32, [None, 2])" in code  # no second name for a placeholder
    assert "self.loss = tf.reduce_mean(tf.square(tf.matmul(self.x, w) - self.y))" in code
    assert "return" not in code.split("class Model")[1].split("model = Model()")[0]


@pytest.mark.parametrize("change, method, why", [
    (("class Agent(object):", "class Agent(Base):"), "_build_net", "a base class"),
    (("        return tf.reduce_mean(squared)\n", "        if squared is None:\n            return None\n"
                                                 "        return tf.reduce_mean(squared)\n"), "_build_loss",
     "an early return"),
    (("    def learn(self, s, target):\n", "    def rebuild(self):\n        self._build_net()\n\n"
                                           "    def learn(self, s, target):\n"), "_build_net",
     "also called outside __init__"),
    (("        self._build_net()\n", "        self._build_net(*[])\n"), "_build_net", "a starred argument"),
])
def test_methods_that_are_not_a_straight_inline_stay(change, method, why):
    source = AGENT.replace(*change)
    if "Base" in source:
        source = source.replace("class Agent(Base):", "class Base(object):\n    pass\n\n\nclass Agent(Base):")
    assert f"def {method}(self" in _rule_alone(source), why


def test_a_public_method_runs_in_place_unless_code_outside_the_class_names_it():
    public = AGENT.replace("_build_net", "build_net")
    assert "def build_net(self" not in _rule_alone(public)
    result = migrate_source(public, "agent.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(public), run_migrated(result.new_source))
    named = public.replace("agent = Agent(sess, 0.1)\n", "agent = Agent(sess, 0.1)\nrebuild = agent.build_net\n")
    assert "def build_net(self" in _rule_alone(named)


def test_a_comprehension_that_reuses_a_renamed_name_keeps_the_methods():
    source = TWO_HEADS.replace("        h = tf.matmul(x, w) * scale\n",
                               "        h = tf.matmul(x, w) * scale + sum([x for x in [0.0]])\n")
    assert "def _head(self" in _rule_alone(source)


def test_the_rule_alone_moves_both_bodies():
    code = _rule_alone(AGENT)
    assert "def _build_net" not in code and "def _build_loss" not in code
    assert ("        self.q = tf.matmul(self.s, w)\n        squared = tf.square(self.target - self.q)\n"
            "        self.loss = tf.reduce_mean(squared)\n") in code


def _rule_alone(source: str) -> str:
    return apply_alone(InlineBuildMethods(), source, "agent.py")


# MorvanZhou's DDPG_update2 builds the target networks by calling the build methods again with reuse=True
# (and a custom getter): those calls share the first call's variables, which running the body again would
# make anew. The methods stay, and the file compat.
REUSED = '''
import numpy as np
import tensorflow as tf


class Net(object):
    def __init__(self):
        self.sess = tf.Session()
        self.S = tf.placeholder(tf.float32, [None, 3], 's')
        self.a = self._build_a(self.S)
        self.a_ = self._build_a(self.S, reuse=True)
        self.sess.run(tf.global_variables_initializer())

    def _build_a(self, s, reuse=None):
        with tf.variable_scope('Actor', reuse=reuse):
            return tf.layers.dense(s, 2, name='l1')

    def act(self, s):
        return self.sess.run([self.a, self.a_], {self.S: s})


a, a_ = Net().act(np.ones((2, 3), np.float32))
print(np.array_equal(a, a_))
'''


def test_a_call_that_reuses_another_calls_variables_keeps_the_method():
    assert "def _build_a(self" in _rule_alone(REUSED)
    result = migrate_source(REUSED, "net.py")
    assert result.outcome == "compat"
    assert "graph built in method `_build_a`" in result.compat_reason
    # A getter passed the same way wraps the first call's variables: kept too.
    getter = REUSED.replace("reuse=None", "getter=None").replace("reuse=reuse", "custom_getter=getter").replace(
        "reuse=True", "getter=lambda getter, *a, **k: getter(*a, **k)")
    assert "def _build_a(self" in _rule_alone(getter)


# Morvan's double DQN: `_build_net` defines `build_layers` and calls it for the eval and the target network, with
# the layers' weights in collections of their own that __init__ reads to copy one network into the other.
NESTED = '''
import numpy as np
import tensorflow as tf


class Agent(object):
    def __init__(self):
        self._build_net()
        t_params = tf.get_collection('target_net_params')
        e_params = tf.get_collection('eval_net_params')
        self.replace = [tf.assign(t, e) for t, e in zip(t_params, e_params)]
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def _build_net(self):
        def build_layers(s, c_names, init):
            with tf.variable_scope('l1'):
                w1 = tf.get_variable('w1', [2, 3], initializer=tf.constant_initializer(init), collections=c_names)
                out = tf.matmul(s, w1)
            return out

        self.s = tf.placeholder(tf.float32, [None, 2])
        with tf.variable_scope('eval_net'):
            c_names = ['eval_net_params', tf.GraphKeys.GLOBAL_VARIABLES]
            self.q_eval = build_layers(self.s, c_names, 0.5)
        with tf.variable_scope('target_net'):
            c_names = ['target_net_params', tf.GraphKeys.GLOBAL_VARIABLES]
            self.q_next = build_layers(self.s, c_names, 0.25)

    def show(self, s):
        print(np.round(self.sess.run([self.q_eval, self.q_next], {self.s: s}), 5))
        self.sess.run(self.replace)
        print(np.round(self.sess.run(self.q_next, {self.s: s}), 5))


Agent().show(np.array([[1.0, 2.0]]))
'''


def test_a_function_defined_in_a_build_method_runs_in_place_at_each_call():
    code = _rule_alone(NESTED)
    assert "def build_layers" not in code and "def _build_net" not in code
    assert "w1 = tf.get_variable('w1', [2, 3], initializer=tf.constant_initializer(0.5), collections=c_names)" in code
    assert "w1_2 = tf.get_variable('w1', [2, 3], initializer=tf.constant_initializer(0.25)" in code
    result = migrate_source(NESTED, "agent.py")
    assert result.outcome == "eager", result.findings
    assert_same_output(run_legacy(NESTED), run_migrated(result.new_source))


@pytest.mark.parametrize("change", [
    pytest.param(("        self.s = tf.placeholder", "        self.layers = build_layers\n        self.s = tf.placeholder"),
                 id="the function is also used otherwise than called"),
    pytest.param(("            return out\n", "                if init > 0.3:\n                    return out\n"
                                               "            return out\n"), id="a return that is not the last"),
])
def test_a_nested_function_that_cannot_run_in_place_stays(change):
    source = NESTED.replace(*change)
    assert "def build_layers" in _rule_alone(source)


def test_a_class_with_a_base_keeps_its_nested_functions():
    # An eager output's tf.Module (fuzz seed 1846): migrating it again must change nothing.
    source = NESTED.replace("class Agent(object):", "class Agent(tf.Module):")
    assert "def build_layers" in _rule_alone(source)


STAGED_MODEL = '''import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self, n_features, n_classes, lr):
        self.n_features = n_features
        self.n_classes = n_classes
        self.lr = lr
        self.build()

    def add_placeholders(self):
        self.input_placeholder = tf.placeholder(tf.float32, [None, self.n_features])
        self.labels_placeholder = tf.placeholder(tf.float32, [None, self.n_classes])

    def create_feed_dict(self, inputs_batch, labels_batch=None):
        feed_dict = {self.input_placeholder: inputs_batch}
        if labels_batch is not None:
            feed_dict[self.labels_placeholder] = labels_batch
        return feed_dict

    def add_prediction_op(self):
        W = tf.Variable(tf.ones([self.n_features, self.n_classes]) * 0.1)
        b = tf.Variable(tf.zeros([self.n_classes]))
        pred = tf.nn.softmax(tf.matmul(self.input_placeholder, W) + b)
        return pred

    def add_loss_op(self, pred):
        loss = -tf.reduce_mean(tf.reduce_sum(self.labels_placeholder * tf.log(pred), axis=1))
        return loss

    def add_training_op(self, loss):
        train_op = tf.train.GradientDescentOptimizer(self.lr).minimize(loss)
        return train_op

    def build(self):
        self.add_placeholders()
        self.pred = self.add_prediction_op()
        self.loss = self.add_loss_op(self.pred)
        self.train_op = self.add_training_op(self.loss)

    def train_on_batch(self, sess, inputs_batch, labels_batch):
        feed = self.create_feed_dict(inputs_batch, labels_batch=labels_batch)
        _, loss = sess.run([self.train_op, self.loss], feed_dict=feed)
        return loss


model = Model(4, 3, 0.5)
xs = np.arange(20, dtype=np.float32).reshape(5, 4) / 10.0
ys = np.eye(3, dtype=np.float32)[[0, 1, 2, 1, 0]]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(model.train_on_batch(sess, xs, ys))
'''


def test_a_build_method_that_only_calls_build_methods_runs_in_place_with_them():
    # the CS224n model: __init__ calls build(), which calls add_placeholders(), add_prediction_op()...; the runs
    # take the session as a parameter (train_on_batch(self, sess, ...)), which goes with the runs
    result = migrate_source(STAGED_MODEL, "model.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def build(" not in result.new_source and "def add_placeholders(" not in result.new_source
    assert "def train_on_batch(self, inputs_batch, labels_batch):" in result.new_source
    assert "print(model.train_on_batch(xs, ys))" in result.new_source
    assert_same_output(run_legacy(STAGED_MODEL), run_migrated(result.new_source))


def test_a_session_parameter_used_otherwise_than_to_run_keeps_compat():
    source = STAGED_MODEL.replace("        return loss\n", "        print(sess.graph is not None)\n        return loss\n")
    result = migrate_source(source, "model.py")
    assert result.outcome == "compat"
    assert "a session passed to code outside this module" in result.compat_reason


EPOCHS = STAGED_MODEL.replace("""

model = Model(4, 3, 0.5)""", """
    def run_epoch(self, sess, xs, ys, batch):
        losses = []
        for start in range(0, len(xs), batch):
            losses.append(self.train_on_batch(sess, xs[start:start + batch], ys[start:start + batch]))
        return np.mean(losses)

    def predict_on_batch(self, sess, inputs_batch):
        return sess.run(self.pred, feed_dict=self.create_feed_dict(inputs_batch))


model = Model(4, 3, 0.5)""").replace("""        print(model.train_on_batch(sess, xs, ys))""", """        print(model.run_epoch(sess, xs, ys, 2))
    print(model.predict_on_batch(sess, xs[:2]))""")


def test_a_method_passing_its_session_to_one_that_runs_loses_it_too():
    result = migrate_source(EPOCHS, "model.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def run_epoch(self, xs, ys, batch):" in result.new_source
    assert "self.train_on_batch(xs[start:start + batch], ys[start:start + batch])" in result.new_source
    assert "print(model.run_epoch(xs, ys, 2))" in result.new_source
    assert_same_output(run_legacy(EPOCHS), run_migrated(result.new_source))


# jmetzen's VAE: __init__ calls a network builder that makes its weights from the architecture dict, `**`-passed.
MAPPING = '''
import numpy as np
import tensorflow as tf


class Net(object):
    def __init__(self, architecture):
        self.architecture = architecture
        self.x = tf.placeholder(tf.float32, [None, architecture["n_input"]])
        self._create_network()
        self.cost = tf.reduce_mean(tf.square(self.out - 1.0))
        self.optimizer = tf.train.GradientDescentOptimizer(0.1).minimize(self.cost)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def _create_network(self):
        weights = self._initialize_weights(**self.architecture)
        self.out = tf.matmul(tf.nn.relu(tf.matmul(self.x, weights["net"]["h"])), weights["net"]["out"])

    def _initialize_weights(self, n_input, n_hidden, scale=0.5):
        all_weights = dict()
        all_weights["net"] = {"h": tf.Variable(tf.fill([n_input, n_hidden], scale)),
                              "out": tf.Variable(tf.fill([n_hidden, 1], scale))}
        return all_weights

    def fit(self, X):
        _, cost = self.sess.run((self.optimizer, self.cost), feed_dict={self.x: X})
        return cost


net = Net({"n_input": 2, "n_hidden": 3})
for step in range(3):
    print(step, net.fit(np.ones((4, 2), np.float32)))
'''


def test_a_build_method_called_with_a_mapping_binds_each_parameter_to_its_entry():
    result = migrate_source(MAPPING, "mapping.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "n_input = self.architecture['n_input']\n" in code
    assert "scale = self.architecture.get('scale', 0.5)\n" in code
    assert_same_output(run_legacy(MAPPING), run_migrated(code))


TWO_CLASSES = '''
import numpy as np
import tensorflow as tf


class Scaler(object):
    def __init__(self, factor):
        self.factor = factor
        self.build()

    def build(self):
        self.x = tf.placeholder(tf.float32, [None])
        self.w = tf.Variable(self.factor)
        self.y = self.x * self.w


class Shifter(object):
    def __init__(self, shift):
        self.shift = shift
        self.build()

    def build(self):
        self.x = tf.placeholder(tf.float32, [None])
        self.b = tf.Variable(self.shift)
        self.y = self.x + self.b


scaler = Scaler(2.0)
shifter = Shifter(0.5)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(scaler.y, {scaler.x: [1.0, 2.0]}), sess.run(shifter.y, {shifter.x: [1.0, 2.0]}))
'''


def test_two_classes_each_calling_its_own_public_build_method_inline_it():
    # rasbt's SentimentRNN and CharRNN (ch16) each call `self.build()`: the other class's `self.build` made each
    # `build` look named outside its class, and both stayed compat ("graph built in method `build`").
    result = migrate_source(TWO_CLASSES, "two.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def build(" not in result.new_source
    assert_same_output(run_legacy(TWO_CLASSES), run_migrated(result.new_source))


def test_a_build_method_another_class_calls_on_an_object_is_not_inlined():
    source = TWO_CLASSES.replace("        self.build()\n\n    def build(self):\n        self.x = tf.placeholder(tf.float32, "
                                 "[None])\n        self.b",
                                 "        self.build()\n        Scaler(1.0).build()\n\n    def build(self):\n"
                                 "        self.x = tf.placeholder(tf.float32, [None])\n        self.b")
    assert "Scaler(1.0).build()" in source
    result = migrate_source(source, "two.py")
    assert "graph built in method `build`" in " ".join(f.message for f in result.findings)
