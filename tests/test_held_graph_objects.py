"""A trainer class holding an object of a graph class and the session that runs it (analysis/held_graph_objects).

``Train.__init__`` builds ``self.net = Network()`` and a session; its methods run ``self.net``'s members. Each run
is planned in ``Network`` (this module's class, or another module's through the project pass) and becomes a call of
the method it generates, on ``self.net``; the trainer keeps no session. Uses of the object or the session that the
conversion cannot follow keep the module compat, with the reason.
"""
from __future__ import annotations

import pytest

from tf_migrate.cli import EXIT_OK
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program
from tests.trees import migrate, output

NETWORK = '''import tensorflow as tf


class Network:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 4])
        self.label = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable(tf.ones([4, 2]) * 0.1)
        self.b = tf.Variable(tf.zeros([2]))
        self.y = tf.nn.softmax(tf.matmul(self.x, self.w) + self.b)
        self.loss = -tf.reduce_sum(self.label * tf.log(self.y + 1e-10))
        self.train = tf.train.GradientDescentOptimizer(0.05).minimize(self.loss)
        predict = tf.equal(tf.argmax(self.label, 1), tf.argmax(self.y, 1))
        self.accuracy = tf.reduce_mean(tf.cast(predict, "float"))
'''

TRAINER = '''

class Train:
    def __init__(self):
        self.net = Network()
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())
        self.xs = np.arange(24, dtype=np.float32).reshape(6, 4) / 10.0
        self.labels = np.eye(2, dtype=np.float32)[[0, 1, 1, 0, 1, 0]]

    def train(self):
        for i in range(5):
            _, loss = self.sess.run([self.net.train, self.net.loss],
                                    feed_dict={self.net.x: self.xs, self.net.label: self.labels})
            print(i, loss)

    def calculate_accuracy(self):
        accuracy = self.sess.run(self.net.accuracy, feed_dict={self.net.x: self.xs, self.net.label: self.labels})
        print("accuracy", accuracy)
{extra}

if __name__ == "__main__":
    app = Train()
    app.train()
    app.calculate_accuracy()
'''

IMPORTS = "import numpy as np\nimport tensorflow as tf\n"


def _one_file(extra: str = "") -> str:
    return IMPORTS + NETWORK.split("\n", 1)[1] + TRAINER.replace("{extra}", extra)


def test_the_trainer_calls_the_methods_its_object_s_class_generates_and_prints_the_legacy_numbers(tmp_path):
    source = _one_file()
    result = migrate_source(source, "train.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "self.net.run_train_loss, x=self.xs, label=self.labels" in new
    assert "self.net.run_accuracy, x=self.xs, label=self.labels" in new
    assert "Session" not in new and "self.sess" not in new and "placeholder" not in new
    verdict = verify_program(source, new, path=tmp_path / "train.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_the_trainer_of_another_module_s_class_converts_with_the_project_pass(tmp_path, capsys):
    trainer = IMPORTS + "from model import Network\n" + TRAINER.replace("{extra}", "")
    code, outcomes, reasons = migrate(tmp_path, {"model.py": NETWORK, "train.py": trainer}, "--verify-entry",
                                      "train.py")
    assert outcomes == {"model.py": "eager", "train.py": "eager"}, reasons
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    train = output(tmp_path, "train.py")
    assert "call_compiled(self.net.run_train_loss, x=self.xs, label=self.labels)" in train
    assert "Session" not in train and "self.sess" not in train
    assert "def run_train_loss(self, x, label):" in output(tmp_path, "model.py")


def test_the_trainer_alone_does_not_know_the_imported_object_s_members():
    # Migrated alone, `self.net.train` is nothing the analysis knows: the module stays compat (it was once
    # written as an eager read of `self.net.train`, which crashed).
    trainer = IMPORTS + "from model import Network\n" + TRAINER.replace("{extra}", "")
    result = migrate_source(trainer, "train.py")
    assert result.outcome == "compat"
    assert "`self.net.train` is not a graph value the analysis knows" in result.compat_reason


def test_a_member_of_the_object_read_outside_a_run_keeps_the_module_compat():
    extra = '''
    def show(self):
        print(self.net.x)
'''
    result = migrate_source(_one_file(extra), "train.py")
    assert result.outcome == "compat"
    assert "`self.net`, an object of `Network` that this class runs, is used otherwise than in runs" \
        in result.compat_reason


def test_a_feed_dict_built_before_the_run_keeps_the_module_compat():
    source = _one_file().replace(
        "feed_dict={self.net.x: self.xs, self.net.label: self.labels})\n            print(i, loss)",
        "feed_dict=feed)\n            print(i, loss)").replace(
        "        for i in range(5):\n", "        for i in range(5):\n"
                                      "            feed = {self.net.x: self.xs, self.net.label: self.labels}\n")
    assert "feed_dict=feed)" in source
    result = migrate_source(source, "train.py")
    assert result.outcome == "compat"
    assert "`self.net`'s graph" in result.compat_reason and "feed dict" in result.compat_reason


def test_a_method_passing_the_class_s_session_to_a_saver_keeps_the_module_compat():
    # Written eager, `saver.save(self.sess, ...)` read a session the class no longer has.
    extra = '''
    def save(self, path):
        saver = tf.train.Saver()
        saver.save(self.sess, path)
'''
    result = migrate_source(_one_file(extra), "train.py")
    assert result.outcome == "compat"
    assert "method `save` passes the class's session to `saver.save`" in result.compat_reason


def test_a_helper_object_the_class_only_calls_in_its_graph_is_not_a_held_graph():
    # carpedm20's DCGAN holds `self.d_bn1 = batch_norm(name="d_bn1")` and calls it in its graph: an object of a
    # class with graph code, but no run of its members; what decides it is the class's own analysis.
    source = IMPORTS + '''

class Scale:
    def __init__(self):
        self.w = tf.Variable(2.0)

    def __call__(self, x):
        return x * self.w


class Model:
    def __init__(self):
        self.scale = Scale()
        self.x = tf.placeholder(tf.float32, [None])
        self.out = self.scale(self.x)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def show(self):
        print(type(self.scale).__name__, self.sess.run(self.out, {self.x: np.ones(3, np.float32)}))


Model().show()
'''
    result = migrate_source(source, "model.py")
    assert result.outcome == "eager", result.compat_reason


GIVEN = _one_file().replace('''    def __init__(self):
        self.net = Network()
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())''', '''    def __init__(self, sess, net):
        self.net = net
        self.sess = sess''').replace('''    app = Train()''', '''    sess = tf.Session()
    net = Network()
    sess.run(tf.global_variables_initializer())
    app = Train(sess, net)''')


def test_a_trainer_given_the_object_and_the_session_converts_and_loses_the_session(tmp_path):
    assert "app = Train(sess, net)" in GIVEN
    result = migrate_source(GIVEN, "train.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "def __init__(self, net):" in new and "app = Train(net)" in new
    assert "self.net.run_train_loss, x=self.xs, label=self.labels" in new and "Session" not in new
    verdict = verify_program(GIVEN, new, path=tmp_path / "train.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_trainer_given_objects_the_module_binds_twice_is_not_known():
    # `net` bound to a Network and to something else: what the trainer holds is not known.
    source = GIVEN.replace("    app = Train(sess, net)", "    app = Train(sess, net)\n    net = None")
    result = migrate_source(source, "train.py")
    assert result.outcome == "compat"
    assert any("nothing in this file runs the graph `Network` builds" in finding.message
               for finding in result.findings), result.compat_reason


ACTIVATED = IMPORTS + '''

class Dense:
    def __init__(self, n_in, n_out, act=tf.nn.relu):
        self.act = act
        self.x = tf.placeholder(tf.float32, [None, n_in])
        self.w = tf.Variable(tf.ones([n_in, n_out]) * 0.1)
        self.out = self.act(tf.matmul(self.x, self.w))
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def show(self, xs):
        print(self.sess.run(self.out, {self.x: xs}))


layer = Dense(3, 2{given})
layer.show(np.arange(6, dtype=np.float32).reshape(2, 3) - 2.0)
'''


@pytest.mark.parametrize("given", [pytest.param("", id="the default"), pytest.param(", act=tf.nn.tanh", id="another")])
def test_an_activation_parameter_every_construction_leaves_to_tensorflow_is_tensorflow_s(given, tmp_path):
    # sjchoi86's VAE notebook: `transfer_fct=tf.nn.softplus`, kept as `self.transfer_fct` and called in __init__.
    source = ACTIVATED.replace("{given}", given)
    result = migrate_source(source, "dense.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "dense.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_an_activation_parameter_given_something_else_is_not_known():
    source = ACTIVATED.replace("{given}", ", act=lambda t: t * 2.0")
    result = migrate_source(source, "dense.py")
    assert result.outcome == "compat"
    assert "`self.act` is a value __init__ binds, not a method of the class" in result.compat_reason


def test_a_trainer_building_graph_code_on_the_object_s_members_keeps_the_module_compat():
    # A critic building on its actor's output in __init__ (`self.q = ...(self.net.y)`): the eager Network keeps no
    # `y`, a per-run member of its generated methods.
    source = _one_file().replace("        self.sess = tf.Session()\n",
                                 "        self.doubled = self.net.y * 2.0\n        self.sess = tf.Session()\n", 1)
    assert "self.doubled = self.net.y * 2.0" in source
    result = migrate_source(source, "train.py")
    assert result.outcome == "compat"
    assert "`self.net`, an object of `Network` that this class runs, is used otherwise than in runs" in \
        result.compat_reason


def test_a_graph_value_into_a_value_the_class_s_init_binds_stays_compat():
    # YadiraF's GANs: `self.G_sample = self.generator(self.z)`, a network object of another module given to
    # __init__; it was taken for a method of the class, and the eager class called it in a tf.function.
    source = ("import tensorflow as tf\n\n\nclass W:\n    def __init__(self, make):\n        self.make = make\n"
              "        self.x = tf.placeholder(tf.float32)\n        self.out = self.make(self.x)\n"
              "        self.sess = tf.Session()\n\n    def show(self):\n"
              "        print(self.sess.run(self.out, {self.x: 1.0}))\n\n\nW(tf.square).show()\n")
    result = migrate_source(source, "unknown.py")
    assert result.outcome == "compat"
    assert "`self.make` is a value __init__ binds, not a method of the class" in result.compat_reason
