"""batch_jacobian_v1 / _v2: (B,) + y.shape[1:] + x.shape[1:], unknown batch in graph mode."""

import numpy as np
import pytest
import tensorflow as tf
from compat_helpers import (
    DTYPES,
    FAST,
    Problem,
    TanhLayer,
    assert_close,
    backends,
    check_both,
    run_v1,
    small_shapes,
)
from hypothesis import given
from hypothesis import strategies as st

from compat._common import METHODS

batch_jacobian_v1, batch_jacobian_v2 = backends("batch_jacobian")


@FAST
@given(
    batch=st.integers(1, 3),
    y_shape=small_shapes,
    x_shape=small_shapes,
    dtype=st.sampled_from(DTYPES),
    method=st.sampled_from(METHODS),
    form=st.sampled_from(["callable", "tensor"]),
    unknown_dims=st.booleans(),
)
def test_matches_closed_form(batch, y_shape, x_shape, dtype, method, form, unknown_dims):
    problem = TanhLayer(y_shape, [x_shape], dtype, batch=batch)
    if method == "loop":
        unknown_dims = False  # loop needs the size of an example
    kwargs = dict(method=method, form=form, unknown_dims=unknown_dims)
    check_both("batch_jacobian", problem, problem.jacobians()[0], dtype, **kwargs)


@pytest.mark.parametrize("method", METHODS)
def test_none_batch_dim_with_list_of_xs(method):
    problem = TanhLayer((2,), [(3,), (1,)], np.float64, batch=4, unconnected={1})
    kwargs = dict(listed=True, unknown_batch=True, method=method, unconnected_gradients="zero")
    check_both("batch_jacobian", problem, problem.jacobians(), np.float64, **kwargs)


def test_static_shape_keeps_the_unknown_batch():
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, (None, 3))
        jac = batch_jacobian_v1(lambda x: tf.stack([x, 2 * x], 1), x)
        assert jac.shape.as_list() == [None, 2, 3, 3]


def test_unconnected_gives_none_unlike_tape_batch_jacobian():
    x, z = tf.ones((2, 3)), tf.ones((2, 1))
    result = batch_jacobian_v2(lambda xs: xs[0] ** 2, [x, z])
    assert result[1] is None
    assert batch_jacobian_v2(lambda xs: xs[0] ** 2, [x, z], unconnected_gradients="zero")[
        1
    ].shape == (2, 3, 1)


def test_batch_sizes_that_differ_at_run_time_fail():
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, (None, 2))
        z = tf.compat.v1.placeholder(tf.float32, (None, 2))
        jac = batch_jacobian_v1(x * tf.reduce_sum(z), z)
        with tf.compat.v1.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="batch sizes differ"):
                sess.run(jac, {x: np.ones((2, 2)), z: np.ones((3, 2))})


def test_mlp_matches_finite_differences():
    rng = np.random.default_rng(1)
    w1, w2 = rng.standard_normal((3, 5)), rng.standard_normal((5, 2))

    def mlp(x):
        return tf.nn.relu(tf.tanh(x @ w1) @ w2) + tf.sin(x[:, :2])

    x = rng.standard_normal((4, 3))
    eps, expected = 1e-6, np.zeros((4, 2, 3))
    for j in range(3):
        step = np.zeros(3)
        step[j] = eps
        expected[:, :, j] = (mlp(x + step) - mlp(x - step)).numpy() / (2 * eps)
    v2 = batch_jacobian_v2(mlp, tf.constant(x)).numpy()
    v1 = run_v1(batch_jacobian_v1, Problem(mlp, x), unknown_batch=True)
    assert_close(v2, expected, np.float32)  # finite differences: float32 tolerance
    assert_close(v1, v2, np.float64)
