"""hessian_v1 / hessian_v2 against the closed form of sum(w * tanh(sum_k A_k x_k + b))."""

import numpy as np
import pytest
import tensorflow as tf
from compat_helpers import FAST, Problem, backends, check_both, small_shapes
from hypothesis import given
from hypothesis import strategies as st

from compat._common import METHODS

hessian_v1, hessian_v2 = backends("hessian")


def weighted_tanh(shapes, seed=0, unconnected=()):
    """Returns (problem, exact Hessian blocks H[i][j] of shape x_i.shape + x_j.shape)."""
    rng = np.random.default_rng(seed)
    sizes = [int(np.prod(s)) for s in shapes]
    a = [
        rng.standard_normal((4, n)) if k not in unconnected else np.zeros((4, n))
        for k, n in enumerate(sizes)
    ]
    b, w = rng.standard_normal(4), rng.standard_normal(4)
    values = [rng.standard_normal(s) for s in shapes]

    def fn(xs):
        z = tf.constant(b)
        for k, x in enumerate(xs):
            if k not in unconnected:
                z = z + tf.linalg.matvec(tf.constant(a[k]), tf.reshape(x, [-1]))
        return tf.reduce_sum(w * tf.tanh(z))

    t = np.tanh(b + sum(ak @ v.reshape(-1) for ak, v in zip(a, values)))
    d = w * -2 * t * (1 - t**2)  # second derivative of w * tanh
    blocks = [[(a[i].T * d) @ a[j] for j in range(len(shapes))] for i in range(len(shapes))]
    hessian = [
        [blocks[i][j].reshape(tuple(shapes[i]) + tuple(shapes[j])) for j in range(len(shapes))]
        for i in range(len(shapes))
    ]
    return Problem(fn, *values), hessian


@FAST
@given(
    shapes=st.lists(small_shapes, min_size=1, max_size=2),
    method=st.sampled_from(METHODS),
    form=st.sampled_from(["callable", "tensor"]),
)
def test_matches_closed_form(shapes, method, form):
    problem, expected = weighted_tanh(shapes)
    kwargs = dict(listed=True, method=method, form=form)
    check_both("hessian", problem, expected, np.float64, **kwargs)


@pytest.mark.parametrize("unconnected_gradients", ["none", "zero"])
def test_unconnected_blocks(unconnected_gradients):
    problem, expected = weighted_tanh([(2,), (3,)], unconnected={1})
    if unconnected_gradients == "none":
        expected = [[expected[0][0], None], [None, None]]
    kwargs = dict(listed=True, unconnected_gradients=unconnected_gradients, variables=True)
    check_both("hessian", problem, expected, np.float64, **kwargs)


def test_single_x_gives_one_tensor_of_shape_x_plus_x():
    problem, expected = weighted_tanh([(2, 1)])
    single = Problem(lambda x: problem.fn([x]), problem.values[0])
    v1, v2 = check_both("hessian", single, expected[0][0], np.float64)
    assert v1.shape == v2.shape == (2, 1, 2, 1)
