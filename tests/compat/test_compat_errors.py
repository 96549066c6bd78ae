"""Errors are raised up front, by both backends alike, and say what to do."""

import numpy as np
import pytest
import tensorflow as tf

import compat

NAMES = ["jacobian", "batch_jacobian", "per_output_grad", "gradients", "jvp", "vjp", "hessian"]


def call(name, backend, f_or_y, x, **kwargs):
    fn = getattr(compat, f"{name}_{backend}")
    extra = {"jvp": (tf.ones_like(x),), "vjp": (None,)}.get(name, ())
    if name == "vjp" and not callable(f_or_y):
        extra = (tf.ones_like(f_or_y),)
    return fn(f_or_y, x, *extra, **kwargs)


def in_graph(fn):
    with tf.compat.v1.Graph().as_default():
        return fn()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("backend", ["v1", "v2"])
def test_integer_x_is_refused_with_advice(name, backend):
    def run():
        x = tf.constant([[1, 2]])
        return call(name, backend, lambda x: tf.cast(x, tf.float32) ** 2, x)

    with pytest.raises(TypeError, match=r"x has dtype int32.*tf\.cast\(x, tf\.float32\)"):
        in_graph(run) if backend == "v1" else run()


@pytest.mark.parametrize("backend", ["v1", "v2"])
def test_integer_y_is_refused(backend):
    def run():
        return call("jacobian", backend, lambda x: tf.cast(x, tf.int32), tf.constant([1.0]))

    with pytest.raises(TypeError, match="y has dtype int32"):
        in_graph(run) if backend == "v1" else run()


def test_complex_x_is_refused():
    with pytest.raises(TypeError, match="complex dtypes are not supported"):
        compat.jacobian_v2(lambda x: x * x, tf.constant([1j]))


@pytest.mark.parametrize("name", NAMES)
def test_eager_tensor_form_needs_the_tape(name):
    x = tf.constant([[1.0, 2.0]])
    with pytest.raises(
        ValueError, match=rf"needs the tape that recorded y: {name}_v2\(y, x, tape=tape\)"
    ):
        call(name, "v2", tf.reduce_sum(x * x) if name == "hessian" else x * x, x)


def test_tape_with_a_callable_is_refused():
    with tf.GradientTape() as tape:
        pass
    with pytest.raises(ValueError, match="tape= goes with the tensor form"):
        compat.jacobian_v2(lambda x: x, tf.constant(1.0), tape=tape)


@pytest.mark.parametrize("name", NAMES)
def test_v1_outside_a_graph_says_where_to_call_it(name):
    x = tf.constant([[1.0, 2.0]])
    with pytest.raises(RuntimeError, match=rf"executing eagerly.*or call {name}_v2 \(or {name}\)"):
        call(name, "v1", lambda x: tf.reduce_sum(x * x), x)


def test_graph_tensor_from_another_graph():
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, (2,))
    with tf.compat.v1.Graph().as_default():
        y = tf.compat.v1.placeholder(tf.float32, (2,)) * 2
        with pytest.raises(ValueError, match="belongs to a different graph"):
            compat.jacobian_v1(y, x)


def test_eager_tensor_passed_to_v1_inside_a_graph():
    x = tf.constant([1.0, 2.0])
    with tf.compat.v1.Graph().as_default():
        y = tf.compat.v1.placeholder(tf.float32, (2,))
        with pytest.raises(ValueError, match="x is an eager tensor"):
            compat.jacobian_v1(y, x)


def test_numpy_x_in_the_tensor_form():
    with tf.compat.v1.Graph().as_default():
        y = tf.compat.v1.placeholder(tf.float32, (2,))
        with pytest.raises(TypeError, match="x must be the tensor or Variable y was computed from"):
            compat.jacobian_v1(y, np.ones(2, np.float32))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(method="vectorized"), "method='vectorized' is not one of 'auto', 'loop'"),
        (
            dict(unconnected_gradients="zeros"),
            "unconnected_gradients='zeros' is not 'none', 'zero'",
        ),
    ],
    ids=["unknown method", "unknown unconnected_gradients"],
)
def test_unknown_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compat.jacobian_v2(lambda x: x, tf.constant(1.0), **kwargs)


def test_unknown_reduce():
    with pytest.raises(ValueError, match="reduce='avg' is not one of 'sum', 'mean'"):
        compat.gradients_v2(lambda x: x, tf.constant([1.0]), reduce="avg")


def test_mean_needs_a_batch_axis():
    with pytest.raises(ValueError, match="reduce='mean' needs y with a leading batch axis"):
        compat.gradients_v2(lambda x: tf.reduce_sum(x), tf.constant([1.0]), reduce="mean")


def test_loop_methods_need_a_persistent_tape():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(
        ValueError, match="calls tape.gradient once per output element.*persistent=True"
    ):
        compat.jacobian_v2(y, x, tape=tape, method="while_loop")


def test_hessian_needs_a_scalar_and_a_persistent_tape():
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError, match=r"needs a scalar y, got shape \(2,\); reduce it first"):
        compat.hessian_v2(lambda x: x * x, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x**3)
    with pytest.raises(ValueError, match="persistent=True"):
        compat.hessian_v2(y, x, tape=tape)


def test_batch_jacobian_needs_a_batch_axis_and_equal_batches():
    with pytest.raises(ValueError, match="need a leading batch axis"):
        compat.batch_jacobian_v2(lambda x: x, tf.constant(1.0))
    with pytest.raises(ValueError, match="batch sizes differ"):
        compat.batch_jacobian_v2(lambda x: tf.concat([x, x], 0), tf.ones((2, 3)))


def test_jacobian_of_several_outputs_is_refused():
    with pytest.raises(TypeError, match="call the function once per output"):
        compat.jacobian_v2(lambda x: [x, x], tf.constant(1.0))


def test_jvp_tangents_must_match_x():
    with pytest.raises(ValueError, match="tangents must have x's structure"):
        compat.jvp_v2(lambda xs: xs[0], [tf.constant(1.0), tf.constant(2.0)], [1.0])
    with pytest.raises(ValueError, match=r"a tangent has shape \(3,\) but its x has shape \(2,\)"):
        compat.jvp_v2(lambda x: x, tf.constant([1.0, 2.0]), tf.ones(3))


def test_usage_errors_are_not_retried_eagerly():
    calls = []

    def f(x):
        calls.append(1)
        return tf.cast(x, tf.int32)

    with pytest.raises(TypeError, match="y has dtype int32"):
        compat.jacobian_v2(f, tf.constant([1.0]))
    assert len(calls) == 1
