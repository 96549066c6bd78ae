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
    ("y = tf.zeros([2, 3, 4])\nv = tf.reduce_mean(y, axis=0)\n", 2),
    ("y = tf.zeros([2, 3, 4])\nv = tf.reduce_sum(y, [0, -1])\n", 1),
    ("y = tf.zeros([2, 3, 4])\nv = tf.reduce_max(y)\n", 0),
    ("y = tf.zeros([2, 3, 4])\nv = tf.reduce_mean(y, 1, keepdims=True)\n", 3),
    ("y = tf.zeros([2, 3, 4])\nv = tf.reduce_mean(y, axis=k)\n", None),
    ("y = tf.zeros([2, 3, 4])\nv = tf.reduce_mean(y, axis=0, keepdims=keep)\n", None),
    ("v = tf.matmul(tf.zeros([2, 3, 4]), tf.zeros([4, 5]))\n", None),
])
def test_rank(body, rank):
    module = cst.parse_module(HEAD + body)
    ranks = StaticRanks(module, TFNames.scan(module))
    assert ranks.rank(cst.Name("v")) == rank


@pytest.mark.parametrize("axis, rank, expected", [
    (1, 3, "tf.transpose(j, [1, 0, 2])"),
    (-1, 3, "tf.transpose(j, [1, 2, 0])"),
    (2, 4, "tf.transpose(j, [1, 2, 0, 3])"),
    (1, None, "tf.transpose(j, [1, 0, *range(2, j.shape.rank)])"),
    (0, 3, "j"),
])
def test_a_stacked_jacobian_writes_its_permutation_where_its_rank_is_known(axis, rank, expected):
    from tf_migrate.rules._jacobian_code import stacked_along
    assert stacked_along("j", axis, "tf", rank) == expected
