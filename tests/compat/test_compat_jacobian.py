"""jacobian_v1 / jacobian_v2: shape y.shape + x.shape, same values, every method."""

import numpy as np
import pytest
import tensorflow as tf
from compat_helpers import (
    DTYPES,
    FAST,
    TanhLayer,
    assert_both_match,
    assert_close,
    backends,
    check_both,
    run_in_graph,
    run_v1,
    run_v2,
    small_shapes,
)
from hypothesis import given
from hypothesis import strategies as st

from compat._common import METHODS

jacobian_v1, jacobian_v2 = backends("jacobian")


@FAST
@given(
    y_shape=small_shapes,
    x_shape=small_shapes,
    dtype=st.sampled_from(DTYPES),
    method=st.sampled_from(METHODS),
    form=st.sampled_from(["callable", "tensor"]),
    variables=st.booleans(),
)
def test_matches_closed_form(y_shape, x_shape, dtype, method, form, variables):
    problem = TanhLayer(y_shape, [x_shape], dtype)
    (expected,) = problem.jacobians()
    v1, v2 = check_both(
        "jacobian", problem, expected, dtype, method=method, form=form, variables=variables
    )
    assert v1.dtype == v2.dtype == dtype


@FAST
@given(
    shapes=st.lists(small_shapes, min_size=1, max_size=3),
    method=st.sampled_from(METHODS),
    unconnected_gradients=st.sampled_from(["none", "zero", tf.UnconnectedGradients.ZERO]),
)
def test_list_of_xs_with_an_unconnected_one(shapes, method, unconnected_gradients):
    problem = TanhLayer((2,), shapes, np.float64, unconnected={len(shapes) - 1})
    kwargs = dict(listed=True, method=method, unconnected_gradients=unconnected_gradients)
    expected = problem.jacobians()
    if unconnected_gradients == "none":
        expected[-1] = None
    check_both("jacobian", problem, expected, np.float64, **kwargs)


@pytest.mark.parametrize("method", METHODS)
def test_tuple_of_xs_gives_a_tuple(method):
    x1, x2 = tf.constant([1.0, 2.0]), tf.constant(3.0)
    result = jacobian_v2(lambda xs: xs[0] * xs[1], (x1, x2), method=method)
    assert isinstance(result, tuple)
    np.testing.assert_allclose(result[0], 3 * np.eye(2))
    np.testing.assert_allclose(result[1], [1.0, 2.0])


@pytest.mark.parametrize("method", [m for m in METHODS if m != "loop"])
def test_unknown_dims_in_graph_mode(method):
    problem = TanhLayer((3,), [(2, 2)], np.float32)
    v1 = run_v1(jacobian_v1, problem, method=method, unknown_dims=True)
    assert_close(v1, problem.jacobians()[0], np.float32)


def test_unknown_dims_keep_the_known_static_shape():
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, (None, 3))
        jac = jacobian_v1(lambda x: tf.reduce_sum(x, 0) ** 2, x)
        assert jac.shape.as_list() == [3, None, 3]


def test_loop_needs_a_known_size():
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, (None,))
        with pytest.raises(ValueError, match="method='loop' needs the size"):
            jacobian_v1(lambda x: x**2, x, method="loop")


def test_float16():
    problem = TanhLayer((3,), [(2,)], np.float16)
    v1, v2 = check_both("jacobian", problem, problem.jacobians()[0], np.float16)
    assert v1.dtype == v2.dtype == np.float16


def test_x_of_another_dtype_gives_the_dtype_of_x():
    x = tf.constant([1.0, 2.0], tf.float64)
    for method in ("pfor", "forward"):
        jac = jacobian_v2(lambda x: tf.cast(x, tf.float32) ** 2, x, method=method)
        assert jac.dtype == tf.float64
        np.testing.assert_allclose(jac, np.diag([2.0, 4.0]))


def test_zero_size_y():
    x = tf.constant([1.0, 2.0])
    for fn in (lambda x: x[:0], lambda x: tf.zeros((0, 3)) * x[0]):
        jac = jacobian_v2(fn, x, method="loop")
        assert jac.shape == fn(x).shape + (2,)


def test_auto_uses_forward_mode_for_tall_jacobians(monkeypatch):
    from compat import _assemble

    calls = []
    original = _assemble.forward_jacobian
    monkeypatch.setattr(_assemble, "forward_jacobian", lambda *a: calls.append(1) or original(*a))
    problem = TanhLayer((12,), [(2,)], np.float64)
    v1 = run_v1(jacobian_v1, problem)
    v2 = run_v2(jacobian_v2, problem, cache=False)
    assert len(calls) == 2
    assert_both_match(v1, v2, problem.jacobians()[0], np.float64)
    run_v1(jacobian_v1, TanhLayer((2,), [(12,)], np.float64))
    assert len(calls) == 2


def tall_softsign(x):
    # SoftsignGrad has no gradient of its own: forward mode cannot go through it.
    return tf.nn.softsign(tf.tile(x, [4]))


SOFTSIGN_X = np.array([0.1, -0.2, 0.3], np.float32)
SOFTSIGN_JACOBIAN = np.tile(np.diag(1 / (1 + np.abs(SOFTSIGN_X)) ** 2), (4, 1))


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "eager"])
def test_auto_falls_back_to_reverse_mode_without_second_derivatives(cache):
    x = tf.constant(SOFTSIGN_X)
    with pytest.raises(LookupError, match="SoftsignGrad"):
        jacobian_v2(tall_softsign, x, method="forward", cache=cache)
    np.testing.assert_allclose(
        jacobian_v2(tall_softsign, x, cache=cache), SOFTSIGN_JACOBIAN, rtol=1e-6
    )
    v1 = run_in_graph(lambda: (jacobian_v1(tall_softsign, tf.constant(SOFTSIGN_X)), None))
    np.testing.assert_allclose(v1, SOFTSIGN_JACOBIAN, rtol=1e-6)


def test_non_persistent_tape_with_pfor_and_forward():
    x = tf.constant([1.0, 2.0])
    for method in ("auto", "pfor", "forward"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.stack([x[0] * x[1]] * 5)
        np.testing.assert_allclose(jacobian_v2(y, x, tape=tape, method=method), [[2.0, 1.0]] * 5)


def test_inside_tf_function_both_backends_work():
    x = tf.constant([1.0, 2.0, 3.0])

    @tf.function
    def both(x):
        return jacobian_v1(lambda x: x**2, x), jacobian_v2(lambda x: x**2, x)

    v1, v2 = both(x)
    np.testing.assert_allclose(v1, np.diag([2.0, 4.0, 6.0]))
    np.testing.assert_allclose(v2, v1)


def test_eager_variable_captured_by_tf_function():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def jac():
        return jacobian_v1(tf.reduce_prod(v) * v, v)

    np.testing.assert_allclose(jac(), [[4.0, 1.0], [4.0, 4.0]])
