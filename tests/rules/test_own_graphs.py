"""own-graphs: a graph an object makes for itself (``self.g = tf.Graph()``) -> the default graph."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

# rasbt's linear regression (python-machine-learning-book-2nd-edition, ch13): the graph built in a method __init__
# calls under the object's graph, a session given `graph=lrmodel.g` in the module.
LINREG = """\
import numpy as np
import tensorflow as tf


class TfLinreg(object):
    def __init__(self, x_dim, learning_rate=0.01, random_seed=None):
        self.x_dim = x_dim
        self.learning_rate = learning_rate
        self.g = tf.Graph()
        ## build the model
        with self.g.as_default():
            tf.set_random_seed(random_seed)
            self.build()
            self.init_op = tf.global_variables_initializer()

    def build(self):
        self.X = tf.placeholder(dtype=tf.float32, shape=(None, self.x_dim), name='x_input')
        self.y = tf.placeholder(dtype=tf.float32, shape=(None), name='y_input')
        w = tf.Variable(tf.zeros(shape=(1)), name='weight')
        b = tf.Variable(tf.zeros(shape=(1)), name='bias')
        self.z_net = tf.squeeze(w * self.X + b, name='z_net')
        self.mean_cost = tf.reduce_mean(tf.square(self.y - self.z_net), name='mean_cost')
        self.optimizer = tf.train.GradientDescentOptimizer(learning_rate=self.learning_rate).minimize(self.mean_cost)


def train_linreg(sess, model, X_train, y_train, num_epochs=10):
    sess.run(model.init_op)
    training_costs = []
    for i in range(num_epochs):
        _, cost = sess.run([model.optimizer, model.mean_cost], feed_dict={model.X: X_train, model.y: y_train})
        training_costs.append(cost)
    return training_costs


X_train = np.arange(10).reshape((10, 1)).astype(np.float32)
y_train = np.array([1.0, 1.3, 3.1, 2.0, 5.0, 6.3, 6.6, 7.4, 8.0, 9.0], dtype=np.float32)
lrmodel = TfLinreg(x_dim=X_train.shape[1], learning_rate=0.01)
sess = tf.Session(graph=lrmodel.g)
print(train_linreg(sess, lrmodel, X_train, y_train))
print(sess.run(lrmodel.z_net, feed_dict={lrmodel.X: X_train[:3]}))
"""

# pat-coady's TRPO policy: the graph made in a private build method, the session made on it by another.
POLICY = """\
import numpy as np
import tensorflow as tf


class Policy(object):
    def __init__(self, obs_dim, act_dim):
        self.obs_dim, self.act_dim = obs_dim, act_dim
        self._build_graph()
        self._init_session()

    def _build_graph(self):
        self.g = tf.Graph()
        with self.g.as_default():
            self.obs_ph = tf.placeholder(tf.float32, (None, self.obs_dim), 'obs')
            self.act_ph = tf.placeholder(tf.float32, (None, self.act_dim), 'act')
            w = tf.Variable(tf.ones([self.obs_dim, self.act_dim]) * 0.1)
            self.means = tf.matmul(self.obs_ph, w)
            self.loss = tf.reduce_mean(tf.square(self.means - self.act_ph))
            self.train_op = tf.train.AdamOptimizer(0.05).minimize(self.loss)
            self.init = tf.global_variables_initializer()

    def _init_session(self):
        self.sess = tf.Session(graph=self.g)
        self.sess.run(self.init)

    def update(self, observes, actions):
        for e in range(3):
            _, loss = self.sess.run([self.train_op, self.loss], {self.obs_ph: observes, self.act_ph: actions})
            print(e, loss)

    def sample(self, obs):
        return self.sess.run(self.means, feed_dict={self.obs_ph: obs})


policy = Policy(3, 2)
observes = np.linspace(0.0, 1.0, 12).reshape(4, 3)
policy.update(observes, np.ones((4, 2)))
print(policy.sample(observes[:2]))
"""


@pytest.mark.parametrize("source, graph_gone", [
    pytest.param(LINREG, "sess = tf.Session(graph=lrmodel.g)", id="a build method under the object's graph"),
    pytest.param(POLICY, "self.sess = tf.Session(graph=self.g)", id="the graph and its session made by methods"),
])
def test_an_objects_own_graph_converts_and_prints_tf1s_numbers(tmp_path, source, graph_gone):
    # Compat before: "an optimizer made inside a compound statement (`with`)".
    result = migrate_source(source, "model.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "tf.Graph()" not in new and "graph=" not in new and "self.g " not in new and "as_default" not in new
    assert "    None\n" not in new  # (the run of the object's initializer alone is gone, not left as `None`)
    assert any(f.rule == "own-graphs" for f in result.findings) and graph_gone not in new
    verdict = verify_program(source, new, path=tmp_path / "model.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


@pytest.mark.parametrize("change", [
    pytest.param(("print(train_linreg(", "print(lrmodel.g.get_operations()[:1])\nprint(train_linreg("),
                 id="the graph read otherwise"),
    pytest.param(("        with self.g.as_default():\n", "        with self.g.as_default(), tf.device('/cpu:0'):\n"),
                 id="a with of more items"),
    pytest.param(("        self.g = tf.Graph()\n", "        self.g = tf.Graph()\n        self.g = tf.Graph()\n"),
                 id="bound twice"),
])
def test_left_as_it_is(change):
    result = migrate_source(LINREG.replace(*change), "model.py")
    assert not any(f.rule == "own-graphs" for f in result.findings)


def test_a_graph_wide_list_outside_the_objects_graph_keeps_it():
    # TF1's module-level list read the default graph, which held none of the object's variables.
    source = LINREG.replace("sess = tf.Session(graph=lrmodel.g)\n",
                            "sess = tf.Session(graph=lrmodel.g)\nprint(len(tf.trainable_variables()))\n")
    result = migrate_source(source, "model.py")
    assert any(f.rule == "own-graphs" and "left as it is" in f.message for f in result.findings)
    assert result.outcome == "compat"
