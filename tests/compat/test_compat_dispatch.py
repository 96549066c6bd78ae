"""name() picks the backend; the eager callable form caches one tf.function per callable."""

import warnings

import numpy as np
import pytest
import tensorflow as tf

import compat
from compat import _v2

NAMES = ["jacobian", "batch_jacobian", "per_output_grad", "gradients", "jvp", "vjp", "hessian"]


@pytest.fixture
def spy(monkeypatch):
    """Records which backend each unsuffixed call reaches."""
    seen = []
    for name in NAMES:
        for backend in ("v1", "v2"):
            module = getattr(compat, f"_{backend}")
            original = getattr(module, f"{name}_{backend}")

            def record(*args, _original=original, _backend=backend, **kwargs):
                seen.append(_backend)
                return _original(*args, **kwargs)

            monkeypatch.setattr(module, f"{name}_{backend}", record)
    # The dispatchers looked the backends up when compat was imported.
    for name in NAMES:
        monkeypatch.setattr(compat._dispatch, name, compat._dispatch._dispatching(name))
    return seen


def test_eager_picks_v2(spy):
    compat._dispatch.jacobian(lambda x: x * x, tf.constant([1.0]))
    assert spy == ["v2"]


def test_graph_picks_v1(spy):
    with tf.compat.v1.Graph().as_default():
        compat._dispatch.jacobian(lambda x: x * x, tf.constant([1.0]))
    assert spy == ["v1"]


def test_tf_function_picks_v1_unless_given_a_tape(spy):
    @tf.function
    def both(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return compat._dispatch.jacobian(lambda x: x * x, x), compat._dispatch.jacobian(
            y, x, tape=tape
        )

    v1, v2 = both(tf.constant([1.0, 2.0]))
    assert spy == ["v1", "v2"]
    np.testing.assert_allclose(v1, v2)


def test_every_public_name_exists_in_three_variants_with_one_signature():
    import inspect

    for name in NAMES:
        signatures = {str(inspect.signature(getattr(compat, name + s))) for s in ("", "_v1", "_v2")}
        assert len(signatures) == 1, (name, signatures)
    assert sorted(compat.__all__) == sorted(n + s for n in NAMES for s in ("", "_v1", "_v2"))


def test_repeated_calls_reuse_one_trace():
    traces = []

    def f(x):
        traces.append(1)  # runs only while tracing
        return tf.tanh(x)

    for value in ([1.0, 2.0], [3.0, 4.0], [5.0, 6.0]):
        result = compat.jacobian_v2(f, tf.constant(value))
        np.testing.assert_allclose(result, np.diag(1 - np.tanh(value) ** 2), atol=1e-6)
    assert len(traces) == 1
    compat.jacobian_v2(f, tf.constant([1.0, 2.0, 3.0]))  # a new shape traces again
    assert len(traces) == 2


def test_cache_false_sees_changed_python_state():
    scale = [1.0]

    def f(x):
        return scale[0] * x

    for cache, expected in [(True, 1.0), (False, 3.0)]:
        compat.per_output_grad_v2(f, tf.constant([1.0]), cache=cache)
        scale[0] = 3.0
        result = compat.per_output_grad_v2(f, tf.constant([1.0]), cache=cache)
        np.testing.assert_allclose(result, [expected])
        scale[0] = 1.0


def test_untraceable_callable_runs_eagerly_with_a_warning():
    def f(x):
        return x * float(x.numpy()[0])  # .numpy() exists only eagerly

    with pytest.warns(RuntimeWarning, match="could not run as a tf.function"):
        first = compat.jacobian_v2(f, tf.constant([2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = compat.jacobian_v2(f, tf.constant([2.0]))
    np.testing.assert_allclose(first, [[2.0]])
    np.testing.assert_allclose(second, [[2.0]])


def test_cache_is_bounded():
    for k in range(_v2._CACHE_SIZE + 5):
        compat.gradients_v2(lambda x, k=k: k * x, tf.constant(1.0))
    assert len(_v2._traced) == _v2._CACHE_SIZE


def test_a_tf_function_as_f():
    f = tf.function(lambda x: tf.sin(x) * x[0])
    x = tf.constant([0.5, 1.0])
    expected = compat.jacobian_v2(lambda x: tf.sin(x) * x[0], x, cache=False)
    for method in ("pfor", "forward"):
        np.testing.assert_allclose(compat.jacobian_v2(f, x, method=method), expected, rtol=1e-6)
    np.testing.assert_allclose(
        compat.per_output_grad_v2(f, x), tf.reduce_sum(expected, 1), rtol=1e-6
    )
