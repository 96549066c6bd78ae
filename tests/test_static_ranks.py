"""analysis.static_ranks: the rank of a value where the program text settles it, None elsewhere."""
import libcst as cst
import pytest

from tf_migrate.analysis.static_ranks import StaticRanks
from tf_migrate.tfnames import TFNames

HEAD = "import numpy as np\nimport tensorflow as tf\nrng = np.random.RandomState(0)\n"


@pytest.mark.parametrize("body, rank", [
    ("v = tf.placeholder(tf.float32, [None, 3])\n", 2),
    ("v = tf.Variable(np.linspace(-1, 1, 4).reshape(4, 1).astype(np.float32))\n", 2),
    ("v = tf.constant(rng.randn(3, 4, 5))\n", 3),
    ("a = tf.zeros([2, 3])\nv = tf.tanh(tf.matmul(a, tf.ones([3, 1]))) * 2.0\n", 2),
    ("v = tf.reshape(tf.zeros([2, 3]), [-1])\n", 1),
    ("v = np.zeros(5)\n", 1),
    ("v = tf.placeholder(tf.float32, shape)\n", None),
    ("v = tf.zeros([2, 3])\nv = tf.reduce_sum(v)\n", None),
    ("v = make()\n", None),
    ("v = tf.matmul(tf.zeros([2, 3, 4]), tf.zeros([4, 5]))\n", None),
])
def test_rank(body, rank):
    module = cst.parse_module(HEAD + body)
    ranks = StaticRanks(module, TFNames.scan(module))
    assert ranks.rank(cst.Name("v")) == rank
