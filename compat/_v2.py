"""Eager backend: tf.GradientTape and tf.autodiff.ForwardAccumulator.

The callable form records its own (persistent) tape. Called eagerly, it runs
as a tf.function cached per (function name, callable, options): eager
`GradientTape.jacobian` traces a new tf.function on every call, hundreds of
times the cost of running a traced one (benchmarks/results_jacobian.md).

Forward-mode Jacobians of a recorded y use the double-gradient trick on tapes:
an outer tape watches a dummy cotangent u while the recording tape computes
g = VJP(u); g is linear in u, so the outer tape's VJP of g is J v.
"""

import collections
import functools
import warnings

from compat import _assemble, _common
from compat._common import public, tf

_CACHE_SIZE = 64
# (function name, callable, options) -> tf.function, or None for a callable that
# failed to trace (run eagerly from then on). Oldest entries are dropped first.
_traced = collections.OrderedDict()


def _trace(body):
    # A partial, because TF keys its "retracing too often" warning by __code__,
    # which the bodies of all callables share. No AutoGraph: see _common.public.
    return tf.function(functools.partial(body), autograph=False)


def _run(fn_name, key, body, x, aux, cache):
    """Runs body(x, aux): a cached tf.function when eager and cache is set."""
    if not (cache and tf.executing_eagerly()):
        return body(x, aux)
    try:
        traced = _traced.pop(key) if key in _traced else _trace(body)
    except TypeError:  # an unhashable callable: nothing to cache it under
        return body(x, aux)
    _traced[key] = traced
    if len(_traced) > _CACHE_SIZE:
        _traced.popitem(last=False)
    if traced is None:
        return body(x, aux)
    try:
        return traced(x, aux)
    except Exception as err:  # retried eagerly below; a broken f raises there
        if _common.is_usage_error(err):
            raise
        result = body(x, aux)
        _traced[key] = None
        warnings.warn(
            f"{fn_name}: f could not run as a tf.function ({type(err).__name__}: {err}); "
            "it runs eagerly from now on, which is much slower. Pass cache=False to skip "
            "the attempt.",
            RuntimeWarning,
            stacklevel=3,
        )
        return result


def _callable_inputs(fn_name, x):
    xs, pack = _common.flatten_sources(x)
    xs = _common.as_tensor_sources(fn_name, xs)
    _common.check_sources(fn_name, xs)
    return pack(xs)


def _tensor_inputs(fn_name, x):
    xs, pack = _common.flatten_sources(x)
    _common.check_tensor_sources(fn_name, xs)
    return xs, pack


def _record(f, x):
    """Calls f(x) on a persistent tape watching x: (tape, y, xs, pack)."""
    xs, pack = _common.flatten_sources(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(x)
    return tape, y, xs, pack


def _evaluate(fn_name, f_or_y, x, tape, compute, options, cache, aux=None):
    """compute(tape, y, xs, pack, aux) on the recorded tape, either form."""
    if _common.check_tensor_form(fn_name, f_or_y, tape, eager=True):
        xs, pack = _tensor_inputs(fn_name, x)
        return compute(tape, f_or_y, xs, pack, aux)

    def body(x, aux):
        return compute(*_record(f_or_y, x), aux)

    return _run(fn_name, (fn_name, f_or_y, options), body, _callable_inputs(fn_name, x), aux, cache)


def _jvp_products(tape, y, xs):
    """One forward-mode product per x: tangent -> [J tangent] (None if unconnected)."""
    u = tf.zeros_like(y)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(u)
        gs = _assemble.dense(tape.gradient(y, xs, output_gradients=u))
    return [
        None if g is None else (lambda t, g=g: [outer.gradient(g, u, output_gradients=t)])
        for g in gs
    ]


def _jacobian_tensor_form(fn_name, tape, y, xs, method, unconnected, batched=False):
    if method in ("loop", "map_fn", "while_loop"):
        _common.needs_persistent_tape(
            fn_name, tape, f"method={method!r} calls tape.gradient once per output element"
        )
    return _assemble.jacobians(
        lambda cotangent: tape.gradient(y, xs, output_gradients=cotangent),
        lambda: _jvp_products(tape, y, xs),
        y,
        xs,
        method,
        unconnected,
        batched,
        forward_ok=_common.is_persistent(tape),  # the fallback needs the tape a second time
    )


@public("jacobian", "v2")
def jacobian_v2(f_or_y, x, *, tape=None, method="auto", unconnected_gradients="none", cache=True):
    fn_name = "jacobian_v2"
    _common.check_method(fn_name, method)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)

    def compute(tape, y, xs, pack, _):
        _common.check_output(fn_name, y)
        return pack(_jacobian_tensor_form(fn_name, tape, y, xs, method, unconnected))

    return _evaluate(fn_name, f_or_y, x, tape, compute, (method, unconnected), cache)


@public("batch_jacobian", "v2")
def batch_jacobian_v2(
    f_or_y, x, *, tape=None, method="auto", unconnected_gradients="none", cache=True
):
    fn_name = "batch_jacobian_v2"
    _common.check_method(fn_name, method)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)

    def compute(tape, y, xs, pack, _):
        _common.check_output(fn_name, y)
        _common.check_batch_dims(fn_name, y, xs)
        return pack(_jacobian_tensor_form(fn_name, tape, y, xs, method, unconnected, batched=True))

    return _evaluate(fn_name, f_or_y, x, tape, compute, (method, unconnected), cache)


def _accumulate(fn_name, f, x, primals, tangents):
    """One ForwardAccumulator pass: (y, J @ tangents summed over primals, or None)."""
    with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
        y = f(x)
    _common.check_output(fn_name, y)
    return y, acc.jvp(y)


def _jvps(tape, y, xs, tangents):
    return _assemble.jvps(
        lambda: _jvp_products(tape, y, xs),
        lambda cotangent: tape.gradient(y, xs, output_gradients=cotangent),
        y,
        xs,
        tangents,
        can_retry=_common.is_persistent(tape),
    )


@public("per_output_grad", "v2")
def per_output_grad_v2(f_or_y, x, *, tape=None, unconnected_gradients="none", cache=True):
    fn_name = "per_output_grad_v2"
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)

    def finish(y, results, pack):
        return pack(_assemble.y_shaped(results, y, unconnected))

    if _common.check_tensor_form(fn_name, f_or_y, tape, eager=True):
        xs, pack = _tensor_inputs(fn_name, x)
        _common.check_output(fn_name, f_or_y)
        return finish(f_or_y, _jvps(tape, f_or_y, xs, [tf.ones_like(x) for x in xs]), pack)

    def body(x, _):
        xs, pack = _common.flatten_sources(x)
        try:  # one forward pass per x
            passes = [_accumulate(fn_name, f_or_y, x, x_k, tf.ones_like(x_k)) for x_k in xs]
            return finish(passes[0][0], [jvp for _, jvp in passes], pack)
        except LookupError:  # an op without a forward-mode rule: reverse mode
            tape, y, xs, pack = _record(f_or_y, x)
            return finish(y, _jvps(tape, y, xs, [tf.ones_like(x) for x in xs]), pack)

    return _run(
        fn_name, (fn_name, f_or_y, unconnected), body, _callable_inputs(fn_name, x), None, cache
    )


@public("jvp", "v2")
def jvp_v2(f_or_y, x, tangents, *, tape=None, unconnected_gradients="none", cache=True):
    fn_name = "jvp_v2"
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)
    if _common.check_tensor_form(fn_name, f_or_y, tape, eager=True):
        xs, _ = _tensor_inputs(fn_name, x)
        _common.check_output(fn_name, f_or_y)
        tangents = _common.match_tangents(fn_name, xs, tangents)
        return _common.sum_products(_jvps(tape, f_or_y, xs, tangents), f_or_y, unconnected)

    def body(x, tangents):
        try:
            y, jvp = _accumulate(fn_name, f_or_y, x, _common.flatten_sources(x)[0], tangents)
            return _common.sum_products([jvp], y, unconnected)
        except LookupError:  # an op without a forward-mode rule: reverse mode
            tape, y, xs, _ = _record(f_or_y, x)
            return _common.sum_products(_jvps(tape, y, xs, tangents), y, unconnected)

    x = _callable_inputs(fn_name, x)
    tangents = _common.match_tangents(fn_name, _common.flatten_sources(x)[0], tangents)
    return _run(fn_name, (fn_name, f_or_y, unconnected), body, x, tangents, cache)


@public("gradients", "v2")
def gradients_v2(
    f_or_ys, x, grad_ys=None, *, tape=None, reduce="sum", unconnected_gradients="none", cache=True
):
    return _gradients(
        "gradients_v2", f_or_ys, x, grad_ys, tape, reduce, unconnected_gradients, cache
    )


@public("vjp", "v2")
def vjp_v2(f_or_y, x, grad_ys, *, tape=None, unconnected_gradients="none", cache=True):
    return _gradients("vjp_v2", f_or_y, x, grad_ys, tape, "sum", unconnected_gradients, cache)


def _gradients(fn_name, f_or_ys, x, grad_ys, tape, reduce, unconnected_gradients, cache):
    _common.check_reduce(fn_name, reduce)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)

    def compute(tape, ys, xs, pack, grad_ys):
        _common.check_outputs(fn_name, ys)
        grads = tape.gradient(ys, xs, output_gradients=grad_ys, unconnected_gradients=unconnected)
        if reduce == "mean":
            grads = _common.divide_by_batch_size(fn_name, grads, ys)
        return pack(grads)

    return _evaluate(fn_name, f_or_ys, x, tape, compute, (reduce, unconnected), cache, grad_ys)


@public("hessian", "v2")
def hessian_v2(f_or_y, x, *, tape=None, method="auto", unconnected_gradients="none", cache=True):
    fn_name = "hessian_v2"
    _common.check_method(fn_name, method)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)

    def rows(tape, xs, pack, gs):
        jacobian_of = lambda g: _jacobian_tensor_form(fn_name, tape, g, xs, method, unconnected)  # noqa: E731
        return pack([pack(row) for row in _assemble.hessian_rows(gs, xs, jacobian_of, unconnected)])

    if _common.check_tensor_form(fn_name, f_or_y, tape, eager=True):
        xs, pack = _tensor_inputs(fn_name, x)
        _common.check_output(fn_name, f_or_y)
        _common.check_scalar_output(fn_name, f_or_y)
        _common.needs_persistent_tape(fn_name, tape, "the gradient is recorded on the tape again")
        with tape:
            gs = _assemble.dense(tape.gradient(f_or_y, xs))
        return rows(tape, xs, pack, gs)

    def body(x, _):
        xs, pack = _common.flatten_sources(x)
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(xs)
            with tf.GradientTape() as inner:
                inner.watch(xs)
                y = f_or_y(x)
            _common.check_output(fn_name, y)
            _common.check_scalar_output(fn_name, y)
            gs = _assemble.dense(inner.gradient(y, xs))
        return rows(outer, xs, pack, gs)

    return _run(
        fn_name,
        (fn_name, f_or_y, method, unconnected),
        body,
        _callable_inputs(fn_name, x),
        None,
        cache,
    )
