"""The two seed documents (shared/seeds/) as tests, and their broken TF1 recipes pinned."""

import numpy as np
import pytest
import tensorflow as tf
from compat_helpers import Problem, backends, check_both, run_in_graph

gradients_v1, gradients_v2 = backends("gradients")
jacobian_v1, jacobian_v2 = backends("jacobian")
per_output_grad_v1, per_output_grad_v2 = backends("per_output_grad")

X_VAL = np.array([[5, 3, 7], [2, 2, 5], [7, 5, 0], [3, 7, 6]], np.float32)  # seed 000's x
RNG = np.random.default_rng(0)
A_VAL = RNG.standard_normal((100, 50)).astype(np.float32)
X50 = RNG.standard_normal((50, 1)).astype(np.float32)


def test_tf_gradients_sums_over_y_so_stacking_y_twice_doubles_it():
    y = Problem(lambda x: 2 * x**2, X_VAL)
    z = Problem(lambda x: tf.stack([2 * x**2, 2 * x**2]), X_VAL)
    dy_dx = 4 * X_VAL  # the seed's printed dy/dx
    check_both("gradients", y, dy_dx, np.float32, unknown_batch=True)
    check_both("gradients", z, 2 * dy_dx, np.float32, unknown_batch=True)


def test_dividing_by_the_batch_size_is_reduce_mean():
    z = Problem(lambda x: tf.stack([2 * x**2, 2 * x**2]), X_VAL)
    # z's axis 0 is the stack (2), not the batch: mean divides by that axis.
    check_both("gradients", z, 4 * X_VAL, np.float32, reduce="mean")


def seed_matmul(x):
    return tf.matmul(A_VAL, x)  # y = A @ x, y.shape = (100, 1)


@pytest.mark.parametrize("variables", [False, True], ids=["tensor x", "Variable x"])
def test_jacobian_of_a_matmul_has_shape_100_1_50_1(variables):
    problem = Problem(seed_matmul, X50)
    expected = np.broadcast_to(A_VAL[:, None, :, None], (100, 1, 50, 1))
    v1, v2 = check_both("jacobian", problem, expected, np.float32, variables=variables)
    assert v1.shape == v2.shape == (100, 1, 50, 1)


def test_y_shaped_derivative_of_a_matmul_has_shape_100_1():
    problem = Problem(seed_matmul, X50)
    expected = A_VAL.sum(axis=1, keepdims=True)  # the seed's reduce_sum(jacobian, [2, 3])
    v1, v2 = check_both("per_output_grad", problem, expected, np.float32)
    assert v1.shape == v2.shape == (100, 1)


def test_scalar_x_gives_a_jacobian_of_y_shape():
    problem = Problem(lambda x: tf.stack([x**2, x**3]), np.float32(2.0))
    for name in ("jacobian", "per_output_grad"):
        v1, v2 = check_both(name, problem, np.array([4.0, 12.0]), np.float32, variables=True)
        assert v1.shape == v2.shape == (2,)


def seed_map_fn_recipe():
    x = tf.compat.v1.Variable(X50)
    y = tf.matmul(A_VAL, x)

    def single_element_grad(y_element):
        return tf.gradients(y_element, x)[0]

    per_element_grads = tf.map_fn(single_element_grad, tf.squeeze(y))
    dy_dx = tf.expand_dims(tf.reduce_sum(per_element_grads, axis=1), axis=1)
    return [dy_dx, per_output_grad_v1(y, x)], None


@pytest.fixture
def tf1_control_flow():
    """TF1's control flow (TensorArray v1), as legacy programs run with disable_v2_behavior."""
    was_enabled = tf.compat.v1.control_flow_v2_enabled()
    tf.compat.v1.disable_control_flow_v2()
    yield
    if was_enabled:
        tf.compat.v1.enable_control_flow_v2()


def test_seed_map_fn_recipe_fails_at_run_time_in_tf1(tf1_control_flow):
    """Mapping over y's elements reads each one twice; the shims map over indices.

    Which of the TensorArray kernel's two messages for a second read comes depends on the order in
    which map_fn's parallel iterations run (CI once got the second)."""
    second_read = "because it has already been read|twice because it was cleared after a previous read"
    with pytest.raises(tf.errors.InvalidArgumentError, match=second_read):
        run_in_graph(seed_map_fn_recipe)


def test_seed_map_fn_recipe_has_an_extra_axis_with_tf2_control_flow():
    seed, shim = run_in_graph(seed_map_fn_recipe)
    assert seed.shape == (100, 1, 1)  # the seed claims (100, 1)
    assert shim.shape == (100, 1)
    np.testing.assert_allclose(seed[:, :, 0], shim, rtol=1e-5, atol=1e-5)


def test_seed_loop_recipe_has_an_extra_axis():
    """The seed's Python loop claims (100, 1, 50, 1) and builds (100, 1, 1, 50, 1)."""

    def build():
        x = tf.compat.v1.Variable(X50)
        y = tf.matmul(A_VAL, x)
        grads_list = [tf.expand_dims(tf.gradients(y[i], x)[0], axis=0) for i in range(y.shape[0])]
        jacobian = tf.expand_dims(tf.stack(grads_list), axis=1)
        return [jacobian, jacobian_v1(y, x)], None

    seed, shim = run_in_graph(build)
    assert seed.shape == (100, 1, 1, 50, 1)
    assert shim.shape == (100, 1, 50, 1)
    np.testing.assert_array_equal(seed.reshape(shim.shape), shim)
