"""Sessions passed to a class or function of another module of the tree (project.session_imports).

``agent = Agent(sess, ...)`` in ``train.py`` with ``Agent``'s runs in ``agent.py``: once ``agent.py`` goes eager,
its class runs its graph in generated methods and no longer takes the session, so the importer drops the argument
and goes eager too. The provider says which parameters went (``MigrationResult.session_params``); a tie keeps
both compat when either must stay compat.
"""
from __future__ import annotations

import pytest

from tf_migrate.cli import EXIT_OK
from tests.rules.test_inline_build_methods import EPOCHS
from tests.trees import migrate, output

AGENT = '''import numpy as np
import tensorflow as tf


class Agent:
    def __init__(self, sess, n_in, n_out, lr=0.1):
        self.sess = sess
        self.x = tf.placeholder(tf.float32, [None, n_in])
        self.y = tf.placeholder(tf.float32, [None, n_out])
        w = tf.Variable(tf.ones([n_in, n_out]) * 0.1)
        self.out = tf.matmul(self.x, w)
        self.loss = tf.reduce_mean(tf.square(self.out - self.y))
        self.train_op = tf.train.GradientDescentOptimizer(lr).minimize(self.loss)

    def predict(self, x):
        return self.sess.run(self.out, {self.x: x})

    def update(self, x, y):
        loss, _ = self.sess.run([self.loss, self.train_op], {self.x: x, self.y: y})
        return loss
'''

TRAIN = '''import numpy as np
import tensorflow as tf
from agent import Agent

sess = tf.Session()
agent = Agent(sess, 3, 2, lr=0.05)
sess.run(tf.global_variables_initializer())
x = np.linspace(0, 1, 12).reshape(4, 3).astype(np.float32)
for step in range(3):
    print(step, agent.update(x, np.zeros((4, 2))))
print(agent.predict(x))
'''


def test_the_importer_stops_passing_the_session_and_prints_the_legacy_numbers(tmp_path, capsys):
    code, outcomes, _ = migrate(tmp_path, {"agent.py": AGENT, "train.py": TRAIN}, "--verify-entry", "train.py")
    assert outcomes == {"agent.py": "eager", "train.py": "eager"}
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    migrated = output(tmp_path, "train.py")
    assert "agent = Agent(3, 2, lr=0.05)\n" in migrated
    assert "Session" not in migrated and "sess" not in migrated
    assert "def __init__(self, n_in, n_out, lr=0.1):" in output(tmp_path, "agent.py")


@pytest.mark.parametrize("imports, call, expected", [
    pytest.param("from agent import Agent as Brain", "Brain(sess=sess, n_in=3, n_out=2)", "Brain(n_in=3, n_out=2)",
                 id="an alias, the session by keyword"),
    pytest.param("import agent", "agent.Agent(sess, 3, 2)", "agent.Agent(3, 2)", id="the module imported whole"),
    pytest.param("from agent import *", "Agent(sess, 3, 2)", "Agent(3, 2)", id="a star import"),
])
def test_every_way_of_naming_the_class_drops_the_argument(tmp_path, imports, call, expected):
    train = TRAIN.replace("from agent import Agent", imports).replace("Agent(sess, 3, 2, lr=0.05)", call)
    train = train.replace("agent = ", "brain = ").replace("agent.update", "brain.update").replace(
        "agent.predict", "brain.predict")
    _, outcomes, _ = migrate(tmp_path, {"agent.py": AGENT, "train.py": train})
    assert outcomes == {"agent.py": "eager", "train.py": "eager"}
    assert f"brain = {expected}\n" in output(tmp_path, "train.py")


def test_a_session_passed_in_another_place_than_the_dropped_parameter_stays_compat(tmp_path):
    train = TRAIN.replace("Agent(sess, 3, 2, lr=0.05)", "Agent(3, sess, 2)")
    _, outcomes, reasons = migrate(tmp_path, {"agent.py": AGENT, "train.py": train})
    assert outcomes == {"agent.py": "compat", "train.py": "compat"}
    assert reasons["train.py"] == "a session passed to code outside this module, which still needs it"


def test_a_compat_module_building_the_class_keeps_every_module_tied_to_it_compat(tmp_path):
    other = ("import numpy as np\nimport tensorflow as tf\nfrom agent import Agent\n\nsess = tf.Session()\n"
             "agent = Agent(sess, 3, 2)\nq = tf.RandomShuffleQueue(3, 0, tf.float32)\n"
             "sess.run(tf.global_variables_initializer())\nprint(agent.predict(np.ones((1, 3))))\n")
    _, outcomes, reasons = migrate(tmp_path, {"agent.py": AGENT, "train.py": TRAIN, "other.py": other})
    assert outcomes == {"agent.py": "compat", "train.py": "compat", "other.py": "compat"}
    assert "tied to" in reasons["train.py"]
    assert "Agent(sess, 3, 2, lr=0.05)" in output(tmp_path, "train.py")  # the call the compat class still takes
    assert "def __init__(self, sess, n_in, n_out, lr=0.1):" in output(tmp_path, "agent.py")


def test_a_variable_list_read_after_building_the_class_stays_compat(tmp_path):
    train = TRAIN.replace("print(agent.predict(x))", "print(len(tf.trainable_variables()))")
    _, outcomes, reasons = migrate(tmp_path, {"agent.py": AGENT, "train.py": train})
    assert outcomes == {"agent.py": "compat", "train.py": "compat"}
    assert reasons["train.py"].startswith("`Agent` is built or called before this read: TF1's list also holds the variables")


def test_a_saver_of_the_variables_the_class_makes_asks_the_class_s_module_for_their_names(tmp_path):
    # Its default var_list holds the class's variables, whose TF1 names only the class's module knows: it lists
    # them for the importer (project_class_runs, analysis/object_variables).
    train = TRAIN.replace("print(agent.predict(x))", "saver = tf.train.Saver()\nsaver.save(sess, 'agent.ckpt')")
    _, outcomes, _ = migrate(tmp_path, {"agent.py": AGENT, "train.py": train})
    assert outcomes == {"agent.py": "eager", "train.py": "eager"}
    assert 'Saver(var_list={"Variable": agent.w})' in output(tmp_path, "train.py")
    assert "        self.w = w\n" in output(tmp_path, "agent.py")


def test_a_saver_of_two_objects_variables_stays_compat(tmp_path):
    train = TRAIN.replace("print(agent.predict(x))", "other = Agent(sess, 3, 2)\nsaver = tf.train.Saver()\n"
                                                    "saver.save(sess, 'agent.ckpt')")
    _, outcomes, reasons = migrate(tmp_path, {"agent.py": AGENT, "train.py": train})
    assert outcomes == {"agent.py": "compat", "train.py": "compat"}
    assert "tf.train.Saver" in reasons["train.py"]


OPS = '''import tensorflow as tf


def fc_layer(x, num_units, name):
    in_dim = x.get_shape()[1]
    W = tf.get_variable("W_" + name, shape=[in_dim, num_units], initializer=tf.constant_initializer(0.1))
    return tf.matmul(x, W)
'''


def test_an_importer_that_goes_eager_only_once_its_session_drops_gets_its_helpers_too(tmp_path, capsys):
    # The importer first stays compat on the session it passes, so it asks for no helper class; asked again with
    # the session dropped, it does, and the helpers are agreed on after that (project.migrate_tree).
    train = TRAIN.replace("from agent import Agent\n",
                          "from agent import Agent\nfrom ops import fc_layer\n\n"
                          "z = tf.placeholder(tf.float32, [None, 3])\nh = fc_layer(z, 2, 'FC1')\n")
    train = train.replace("print(agent.predict(x))\n", "print(agent.predict(x), sess.run(h, {z: x}))\n")
    code, outcomes, _ = migrate(tmp_path, {"agent.py": AGENT, "ops.py": OPS, "train.py": train},
                                "--verify-entry", "train.py")
    assert outcomes == {"agent.py": "eager", "ops.py": "eager", "train.py": "eager"}
    assert "from ops import FcLayer" in output(tmp_path, "train.py")
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err


STAGED_MODEL, STAGED_RUN = EPOCHS.split("\n\nmodel = Model", 1)
STAGED_TRAIN = "import numpy as np\nimport tensorflow as tf\nfrom model import Model\n\nmodel = Model" + STAGED_RUN


@pytest.mark.parametrize("imports, name", [
    pytest.param("from model import Model", "Model", id="by name"),
    pytest.param("import model as models", "models.Model", id="the module imported whole"),
])
def test_methods_given_the_session_only_to_run_lose_it_in_the_importer_too(tmp_path, capsys, imports, name):
    train = STAGED_TRAIN.replace("from model import Model", imports).replace("= Model(", f"= {name}(")
    code, outcomes, _ = migrate(tmp_path, {"model.py": STAGED_MODEL, "train.py": train}, "--verify-entry", "train.py")
    assert outcomes == {"model.py": "eager", "train.py": "eager"}
    assert code == EXIT_OK and ": equivalent" in capsys.readouterr().err
    migrated = output(tmp_path, "train.py")
    assert "print(model.run_epoch(xs, ys, 2))" in migrated and "print(model.predict_on_batch(xs[:2]))" in migrated
