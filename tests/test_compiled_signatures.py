"""Compiled run functions whose signature or keyword call TF would reject stay callable, and trace once."""
import re

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

UNDERSCORED = '''
import numpy as np
import tensorflow as tf

_inputs = tf.placeholder(tf.float32, [None, 2], name="inputs")
w = tf.Variable([[1.0], [2.0]])
y = tf.matmul(_inputs, w)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {_inputs: np.ones((3, 2))}))
'''


def test_an_underscored_placeholder_is_the_parameter_without_its_underscore():
    """TF renames a tf.function parameter `_inputs` to `arg__inputs`: a call `f(_inputs=...)` would not bind, so the
    parameter (and every call) is `inputs`, and the run compiles."""
    result = migrate_source(UNDERSCORED, "underscored.py")
    assert result.outcome == "eager", result.findings
    assert "@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])\ndef run_y(inputs):" \
        in result.new_source
    assert "y = tf.matmul(inputs, w)" in result.new_source
    assert "run_y(inputs=np.ones((3, 2)))" in result.new_source
    assert not any("starts with an underscore" in f.message for f in result.findings)
    assert_same_output(run_legacy(UNDERSCORED), run_migrated(result.new_source))


# hunkim's ReinforcementZeroToAll DQN: members `self._X`, `self._Y`, run in methods and, from outside, by a feed dict
# bound to a name (`**feed`).
UNDERSCORED_MEMBERS = '''
import numpy as np
import tensorflow as tf


class DQN:
    def __init__(self, session, input_size, output_size):
        self.session = session
        self._X = tf.placeholder(tf.float32, [None, input_size], name="input_x")
        W1 = tf.Variable(tf.reshape(tf.range(input_size * output_size, dtype=tf.float32), [input_size, output_size]))
        self._Qpred = tf.matmul(self._X, W1) / 10.0
        self._Y = tf.placeholder(shape=[None, output_size], dtype=tf.float32)
        self._loss = tf.reduce_mean(tf.square(self._Y - self._Qpred))
        self._train = tf.train.GradientDescentOptimizer(learning_rate=0.01).minimize(self._loss)

    def predict(self, state):
        return self.session.run(self._Qpred, feed_dict={self._X: np.reshape(state, [1, 4])})

    def update(self, x_stack, y_stack):
        return self.session.run([self._loss, self._train], feed_dict={self._X: x_stack, self._Y: y_stack})


with tf.Session() as sess:
    net = DQN(sess, 4, 2)
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(net.predict(np.ones(4) * i))
        print(net.update(np.ones([2, 4]) * i, np.ones([2, 2]))[0])
        feed = {net._X: np.ones([1, 4]) * i}
        print(sess.run(net._Qpred, feed))
'''


def test_underscored_members_are_parameters_of_compiled_methods_and_of_calls_from_outside():
    result = migrate_source(UNDERSCORED_MEMBERS, "dqn.py")
    assert result.outcome == "eager", result.findings
    assert "@tf.function\n    def run__Qpred(self, X):" in result.new_source
    assert "def run__loss__train(self, X, Y):" in result.new_source
    assert "_Qpred = tf.matmul(X, self.W1) / 10.0" in result.new_source
    assert "X=tf.cast(np.reshape(state, [1, 4]), tf.float32)" in result.new_source
    assert "feed = {'X': np.ones([1, 4]) * i}" in result.new_source
    assert "stays eager" not in " ".join(f.message for f in result.findings)
    assert_same_output(run_legacy(UNDERSCORED_MEMBERS), run_migrated(result.new_source))


def test_an_underscored_placeholder_whose_bare_name_the_run_also_reads_stays_compat():
    """`_x` as the parameter `x` would shadow the Python `x` the run reads (`y = _x * x` would be `x * x`)."""
    source = ("import tensorflow as tf\nx = 3.0\n_x = tf.placeholder(tf.float32, [None])\ny = _x * x\n"
              "with tf.Session() as sess:\n    for i in range(2):\n        print(sess.run(y, {_x: [1.0, i]}))\n")
    result = migrate_source(source, "shadow.py")
    assert result.outcome == "compat"
    assert "`_x` would be the parameter `x`, a name this run also reads" in result.compat_reason


def test_a_shape_item_of_a_literal_list_bound_once_is_written_into_the_signature():
    source = ("import numpy as np\nimport tensorflow as tf\ndimensions = [4, 2]\n"
              "x = tf.placeholder(tf.float32, [None, dimensions[0]])\ny = tf.reduce_sum(x * 2.0, 1)\n"
              "with tf.Session() as sess:\n    print(sess.run(y, {x: np.ones((3, 4))}))\n")
    result = migrate_source(source, "dims.py")
    assert result.outcome == "eager", result.findings
    assert "input_signature=[tf.TensorSpec([None, dimensions[0]], tf.float32)]" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_a_shape_item_of_a_list_the_program_changes_is_not():
    source = ("import numpy as np\nimport tensorflow as tf\ndimensions = [4, 2]\n"
              "x = tf.placeholder(tf.float32, [None, dimensions[0]])\ndimensions.reverse()\ny = tf.reduce_sum(x, 1)\n"
              "with tf.Session() as sess:\n    print(sess.run(y, {x: np.ones((3, 4))}))\n")
    result = migrate_source(source, "dims.py")
    assert "TensorSpec([None, dimensions[0]]" not in result.new_source


# MorvanZhou's dropout tutorial: `tf.placeholder(tf.bool, None)`, an unwritten shape, fed True and False.
UNSHAPED_FLAG = '''
import numpy as np
import tensorflow as tf
tf.set_random_seed(1)
x = tf.placeholder(tf.float32, [None, 1])
is_training = tf.placeholder(tf.bool, None)
h = tf.layers.dense(x, 8, tf.nn.relu)
h = tf.layers.dropout(h, rate=0.5, training=is_training)
out = tf.layers.dense(h, 1)
loss = tf.reduce_mean(tf.square(out - x))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
xs = np.linspace(-1, 1, 6)[:, None]
for t in range(3):
    sess.run(train, {x: xs, is_training: True})
    print(sess.run(loss, {x: xs, is_training: False}))
'''


def test_a_bool_placeholder_of_unwritten_shape_is_a_flag(tmp_path):
    """Given to the Keras layer as a tensor, it raised OperatorNotAllowedInGraphError in the compiled run."""
    from tf_migrate.verify import verify_program
    result = migrate_source(UNSHAPED_FLAG, "flag.py")
    assert result.outcome == "eager", result.compat_reason
    assert "TensorSpec(None, tf.bool)" not in result.new_source and "is_training = True" in result.new_source
    verdict = verify_program(UNSHAPED_FLAG, result.new_source, path=tmp_path / "flag.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail  # (TF1 layers need tf-keras)


# ljpzzz's DQN: placeholders shaped by the object's own sizes (no signature can be written), targets fed as a
# Python list of floats. Passed as they are, the floats were part of each trace's key: a new trace every step.
UNSIGNED_FEEDS = '''
import numpy as np
import tensorflow as tf


class Net:
    def __init__(self, dim):
        self.dim = dim
        self.x = tf.placeholder("float", [None, self.dim])
        self.y = tf.placeholder("float", [None])
        self.w = tf.Variable(tf.fill([self.dim, 1], 0.1))
        self.q = tf.reduce_sum(tf.matmul(self.x, self.w), 1)
        self.loss = tf.reduce_mean(tf.square(self.y - self.q))
        self.train = tf.train.GradientDescentOptimizer(0.01).minimize(self.loss)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def learn(self, states, targets):
        return self.sess.run([self.train, self.loss], feed_dict={self.x: states, self.y: targets})[1]


net = Net(3)
rng = np.random.RandomState(0)
for step in range(8):
    states = [rng.rand(3) for _ in range(4)]
    targets = [float(step) + 0.5 * i for i in range(4)]
    print(step, net.learn(states, targets))
'''


def test_feeds_of_a_function_without_a_signature_are_converted_where_it_is_called():
    result = migrate_source(UNSIGNED_FEEDS, "dqn.py")
    assert result.outcome == "eager", result.findings
    new = result.new_source
    assert "input_signature" not in new
    assert 'y=tf.cast(targets, "float")' in new and 'x=tf.cast(states, "float")' in new
    run = re.search(r"def (run_\w+)\(self", new).group(1)
    traced = new + f"print('traces', net.{run}.experimental_get_tracing_count())\n"
    assert run_migrated(traced).splitlines()[-1] == "traces 1"  # one trace for the eight steps
    assert_same_output(run_legacy(UNSIGNED_FEEDS), run_migrated(new))


def test_a_dtype_held_by_a_module_name_is_left_to_the_function_body():
    # `DTYPE` may not be readable where a call stands (another module answering its run): no conversion at the call.
    source = UNSIGNED_FEEDS.replace("import tensorflow as tf\n", "import tensorflow as tf\nDTYPE = tf.float32\n", 1) \
        .replace('tf.placeholder("float", [None])', "tf.placeholder(DTYPE, [None])")
    new = migrate_source(source, "dqn.py").new_source
    assert 'x=tf.cast(states, "float")' in new and "y=targets" in new


def _converted_tree(tmp_path, capsys, files, entry):
    """Each module of the tree migrated eager, the entry verified equivalent: module name -> its migrated source."""
    from tests.trees import migrate, output
    from tf_migrate.cli import EXIT_OK
    code, outcomes, reasons = migrate(tmp_path, files, "--verify-entry", entry)
    assert outcomes == {name: "eager" for name in files}, reasons
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    return {name: output(tmp_path, name) for name in files}


def test_underscored_members_of_another_modules_class_are_called_by_the_same_keywords(tmp_path, capsys):
    model, driver = UNDERSCORED_MEMBERS.split("\n\nwith tf.Session() as sess:\n")
    train = ("import numpy as np\nimport tensorflow as tf\nimport dqn\n\nwith tf.Session() as sess:\n"
             + driver.replace("DQN(sess", "dqn.DQN(sess"))
    migrated = _converted_tree(tmp_path, capsys, {"dqn.py": model, "train.py": train}, "train.py")
    assert "feed = {'X': np.ones([1, 4]) * i}" in migrated["train.py"]
    assert "def run__Qpred(self, X):" in migrated["dqn.py"]


UNDERSCORED_MEMBER_GRAPH = '''
import numpy as np
import tensorflow as tf


class Net:
    def __init__(self):
        self._x = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable([[1.0], [2.0]])
        self.out = tf.matmul(self._x, self.w)
        self.loss = tf.reduce_sum(self.out)


net = Net()
train = tf.train.GradientDescentOptimizer(0.1).minimize(net.loss)
double = net.out * 2.0
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        l, _ = sess.run([net.loss, train], {net._x: np.ones([2, 2]) * i})
        print(l, sess.run(double, feed_dict={net._x: [[1.0, i]]}))
'''


def test_an_underscored_member_read_by_graph_code_outside_the_class_is_one_parameter():
    """The class's member methods (`compute_loss(self, x)`) and the run functions outside it name `net._x` alike."""
    result = migrate_source(UNDERSCORED_MEMBER_GRAPH, "net.py")
    assert result.outcome == "eager", result.findings
    assert "def compute_loss(self, x):" in result.new_source
    assert "loss = net.compute_loss(x=x)" in result.new_source
    assert_same_output(run_legacy(UNDERSCORED_MEMBER_GRAPH), run_migrated(result.new_source))


def test_an_underscored_member_of_another_modules_class_is_one_parameter_there_too(tmp_path, capsys):
    model, driver = UNDERSCORED_MEMBER_GRAPH.split("\n\nnet = Net()\n")
    main = "import numpy as np\nimport tensorflow as tf\nfrom netmod import Net\n\nnet = Net()\n" + driver
    migrated = _converted_tree(tmp_path, capsys, {"netmod.py": model, "main.py": main}, "main.py")
    assert "loss = net.compute_loss(x=x)" in migrated["main.py"]
    assert "def compute_loss(self, x):" in migrated["netmod.py"]
