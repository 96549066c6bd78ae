"""Argument checking shared by the graph-mode (`_v1`) and eager (`_v2`) backends.

Every public function checks its arguments here before it builds anything, so
that both backends reject the same inputs with the same message.
"""

import importlib

from compat._docs import docstring

METHODS = ("auto", "loop", "map_fn", "while_loop", "pfor", "forward")
REDUCTIONS = ("sum", "mean")
# "auto" switches to forward mode when y has this many times more elements than
# x: below it one batched backward pass is as fast (benchmarks/results_jacobian.md).
FORWARD_MODE_RATIO = 2


class _LazyTensorFlow:
    """Stands in for the `tensorflow` module and imports it on first use.

    `import compat` therefore works without TensorFlow; calling a function
    without it raises an ImportError that says what to install.
    """

    def __getattr__(self, name):
        try:
            module = importlib.import_module("tensorflow")
        except ImportError as err:
            raise ImportError(
                "compat needs TensorFlow >= 2.12: pip install tensorflow (or tensorflow-cpu)"
            ) from err
        value = getattr(module, name)
        setattr(self, name, value)  # later lookups skip __getattr__
        return value


tf = _LazyTensorFlow()


def public(name, backend):
    """Decorator for the public functions: docstring, and no AutoGraph inside.

    AutoGraph would otherwise rewrite this package's code whenever it is called
    from a tf.function (seconds per first trace, and Python loops turned into
    TF loops). The attribute is what tf.autograph.experimental.do_not_convert
    sets on its wrappers; callables passed in are traced as plain Python too.
    """

    def decorate(fn):
        fn.__doc__ = docstring(name, backend)
        fn.autograph_info__ = {}
        return fn

    return decorate


def usage_error(cls, fn_name, message):
    """Builds an exception of class cls marked as a usage error.

    The eager backend retries a failed tf.function eagerly; a usage error
    would only fail again, so it is re-raised at once (see is_usage_error).
    """
    error = cls(f"{fn_name}: {message}")
    error.compat_usage_error = True
    return error


def is_usage_error(error):
    return getattr(error, "compat_usage_error", False)


def check_method(fn_name, method):
    if method not in METHODS:
        raise usage_error(
            ValueError, fn_name, f"method={method!r} is not one of {', '.join(map(repr, METHODS))}"
        )


def check_reduce(fn_name, reduce):
    if reduce not in REDUCTIONS:
        raise usage_error(
            ValueError,
            fn_name,
            f"reduce={reduce!r} is not one of {', '.join(map(repr, REDUCTIONS))}",
        )


def unconnected_enum(fn_name, value):
    """Returns `tf.UnconnectedGradients` for an enum member or its name ("none"/"zero")."""
    if isinstance(value, tf.UnconnectedGradients):
        return value
    if isinstance(value, str) and value.lower() in ("none", "zero"):
        return tf.UnconnectedGradients(value.lower())
    raise usage_error(
        ValueError,
        fn_name,
        f"unconnected_gradients={value!r} is not 'none', 'zero' or a tf.UnconnectedGradients",
    )


def flatten_sources(x):
    """Returns (list of sources, function that packs one result per source like x).

    A list or tuple means several sources; anything else (tensor, Variable,
    numpy array, Python number) is one source.
    """
    if isinstance(x, (list, tuple)):
        return list(x), type(x)
    return [x], lambda results: results[0]


def is_variable(t):
    return isinstance(t, tf.Variable)


def as_tensor_sources(fn_name, xs):
    """Converts numbers and arrays to tensors; Variables and tensors pass through."""
    out = []
    for x in xs:
        if not (is_variable(x) or tf.is_tensor(x)):
            try:
                x = tf.convert_to_tensor(x)
            except (TypeError, ValueError) as err:
                raise usage_error(
                    TypeError, fn_name, f"cannot convert x of type {type(x).__name__} to a tensor"
                ) from err
        out.append(x)
    return out


def check_differentiable(fn_name, t, what):
    """Rejects integer, bool, string and complex tensors with advice."""
    dtype = tf.as_dtype(t.dtype)
    if dtype.is_complex:
        raise usage_error(
            TypeError,
            fn_name,
            f"{what} has dtype {dtype.name}: complex dtypes are not supported "
            "(TF's forward and reverse modes use different conjugation conventions); "
            "split into real and imaginary parts",
        )
    if not dtype.is_floating:
        raise usage_error(
            TypeError,
            fn_name,
            f"{what} has dtype {dtype.name}, which TF treats as a constant; cast it to a "
            f"float first, e.g. x = tf.cast(x, tf.float32), and compute y from the cast tensor",
        )


def check_sources(fn_name, xs):
    if not xs:
        raise usage_error(ValueError, fn_name, "x is an empty list; pass at least one tensor")
    for x in xs:
        check_differentiable(fn_name, x, "x")


def check_output(fn_name, y, what="y"):
    if isinstance(y, (list, tuple)) or not tf.is_tensor(y):
        raise usage_error(
            TypeError,
            fn_name,
            f"{what} must be one tensor, got {type(y).__name__}; "
            "for several outputs call the function once per output",
        )
    check_differentiable(fn_name, y, what)


def check_scalar_output(fn_name, y):
    if y.shape.rank != 0:
        raise usage_error(
            ValueError,
            fn_name,
            f"needs a scalar y, got shape {y.shape}; reduce it first "
            "(tf.reduce_sum(y) gives what tf.hessians computes) or take the jacobian of a gradient",
        )


def check_batch_dims(fn_name, y, xs):
    for x in [y, *xs]:
        if x.shape.rank is None:
            raise usage_error(
                ValueError,
                fn_name,
                "needs the ranks of y and x when the graph is built; set_shape them",
            )
        if x.shape.rank == 0:
            raise usage_error(
                ValueError,
                fn_name,
                "y and x need a leading batch axis; for tensors without one use jacobian",
            )
    for x in xs:
        if not y.shape[:1].is_compatible_with(x.shape[:1]):
            raise usage_error(
                ValueError,
                fn_name,
                f"batch sizes differ: y has shape {y.shape}, x has shape {x.shape}",
            )


def check_tensor_form(fn_name, f_or_y, tape, *, eager):
    """Checks the pairing of f_or_y and tape for the given backend."""
    if callable(f_or_y) and not tf.is_tensor(f_or_y):
        if tape is not None and eager:
            raise usage_error(
                ValueError,
                fn_name,
                "tape= goes with the tensor form name(y, x, tape=tape); "
                "a callable records its own tape",
            )
        return False
    if eager and tape is None:
        raise usage_error(
            ValueError,
            fn_name,
            "the tensor form needs the tape that recorded y: "
            f"{fn_name}(y, x, tape=tape); or pass a callable: {fn_name}(lambda x: ..., x)",
        )
    return True


def is_persistent(tape):
    # GradientTape has no public accessor for persistence.
    return getattr(tape, "_persistent", True)


def needs_persistent_tape(fn_name, tape, why):
    if tape is not None and not is_persistent(tape):
        raise usage_error(
            ValueError,
            fn_name,
            f"{why}; record y with tf.GradientTape(persistent=True)",
        )


def static_size(t):
    """Number of elements if known when the graph is built, else None."""
    return t.shape.num_elements()


def prefers_forward_mode(y_size, x_sizes):
    """Whether "auto" should use forward mode: y much larger than all of x."""
    if y_size is None or any(n is None for n in x_sizes):
        return False
    return y_size > FORWARD_MODE_RATIO * sum(x_sizes)


def check_tensor_sources(fn_name, xs):
    """Tensor form: x must be what y was computed from, not a fresh array."""
    for x in xs:
        if not (is_variable(x) or tf.is_tensor(x)):
            raise usage_error(
                TypeError,
                fn_name,
                f"in the tensor form x must be the tensor or Variable y was computed from, "
                f"got {type(x).__name__}; a converted copy would be unconnected to y",
            )
    check_sources(fn_name, xs)


def check_outputs(fn_name, ys):
    """One tensor or a list of tensors, all floating."""
    for y in ys if isinstance(ys, (list, tuple)) else [ys]:
        if not tf.is_tensor(y):
            raise usage_error(
                TypeError,
                fn_name,
                f"y must be a tensor or a list of tensors, got {type(y).__name__}",
            )
        check_differentiable(fn_name, y, "y")


def match_tangents(fn_name, xs, tangents):
    """Tangents as a list matching xs: converted to each x's dtype, shapes checked."""
    flat, _ = flatten_sources(tangents)
    if len(flat) != len(xs):
        raise usage_error(
            ValueError,
            fn_name,
            f"tangents must have x's structure: {len(xs)} tensor(s) expected, got {len(flat)}",
        )
    out = []
    for t, x in zip(flat, xs):
        t = tf.cast(tf.convert_to_tensor(t), x.dtype)
        if not t.shape.is_compatible_with(x.shape):
            raise usage_error(
                ValueError, fn_name, f"a tangent has shape {t.shape} but its x has shape {x.shape}"
            )
        out.append(t)
    return out


def divide_by_batch_size(fn_name, grads, ys):
    """reduce="mean": each gradient divided by the length of axis 0 of y."""
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    if ys[0].shape.rank == 0:
        raise usage_error(
            ValueError, fn_name, "reduce='mean' needs y with a leading batch axis; y is a scalar"
        )
    for y in ys[1:]:
        if not y.shape[:1].is_compatible_with(ys[0].shape[:1]):
            raise usage_error(
                ValueError,
                fn_name,
                f"reduce='mean': the ys have different batch sizes ({ys[0].shape}, {y.shape})",
            )
    batch = tf.shape(ys[0])[0]
    out = []
    for g in grads:
        if g is None:
            out.append(None)
        elif isinstance(g, tf.IndexedSlices):
            n = tf.cast(batch, g.values.dtype)
            out.append(tf.IndexedSlices(g.values / n, g.indices, g.dense_shape))
        else:
            out.append(g / tf.cast(batch, g.dtype))
    return out


def sum_products(products, y, unconnected):
    """jvp over several xs: the sum of the connected products."""
    parts = [p for p in products if p is not None]
    if parts:
        return tf.add_n(parts)
    return tf.zeros_like(y) if unconnected == tf.UnconnectedGradients.ZERO else None
