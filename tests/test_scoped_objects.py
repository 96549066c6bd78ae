"""A variable collection filtered by a scope that names whole objects (a DQN's target-network copy): listed as the
objects' variables (analysis/scoped_classes, analysis/scoped_objects), or compat with the reason."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

# hunkim's ReinforcementZeroToAll dqn.py shape: every variable under `tf.variable_scope(self.net_name)`.
DQN = '''import numpy as np
import tensorflow as tf
tf.set_random_seed(3)


class DQN:
    def __init__(self, session, input_size, output_size, name="main"):
        self.session = session
        self.input_size = input_size
        self.output_size = output_size
        self.net_name = name
        self._build_network()

    def _build_network(self, h_size=8, l_rate=0.1):
        with tf.variable_scope(self.net_name):
            self._X = tf.placeholder(tf.float32, [None, self.input_size], name="input_x")
            net = tf.layers.dense(self._X, h_size, activation=tf.nn.relu)
            self._Qpred = tf.layers.dense(net, self.output_size)
            self._Y = tf.placeholder(tf.float32, shape=[None, self.output_size])
            self._loss = tf.reduce_mean(tf.square(self._Y - self._Qpred))
            EXTRA
            self._train = tf.train.GradientDescentOptimizer(l_rate).minimize(self._loss)

    def predict(self, state):
        x = np.reshape(state, [-1, self.input_size])
        return self.session.run(self._Qpred, feed_dict={self._X: x})

    def update(self, x_stack, y_stack):
        return self.session.run([self._loss, self._train], {self._X: x_stack, self._Y: y_stack})


FUNCTION
states = np.linspace(-1.0, 1.0, 12).reshape(3, 4).astype(np.float32)
with tf.Session() as sess:
    mainDQN = DQN(sess, 4, 2, name=MAIN)
    targetDQN = DQN(sess, 4, 2, name="target")
    sess.run(tf.global_variables_initializer())
    COPY
    print(np.allclose(mainDQN.predict(states), targetDQN.predict(states)))
    sess.run(copy_ops)
    print(np.allclose(mainDQN.predict(states), targetDQN.predict(states)))
    for step in range(3):
        loss, _ = mainDQN.update(states, np.ones([3, 2], np.float32))
        print(round(float(loss), 4), np.round(targetDQN.predict(states[:1]), 4))
    sess.run(copy_ops)
    print(np.round(targetDQN.predict(states[:1]), 4))
'''

INLINE_COPY = '''copy_ops = []
    src_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=SOURCE)
    dest_vars = tf.get_collection(KEY, scope="target")
    for src_var, dest_var in zip(src_vars, dest_vars):
        copy_ops.append(dest_var.assign(src_var.value()))'''

# hunkim's 07_3_dqn_2015_cartpole.py shape: the copy built by a function called once.
COPY_FUNCTION = '''def get_copy_var_ops(*, dest_scope_name: str, src_scope_name: str) -> List[tf.Operation]:
    op_holder = []
    src_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=src_scope_name)
    dest_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=dest_scope_name)
    for src_var, dest_var in zip(src_vars, dest_vars):
        op_holder.append(dest_var.assign(src_var.value()))
    return op_holder

'''


def _program(copy: str = INLINE_COPY, function: str = "", extra: str = "", main: str = '"main"',
             source: str = '"main"', key: str = "tf.GraphKeys.TRAINABLE_VARIABLES") -> str:
    return (DQN.replace("COPY", copy).replace("FUNCTION\n", function).replace("EXTRA", extra or "pass")
            .replace("MAIN", main).replace("SOURCE", source).replace("KEY", key))


def test_the_target_network_copy_lists_each_objects_variables_and_runs_as_tf1(tmp_path):
    source = _program()
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "eager", result.findings
    assert "src_vars = [*mainDQN.dense.trainable_variables, *mainDQN.dense_2.trainable_variables]" \
        in result.new_source
    assert "dest_vars = [*targetDQN.dense.trainable_variables, *targetDQN.dense_2.trainable_variables]" \
        in result.new_source
    assert "dest_var.assign(tf.convert_to_tensor(src_var))" in result.new_source  # (Keras 3 variables)
    verdict = verify_program(source, result.new_source, path=tmp_path / "dqn.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_the_copy_built_by_a_function_called_once_runs_in_place(tmp_path):
    source = "from typing import List\n" + _program(
        copy='copy_ops = get_copy_var_ops(dest_scope_name="target", src_scope_name="main")', function=COPY_FUNCTION)
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "eager", result.findings
    assert "def get_copy_var_ops" not in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "dqn.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_scope_that_is_a_prefix_of_an_objects_name_selects_it_whole():
    source = _program(main='"main_net"', source='"main"')
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "eager", result.findings
    assert "src_vars = [*mainDQN.dense.trainable_variables, *mainDQN.dense_2.trainable_variables]" \
        in result.new_source


@pytest.mark.parametrize("change, reason", [
    (dict(source='"main/dense"'), "the filter 'main/dense' selects part of the variables of `mainDQN`"),
    (dict(main='"target"'), "two objects built under the same variable scope name"),
    (dict(main="names[0]"), "built with a scope name that is not a literal"),
    (dict(key="tf.GraphKeys.GLOBAL_VARIABLES"), "also holds its optimizer's slots"),
    (dict(source='"ma.n"'), "a pattern that is not a plain scope name"),
])
def test_what_the_objects_names_do_not_settle_stays_compat(change, reason):
    source = _program(**change).replace("states = np.linspace", 'names = ["main"]\nstates = np.linspace')
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "compat"
    assert reason in result.compat_reason


def test_a_class_making_a_variable_outside_its_scope_is_not_listed():
    outside = _program().replace("        self._build_network()\n",
                                 "        self._build_network()\n        self.step = tf.Variable(0.0)\n")
    result = migrate_source(outside, "dqn.py")
    assert result.outcome == "compat"
    assert "`DQN` is built or called before this read" in result.compat_reason
    looped = _program(extra="for _ in range(2):\n                net = tf.layers.dense(net, 8)")
    assert migrate_source(looped, "dqn.py").outcome == "compat"


def test_a_class_of_another_module_is_asked_for_its_objects_variables(tmp_path, capsys):
    # hunkim's ReinforcementZeroToAll: dqn.py holds the class; 07_3 builds two objects in main() and copies.
    from tests.trees import migrate, output
    from tf_migrate.cli import EXIT_OK
    model = DQN.split("\n\nFUNCTION")[0].replace("            EXTRA\n", "").replace("tf.set_random_seed(3)\n", "")
    train = ("import numpy as np\nimport tensorflow as tf\nfrom typing import List\nimport dqn\n\n"
             + COPY_FUNCTION + "\ndef main():\n    tf.set_random_seed(3)\n"
             + "\n".join("    " + line if line else line for line in DQN.split("FUNCTION\n")[1].replace(
                 "DQN(sess", "dqn.DQN(sess").replace("MAIN", '"main"').replace("COPY", (
                     'copy_ops = get_copy_var_ops(dest_scope_name="target", src_scope_name="main")')).splitlines())
             + "\n\nif __name__ == '__main__':\n    main()\n")
    code, outcomes, reasons = migrate(tmp_path, {"dqn.py": model, "train.py": train}, "--verify-entry", "train.py")
    assert outcomes == {"dqn.py": "eager", "train.py": "eager"}, reasons
    assert code == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
    migrated = output(tmp_path, "train.py")
    assert "src_vars = [*mainDQN.dense.trainable_variables, *mainDQN.dense_2.trainable_variables]" in migrated
    # (the session argument dropped once: the function's pass dropped it a second time, `dqn.DQN(2, name="main")`)
    assert 'mainDQN = dqn.DQN(4, 2, name="main")' in migrated


def test_a_filter_selecting_the_scopes_own_variables_and_an_objects_stays_compat():
    source = _program().replace('states = np.linspace', 'with tf.variable_scope("main_extra"):\n'
                                '    extra = tf.Variable(1.0)\nstates = np.linspace')
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "compat"
    assert "the filter selects variables of the scope and of objects built in it" in result.compat_reason


GET_VARIABLE_LAYERS = '''            W1 = tf.get_variable("W1", shape=[self.input_size, h_size], initializer=tf.glorot_uniform_initializer())
            layer1 = tf.nn.tanh(tf.matmul(self._X, W1))
            W2 = tf.get_variable("W2", shape=[h_size, self.output_size], initializer=tf.glorot_uniform_initializer())
            self._Qpred = tf.matmul(layer1, W2)'''
TF_LAYERS = '''            net = tf.layers.dense(self._X, h_size, activation=tf.nn.relu)
            self._Qpred = tf.layers.dense(net, self.output_size)'''


def test_variables_made_by_get_variable_are_listed_by_the_attributes_the_class_keeps(tmp_path):
    source = _program().replace(TF_LAYERS, GET_VARIABLE_LAYERS)
    result = migrate_source(source, "dqn.py")
    assert result.outcome == "eager", result.compat_reason
    assert "src_vars = [mainDQN.W1, mainDQN.W2]" in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "dqn.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


@pytest.mark.parametrize("layers", [
    pytest.param("            net = build_mlp(self._X, h_size)\n", id="a helper of the module"),
    pytest.param("            net = ops.linear(self._X, h_size)\n", id="a function of another module"),
    pytest.param("            with tf.variable_scope(tf.get_variable_scope()):\n"
                 "                net = tf.layers.dense(self._X, h_size)\n", id="a scope object reopened"),
    pytest.param("            net = tf.layers.batch_normalization(self._X)\n", id="an API the class listing skips"),
])
def test_a_class_whose_variables_the_text_does_not_settle_is_not_scoped(layers):
    import libcst as cst
    from tf_migrate.analysis.scoped_classes import scoped_classes
    from tf_migrate.tfnames import TFNames
    source = "import ops\n" + _program().replace(TF_LAYERS, layers + "            self._Qpred = net")
    module = cst.parse_module(source)
    assert scoped_classes(module, TFNames.scan(module)) == {}
    assert "DQN" in scoped_classes(*(lambda m: (m, TFNames.scan(m)))(cst.parse_module(_program())))
