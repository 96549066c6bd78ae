"""Problems with exact derivatives, and runners for both backends.

Every test computes the same thing with name_v1 (in a tf.compat.v1.Graph and
Session, eager execution left on for the rest of the process) and name_v2
(eagerly), and compares both with numpy references in float64.
"""

import math

import numpy as np
import tensorflow as tf
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import compat

# Fixed examples, few of them: each one builds a graph and traces a tf.function.
FAST = settings(
    derandomize=True,
    database=None,
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

DTYPES = [np.float32, np.float64]
TOLERANCE = {np.float16: 2e-2, np.float32: 2e-5, np.float64: 1e-10}

small_shapes = st.lists(st.integers(1, 3), min_size=0, max_size=3).map(tuple)


def backends(name):
    return getattr(compat, f"{name}_v1"), getattr(compat, f"{name}_v2")


class Problem:
    """A TF function of one x or a list of xs, with the values to evaluate it at."""

    def __init__(self, fn, *values):
        self.fn, self.values = fn, [np.asarray(v) for v in values]

    def __call__(self, x):
        return self.fn(x)


class TanhLayer:
    """y = tanh(sum_k A_k vec(x_k) + b), reshaped to y_shape.

    With `batch`, each of the `batch` rows of every x maps to the same row of y
    (per-example Jacobians). Sources listed in `unconnected` are not used.
    """

    def __init__(self, y_shape, x_shapes, dtype, seed=0, batch=None, unconnected=()):
        rng = np.random.default_rng(seed)
        self.y_shape, self.x_shapes, self.dtype, self.batch = tuple(y_shape), x_shapes, dtype, batch
        m = math.prod(self.y_shape)
        self.weights = [
            rng.standard_normal((m, math.prod(s))) / (1 + math.prod(s)) for s in x_shapes
        ]
        self.bias = rng.standard_normal(m)
        self.connected = [k not in unconnected for k in range(len(x_shapes))]
        lead = () if batch is None else (batch,)
        self.values = [rng.standard_normal(lead + tuple(s)).astype(dtype) for s in x_shapes]

    # TF side: called by the shims with one x or a list of them.
    def __call__(self, x):
        xs = x if isinstance(x, (list, tuple)) else [x]
        z = tf.constant(self.bias, self.dtype)
        for x_k, a, used in zip(xs, self.weights, self.connected):
            if used:
                a = tf.constant(a, self.dtype)
                if self.batch is None:
                    z = z + tf.linalg.matvec(a, tf.reshape(x_k, [-1]))
                else:
                    flat = tf.reshape(x_k, tf.stack([tf.shape(x_k)[0], -1]))
                    z = z + tf.matmul(flat, a, transpose_b=True)
        if self.batch is None:
            return tf.reshape(tf.tanh(z), self.y_shape)
        return tf.reshape(tf.tanh(z), tf.stack([tf.shape(xs[0])[0], *self.y_shape]))

    # numpy side, float64.
    def _rows(self):
        xs = [v.astype(np.float64).reshape(self.batch or 1, -1) for v in self.values]
        z = self.bias + sum(x @ a.T for x, a, used in zip(xs, self.weights, self.connected) if used)
        return np.tanh(np.broadcast_to(z, (self.batch or 1, len(self.bias))))

    def y(self):
        lead = () if self.batch is None else (self.batch,)
        return self._rows().reshape(lead + self.y_shape)

    def jacobians(self):
        """Full Jacobians y.shape + x.shape (per-example ones when batched)."""
        d = 1 - self._rows() ** 2  # (rows, m)
        out = []
        for a, s, used in zip(self.weights, self.x_shapes, self.connected):
            j = d[:, :, None] * a[None] if used else np.zeros((d.shape[0],) + a.shape)
            lead = (self.batch,) if self.batch is not None else ()
            out.append(j.reshape(lead + self.y_shape + tuple(s)))
        return out


def to_numpy(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [to_numpy(v) for v in value]
    if isinstance(value, tf.IndexedSlices):
        value = tf.convert_to_tensor(value)
    return np.asarray(value)


def run_in_graph(build):
    """Runs build() -> (fetches, feed) in a new Graph + Session; None fetches stay None."""
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        fetches, feed = build()
        flat = tf.nest.flatten(fetches)
        with tf.compat.v1.Session(graph=graph) as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            values = iter(sess.run([t for t in flat if t is not None], feed))
    return tf.nest.pack_sequence_as(fetches, [None if t is None else next(values) for t in flat])


def _pack(xs, listed):
    return list(xs) if listed else xs[0]


def run_v1(
    fn,
    problem,
    *,
    form="callable",
    listed=False,
    variables=False,
    unknown_dims=False,
    unknown_batch=False,
    args=(),
    **kwargs,
):
    """fn(problem or y, x, *args, **kwargs) in graph mode; numpy results.

    x is fed through placeholders, whose dims are all None with unknown_dims
    and whose axis 0 is None with unknown_batch, or held in Variables.
    """

    def build():
        xs, feed = [], {}
        for value in problem.values:
            if variables:
                xs.append(tf.compat.v1.Variable(value))
            else:
                shape = [None] * value.ndim if unknown_dims else list(value.shape)
                if unknown_batch:
                    shape[0] = None
                x = tf.compat.v1.placeholder(value.dtype, shape)
                xs.append(x)
                feed[x] = value
        x = _pack(xs, listed)
        target = problem if form == "callable" else problem(x)
        return fn(target, x, *args, **kwargs), feed

    return to_numpy(run_in_graph(build))


def run_v2(
    fn,
    problem,
    *,
    form="callable",
    listed=False,
    variables=False,
    unknown_dims=False,
    unknown_batch=False,
    args=(),
    **kwargs,
):
    """fn(problem or y, x, *args, **kwargs) eagerly; numpy results.

    unknown_dims and unknown_batch are graph-mode notions, ignored here.
    """
    xs = [tf.Variable(v) if variables else tf.constant(v) for v in problem.values]
    x = _pack(xs, listed)
    if form == "callable":
        return to_numpy(fn(problem, x, *args, **kwargs))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = problem(x)
    return to_numpy(fn(y, x, *args, tape=tape, **kwargs))


def assert_close(actual, expected, dtype):
    """Nested comparison; None must match None."""
    if expected is None or actual is None:
        assert actual is None and expected is None, (actual, expected)
        return
    if isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_close(a, e, dtype)
        return
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    tol = TOLERANCE[dtype]
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)


def assert_both_match(v1, v2, expected, dtype):
    assert_close(v1, expected, dtype)
    assert_close(v2, expected, dtype)
    assert_close(v1, v2, dtype)


def check_both(name, problem, expected, dtype, **kwargs):
    """Runs name_v1 and name_v2 alike; both must match expected and each other."""
    fn_v1, fn_v2 = backends(name)
    v1, v2 = run_v1(fn_v1, problem, **kwargs), run_v2(fn_v2, problem, **kwargs)
    assert_both_match(v1, v2, expected, dtype)
    return v1, v2
