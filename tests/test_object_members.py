"""An object's members as values of the scope that built it (analysis/object_members): graph code outside the class
built on them (an optimizer on ``model.loss``, summaries, arithmetic), and runs mixing them with the scope's own
values. The class generates a method computing the members a run needs (``compute_loss``), the run's function calls
it, and the scope's optimizers train the object's variables in TF1's order."""
import pytest

from tf_migrate.cli import EXIT_OK
from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program
from tests.twins import assert_same_output, run_legacy, run_migrated
from tests.test_instance_runs import CLASS
from tests.trees import migrate, output

MODEL = '''import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self, n_in, n_out):
        self.x = tf.placeholder(tf.float32, [None, n_in], name="x")
        self.y = tf.placeholder(tf.float32, [None, n_out], name="y")
        self.keep = tf.placeholder(tf.float32, name="keep")
        w = tf.Variable(tf.ones([n_in, n_out]) * 0.1, name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")
        self.pred = tf.nn.dropout(tf.matmul(self.x, w), self.keep) + self.b
        self.loss = tf.reduce_mean(tf.square(self.pred - self.y))
        self.error = tf.reduce_mean(tf.abs(self.pred - self.y))


xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
ys = np.ones([4, 2], np.float32)
'''

TRAIN_HERE = MODEL + '''model = Model(3, 2)
global_step = tf.Variable(0, name="global_step", trainable=False)
optimizer = tf.train.AdamOptimizer(1e-2)
grads_and_vars = optimizer.compute_gradients(model.loss)
train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(3):
    _, loss, error = sess.run([train_op, model.loss, model.error], {model.x: xs, model.y: ys, model.keep: 1.0})
    print(sess.run(global_step), loss, error)
print(sess.run(model.pred, {model.x: xs, model.keep: 1.0}))
'''

TRAIN_IN_FUNCTION = MODEL + '''

def train(x_train, y_train):
    with tf.Graph().as_default():
        sess = tf.Session()
        with sess.as_default():
            model = Model(x_train.shape[1], y_train.shape[1])
            global_step = tf.Variable(0, name="global_step", trainable=False)
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(model.loss, global_step=global_step)
            sess.run(tf.global_variables_initializer())

            def train_step(x_batch, y_batch):
                feed_dict = {model.x: x_batch, model.y: y_batch, model.keep: 1.0}
                _, loss = sess.run([train_op, model.loss], feed_dict)
                print("loss {:g}".format(loss))

            for i in range(4):
                train_step(x_train, y_train)
                current_step = tf.train.global_step(sess, global_step)
                if current_step % 2 == 0:
                    print("error", sess.run(model.error, {model.x: x_train, model.y: y_train, model.keep: 1.0}))


train(xs, ys)
'''


@pytest.mark.parametrize("program", [TRAIN_HERE, TRAIN_IN_FUNCTION], ids=["module", "function"])
def test_an_optimizer_built_on_an_objects_loss_trains_its_variables_with_tf1s_numbers(program):
    result = migrate_source(program, "train.py")
    assert result.outcome == "eager", result.compat_reason
    assert "def compute_loss" in result.new_source or "def compute_loss_error" in result.new_source
    assert "placeholder" not in result.new_source and "Session" not in result.new_source
    assert_same_output(run_legacy(program), run_migrated(result.new_source))


def test_the_members_a_run_needs_are_computed_once_by_one_method():
    # dropout draws once per run in TF1: loss and error of one run see the same mask
    result = migrate_source(TRAIN_HERE, "train.py")
    assert "def compute_loss_error(self, x, y, keep)" in result.new_source
    assert "model.compute_loss_error(x=x, y=y, keep=keep)" in result.new_source
    assert "self.w = w" in result.new_source  # a local of __init__ the module's optimizer trains


@pytest.mark.parametrize("run", [
    "sess.run(net.out + z, {net.x: np.ones((1, 2))})",
    "sess.run([net.out, z], {net.x: np.ones((1, 2))})",
    "sess.run(net.out, {net.x: np.ones((1, 2)), z: 1.0})",
])
def test_runs_mixing_an_objects_members_with_the_scopes_values_convert(run):
    source = CLASS + "net = Net(1.0)\nz = tf.constant(1.0)\n" + (
        f"with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n    print({run})\n")
    result = migrate_source(source, "net.py")
    assert result.outcome == "eager", result.compat_reason
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_an_objects_own_op_in_a_mixed_run_keeps_compat_with_the_reason():
    source = CLASS + "net = Net(1.0)\nz = tf.constant(1.0)\n" + (
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run([net.step, z], {net.x: np.ones((1, 2))}))\n")
    result = migrate_source(source, "net.py")
    assert result.outcome == "compat"
    assert "`net.step` is a member of a `Net` that only a run of the object's own members runs" in result.compat_reason


PROVIDER = MODEL.split("\n\nxs = ")[0].replace("import numpy as np\n", "")

IMPORTER = '''import numpy as np
import tensorflow as tf
from model import Model


def train(x_train, y_train):
    with tf.Graph().as_default():
        sess = tf.Session()
        with sess.as_default():
            model = Model(x_train.shape[1], y_train.shape[1])
            global_step = tf.Variable(0, name="global_step", trainable=False)
            optimizer = tf.train.AdamOptimizer(1e-2)
            grads_and_vars = optimizer.compute_gradients(model.loss)
            train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
            sess.run(tf.global_variables_initializer())

            def train_step(x_batch, y_batch):
                feed_dict = {model.x: x_batch, model.y: y_batch, model.keep: 1.0}
                _, loss, error = sess.run([train_op, model.loss, model.error], feed_dict)
                print("loss {:g} error {:g}".format(loss, error))

            for i in range(4):
                train_step(x_train, y_train)
                current_step = tf.train.global_step(sess, global_step)
                if current_step % 2 == 0:
                    print("pred", sess.run(model.pred, {model.x: x_train, model.keep: 1.0}))


if __name__ == "__main__":
    xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    ys = np.ones([4, 2], np.float32)
    train(xs, ys)
'''


@pytest.mark.parametrize("imports, name", [
    pytest.param("from model import Model", "Model", id="by name"),
    pytest.param("from model import *", "Model", id="a star import"),
    pytest.param("import model as models", "models.Model", id="the module imported whole"),
])
def test_another_modules_object_trained_by_the_importers_optimizer_prints_the_legacy_numbers(tmp_path, capsys,
                                                                                          imports, name):
    # the importer asks what a Model holds, then for the methods its runs need; both modules go eager
    importer = IMPORTER.replace("from model import Model", imports).replace("= Model(", f"= {name}(")
    code, outcomes, _ = migrate(tmp_path, {"model.py": PROVIDER, "train.py": importer}, "--verify-entry", "train.py")
    assert outcomes == {"model.py": "eager", "train.py": "eager"}
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    train, model = output(tmp_path, "train.py"), output(tmp_path, "model.py")
    assert "loss, error = model.compute_loss_error(x=x, y=y, keep=keep)" in train
    assert "tape.gradient(loss, [model.w, model.b])" in train  # TF1's order: the object's variables
    assert "def compute_loss_error(self, x, y, keep):" in model and "self.w = w" in model
    assert "placeholder" not in model + train and "Session" not in train


def test_an_importer_whose_provider_stays_compat_stays_compat_with_the_reason(tmp_path):
    provider = PROVIDER + "        self.queue = tf.RandomShuffleQueue(3, 0, tf.float32)\n"  # no eager form in tf-migrate
    _, outcomes, reasons = migrate(tmp_path, {"model.py": provider, "train.py": IMPORTER})
    assert outcomes == {"model.py": "compat", "train.py": "compat"}
    assert "RandomShuffleQueue" in reasons["model.py"] and "model.py" in reasons["train.py"]


def test_a_static_shape_of_a_value_computed_from_members_keeps_compat_with_the_reason():
    # its trace would need the object's placeholders, which no run feeds there (it crashed before the check)
    source = TRAIN_HERE.replace("sess = tf.Session()\n", "doubled = model.loss * 2.0\nprint(doubled.shape)\n"
                                "sess = tf.Session()\n")
    result = migrate_source(source, "train.py")
    assert result.outcome == "compat"
    assert "a placeholder of `model`'s graph, is needed and not fed" in result.compat_reason


def test_an_update_of_an_objects_learning_rate_variable_runs_from_module_code(tmp_path):
    # char-rnn's decay: `sess.run(tf.assign(model.lr, rate * decay ** epoch))` on a class with layers, whose members
    # the scope does not bind. `model.lr` is a variable the converted class keeps: the update is known (it was "a
    # value the analysis does not know"), and the Keras optimizer reads the variable through a callable.
    source = '''\
import numpy as np
import tensorflow as tf


class Model:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 3])
        self.y = tf.placeholder(tf.float32, [None, 1])
        out = tf.layers.dense(self.x, 1, kernel_initializer=tf.constant_initializer(0.2))
        self.loss = tf.reduce_mean(tf.square(out - self.y))
        self.lr = tf.Variable(0.0, trainable=False)
        self.train_op = tf.train.GradientDescentOptimizer(self.lr).minimize(self.loss)


model = Model()
xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 4
ys = np.array([[1.], [0.], [2.], [1.]], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for e in range(3):
        sess.run(tf.assign(model.lr, 0.05 * (0.9 ** e)))
        l, _ = sess.run([model.loss, model.train_op], {model.x: xs, model.y: ys})
        print(e, l, sess.run(model.lr))
'''
    result = migrate_source(source, "decay.py")
    assert result.outcome == "eager", result.compat_reason
    assert "model.lr.assign(0.05 * (0.9 ** e))" in result.new_source
    assert "tf.keras.optimizers.SGD(learning_rate=lambda: self.lr)" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "decay.py", timeout=240)  # (tf.layers)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_target_network_copies_over_lists_of_two_objects_variables():
    # The DQN target-network update: lists of two objects' variables, zipped into assign ops run every few steps.
    # A list of members bound to a name makes the objects' members the scope's values (it was "`copy_ops` holds a
    # python value"): the copy becomes a run function over the objects' variables.
    source = '''\
import numpy as np
import tensorflow as tf


class DQN:
    def __init__(self, n_in, n_out, name):
        with tf.variable_scope(name):
            self.x = tf.placeholder(tf.float32, [None, n_in])
            self.y = tf.placeholder(tf.float32, [None, n_out])
            self.w1 = tf.get_variable("w1", [n_in, 8], initializer=tf.constant_initializer(0.1))
            self.w2 = tf.get_variable("w2", [8, n_out], initializer=tf.constant_initializer(-0.05))
            self.q = tf.matmul(tf.nn.relu(tf.matmul(self.x, self.w1)), self.w2)
            self.loss = tf.reduce_mean(tf.square(self.q - self.y))
            self.train = tf.train.AdamOptimizer(0.01).minimize(self.loss)


main_net = DQN(3, 2, "main")
target_net = DQN(3, 2, "target")
main_vars = [main_net.w1, main_net.w2]
target_vars = [target_net.w1, target_net.w2]
copy_ops = [t.assign(m) for m, t in zip(main_vars, target_vars)]
xs = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        targets = sess.run(target_net.q, {target_net.x: xs}) * 0.9 + 1.0
        l, _ = sess.run([main_net.loss, main_net.train], {main_net.x: xs, main_net.y: targets})
        print(i, l)
        if i % 2 == 0:
            sess.run(copy_ops)
    print(sess.run(target_net.w2))
'''
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "copy_ops = [t.assign(m) for m, t in zip(main_vars, target_vars)]" in code and "Session" not in code
    assert_same_output(run_legacy(source), run_migrated(code))
