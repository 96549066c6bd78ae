"""per_output_grad, jvp, gradients and vjp: both backends against closed forms."""

import numpy as np
import pytest
import tensorflow as tf
from compat_helpers import (
    DTYPES,
    FAST,
    Problem,
    TanhLayer,
    check_both,
    small_shapes,
)
from hypothesis import given
from hypothesis import strategies as st

import compat

forms = st.sampled_from(["callable", "tensor"])


def sum_over_x(jac, x_shape):
    return jac.sum(axis=tuple(range(jac.ndim - len(x_shape), jac.ndim)))


@FAST
@given(y_shape=small_shapes, x_shape=small_shapes, dtype=st.sampled_from(DTYPES), form=forms)
def test_per_output_grad_is_the_jacobian_summed_over_x(y_shape, x_shape, dtype, form):
    problem = TanhLayer(y_shape, [x_shape], dtype)
    expected = sum_over_x(problem.jacobians()[0], x_shape)
    v1, v2 = check_both("per_output_grad", problem, expected, dtype, form=form)
    assert v1.shape == y_shape and v1.dtype == v2.dtype == dtype


@pytest.mark.parametrize("form", ["callable", "tensor"])
@pytest.mark.parametrize("unconnected_gradients", ["none", "zero"])
def test_per_output_grad_of_a_list_of_xs(form, unconnected_gradients):
    problem = TanhLayer((2, 2), [(3,), (), (2, 1)], np.float64, unconnected={1})
    kwargs = dict(
        form=form, listed=True, variables=True, unconnected_gradients=unconnected_gradients
    )
    expected = [sum_over_x(j, s) for j, s in zip(problem.jacobians(), problem.x_shapes)]
    if unconnected_gradients == "none":
        expected[1] = None
    check_both("per_output_grad", problem, expected, np.float64, **kwargs)


def test_per_output_grad_of_an_elementwise_function_is_its_derivative():
    x = np.linspace(-1, 1, 6).reshape(2, 3)
    problem = Problem(lambda x: 2 * x**2, x)  # the seed question's y = 2 x**2
    check_both("per_output_grad", problem, 4 * x, np.float64)


@pytest.mark.parametrize("form", ["callable", "tensor"])
def test_per_output_grad_falls_back_to_reverse_mode(form):
    problem = Problem(lambda x: tf.nn.softsign(x) * x[0], np.array([0.5, -1.0]))
    x0, x1 = problem.values[0]
    expected = [
        (1 / (1 + abs(x0)) ** 2) * x0 + x0 / (1 + abs(x0)),
        (1 / (1 + abs(x1)) ** 2) * x0 + x1 / (1 + abs(x1)),
    ]
    check_both("per_output_grad", problem, np.array(expected), np.float64, form=form)


@FAST
@given(
    shapes=st.lists(small_shapes, min_size=1, max_size=2),
    dtype=st.sampled_from(DTYPES),
    form=forms,
    seed=st.integers(0, 3),
)
def test_jvp_is_j_times_tangents_summed_over_xs(shapes, dtype, form, seed):
    problem = TanhLayer((3,), shapes, dtype, seed=seed)
    rng = np.random.default_rng(seed)
    tangents = [rng.standard_normal(s).astype(dtype) for s in shapes]
    kwargs = dict(form=form, listed=True, args=(tangents,))
    expected = sum(
        np.tensordot(j, t, axes=len(s)) for j, t, s in zip(problem.jacobians(), tangents, shapes)
    )
    check_both("jvp", problem, expected, dtype, **kwargs)


@pytest.mark.parametrize("unconnected_gradients", ["none", "zero"])
def test_jvp_of_an_unconnected_x(unconnected_gradients):
    problem = TanhLayer((3,), [(2,)], np.float64, unconnected={0})
    kwargs = dict(args=(np.ones(2),), unconnected_gradients=unconnected_gradients)
    expected = None if unconnected_gradients == "none" else np.zeros(3)
    check_both("jvp", problem, expected, np.float64, **kwargs)


@FAST
@given(y_shape=small_shapes, x_shape=small_shapes, dtype=st.sampled_from(DTYPES), form=forms)
def test_vjp_is_grad_ys_times_j(y_shape, x_shape, dtype, form):
    problem = TanhLayer(y_shape, [x_shape], dtype)
    u = np.random.default_rng(0).standard_normal(y_shape).astype(dtype)
    kwargs = dict(form=form, args=(u,))
    expected = np.tensordot(u, problem.jacobians()[0], axes=len(y_shape))
    check_both("vjp", problem, expected, dtype, **kwargs)


@pytest.mark.parametrize("form", ["callable", "tensor"])
@pytest.mark.parametrize("reduce", ["sum", "mean"])
def test_gradients_sum_or_mean_over_the_batch(form, reduce):
    problem = TanhLayer((2,), [(3,)], np.float64, batch=4)
    expected = problem.jacobians()[0].sum(axis=1)  # per-example rows, summed over y
    if reduce == "mean":
        expected = expected / 4
    check_both(
        "gradients", problem, expected, np.float64, form=form, reduce=reduce, unknown_batch=True
    )


def test_gradients_with_grad_ys_and_several_ys_ddpg_style():
    # DDPG: tf.gradients(actor_out, params, -action_grads) / batch_size.
    action_grads = np.array([[1.0, -2.0], [0.5, 0.0], [3.0, 1.0]])
    w = np.array([[0.3, -0.1], [0.2, 0.4]])
    problem = Problem(
        lambda w: [tf.constant([[1.0, 2.0], [0.0, 1.0], [2.0, 2.0]], tf.float64) @ w] * 2, w
    )
    grad_ys = [-action_grads, -action_grads]
    states = np.array([[1.0, 2.0], [0.0, 1.0], [2.0, 2.0]])
    expected = 2 * states.T @ -action_grads / 3
    kwargs = dict(grad_ys=grad_ys, reduce="mean")
    check_both("gradients", problem, expected, np.float64, **kwargs)


def test_gradients_of_a_list_of_xs_keep_the_structure():
    problem = TanhLayer((), [(2,), (3,)], np.float64, unconnected={1})
    for unconnected_gradients, second in [("none", None), ("zero", np.zeros(3))]:
        kwargs = dict(listed=True, unconnected_gradients=unconnected_gradients)
        expected = [problem.jacobians()[0], second]
        check_both("gradients", problem, expected, np.float64, **kwargs)


def test_gradients_of_a_gather_stay_indexed_slices_and_mean_divides_them():
    table = tf.Variable(tf.ones((5, 2)))
    with tf.GradientTape() as tape:
        y = tf.gather(table, [0, 2, 2, 4])
    grad = compat.gradients_v2(y, table, tape=tape, reduce="mean")
    assert isinstance(grad, tf.IndexedSlices)
    np.testing.assert_allclose(tf.convert_to_tensor(grad)[:, 0], [0.25, 0, 0.5, 0, 0.25])
