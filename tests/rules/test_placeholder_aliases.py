"""placeholder-aliases, and the SOM it opens (BinRoot's TensorFlow-Book, ch05): placeholders made as locals of
``__init__`` and kept on the object; a ``train()`` that opens its own session and initializes, called once."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

SOM = """\
import numpy as np
import tensorflow as tf
tf.set_random_seed(0)


class SOM:
    def __init__(self, width, height, dim):
        self.num_iters = 5
        self.width, self.height, self.dim = width, height, dim
        nodes = tf.Variable(tf.random_normal([width * height, dim]))
        self.nodes = nodes
        x = tf.placeholder(tf.float32, [dim])
        iter = tf.placeholder(tf.float32)
        self.x = x
        self.iter = iter
        dists = tf.reduce_sum(tf.square(tf.expand_dims(x, 0) - self.nodes), 1)
        bmu = tf.argmin(dists, 0)
        rate = 0.5 * (1.0 - iter / self.num_iters)
        near = tf.one_hot(bmu, width * height)[:, None] * rate
        self.propagate_nodes = tf.assign(self.nodes, self.nodes + near * (x - self.nodes))

    def train(self, data):
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(self.num_iters):
                for data_x in data:
                    sess.run(self.propagate_nodes, feed_dict={self.x: data_x, self.iter: i})
            self.nodes_val = sess.run(self.nodes)


colors = np.array([[0., 0., 1.], [0., 1., 0.], [1., 0., 0.], [1., 1., 0.]])
som = SOM(2, 2, 3)
som.train(colors)
print(np.round(som.nodes_val, 4))
"""


def test_the_som_converts_and_prints_tf1s_numbers(tmp_path):
    result = migrate_source(SOM, "som.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "self.x = tf.placeholder" not in new and "tf.Session" not in new and "initializer" not in new
    assert any(f.rule == "placeholder-aliases" and "`x` kept as `self.x`" in f.message for f in result.findings)
    verdict = verify_program(SOM, new, path=tmp_path / "som.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


@pytest.mark.parametrize("change, why", [
    pytest.param(("som.train(colors)\n", "som.train(colors)\nsom.train(colors)\n"),
                 "an initializer run in method `train`", id="trained twice: TF1 initialized again"),
    pytest.param(("som.train(colors)\n", "for _ in range(2):\n    som.train(colors)\n"),
                 "an initializer run in method `train`", id="trained in a loop"),
    pytest.param(("som = SOM(2, 2, 3)\n", "other = SOM(2, 2, 3)\nsom = SOM(2, 2, 3)\n"),
                 "an initializer run in method `train`", id="two objects"),
])
def test_an_initializer_a_method_may_run_again_stays_compat(change, why):
    result = migrate_source(SOM.replace(*change), "som.py")
    assert result.outcome == "compat" and why in result.compat_reason, result.compat_reason


def test_an_optimizer_of_tf_train_does_not_count_as_a_second_call_of_train(tmp_path):
    source = SOM.replace("        self.propagate_nodes = ", "        self.unused = tf.train.GradientDescentOptimizer(0.1)\n"
                         "        self.propagate_nodes = ")
    result = migrate_source(source, "som.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "som.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_a_local_bound_again_is_not_moved():
    source = SOM.replace("        self.x = x\n", "        self.x = x\n        x = x * 1.0\n")
    result = migrate_source(source, "som.py")
    assert not any(f.rule == "placeholder-aliases" and "`x` kept" in f.message for f in result.findings)
