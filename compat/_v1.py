"""Graph-mode backend: tf.gradients inside a tf.compat.v1.Graph or a tf.function.

Forward mode uses the double-gradient trick: g(u) = tf.gradients(y, x, grad_ys=u)
is linear in u, so tf.gradients(g, u, grad_ys=v) is the Jacobian-vector product
J v. (tf.autodiff.ForwardAccumulator also works in graph mode and runs as fast,
but builds its graph slower and needs the callable form; see
benchmarks/results_jacobian.md.)
"""

from compat import _assemble, _common
from compat._common import public, tf, usage_error


def _graph_of(t):
    try:
        return t.graph
    except AttributeError:  # eager tensors and Variables have no graph
        return None


def _check_graph_mode(fn_name):
    if tf.executing_eagerly():
        base = fn_name[: -len("_v1")]
        raise usage_error(
            RuntimeError,
            fn_name,
            "builds graph ops, but TensorFlow is executing eagerly; call it inside "
            "`with tf.compat.v1.Graph().as_default():` (Session code) or a tf.function, "
            f"or call {base}_v2 (or {base}) instead",
        )


def _check_in_default_graph(fn_name, named_tensors):
    graph = tf.compat.v1.get_default_graph()
    for what, t in named_tensors:
        owner = _graph_of(t)
        if owner is None:
            if _common.is_variable(t) and tf.inside_function():
                continue  # an eager Variable captured by a tf.function
            raise usage_error(
                ValueError,
                fn_name,
                f"{what} is an eager tensor, but graph mode differentiates graph tensors; "
                "create it inside the graph (tf.compat.v1.placeholder, tf.compat.v1.Variable) "
                "or pass a callable that computes y from x",
            )
        if owner is not graph:
            raise usage_error(
                ValueError,
                fn_name,
                f"{what} belongs to a different graph than the one being built; build y and x "
                "inside the same `with graph.as_default():` block",
            )


def _to_graph(x):
    """Brings a callable form's x into the graph being built."""
    if _common.is_variable(x) or _graph_of(x) is not None:
        return x
    if tf.is_tensor(x) and tf.inside_function():
        return tf.identity(x)  # captures an eager tensor into the function
    return tf.convert_to_tensor(x)


def _inputs(fn_name, f_or_y, x, check_y=_common.check_output):
    """Returns (y, xs, pack): y computed by f_or_y when it is callable."""
    _check_graph_mode(fn_name)
    xs, pack = _common.flatten_sources(x)
    if _common.check_tensor_form(fn_name, f_or_y, None, eager=False):
        _common.check_tensor_sources(fn_name, xs)
        y = f_or_y
    else:
        xs = [_to_graph(x) for x in _common.as_tensor_sources(fn_name, xs)]
        _common.check_sources(fn_name, xs)
        y = f_or_y(pack(xs))
    ys = y if isinstance(y, (list, tuple)) else [y]
    check_y(fn_name, y)
    _check_in_default_graph(fn_name, [("y", t) for t in ys] + [("x", t) for t in xs])
    return y, xs, pack


def _linearize(y, xs):
    """Returns (u, g): g = tf.gradients(y, xs, grad_ys=u), dense, linear in u."""
    u = tf.zeros_like(y)
    gs = tf.gradients(y, xs, grad_ys=u)
    return u, _assemble.dense(gs)


def _jvp_products(y, xs):
    """One forward-mode product per x: tangent of x -> [J tangent] (None if unconnected)."""
    u, gs = _linearize(y, xs)
    return [None if g is None else (lambda t, g=g: tf.gradients(g, u, grad_ys=t)) for g in gs]


def _vjp(y, xs):
    return lambda cotangent: tf.gradients(y, xs, grad_ys=cotangent)


def _jacobian_tensor_form(y, xs, method, unconnected, batched=False):
    return _assemble.jacobians(
        _vjp(y, xs), lambda: _jvp_products(y, xs), y, xs, method, unconnected, batched
    )


@public("jacobian", "v1")
def jacobian_v1(f_or_y, x, *, tape=None, method="auto", unconnected_gradients="none", cache=True):
    fn_name = "jacobian_v1"
    _common.check_method(fn_name, method)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)
    y, xs, pack = _inputs(fn_name, f_or_y, x)
    return pack(_jacobian_tensor_form(y, xs, method, unconnected))


@public("batch_jacobian", "v1")
def batch_jacobian_v1(
    f_or_y, x, *, tape=None, method="auto", unconnected_gradients="none", cache=True
):
    fn_name = "batch_jacobian_v1"
    _common.check_method(fn_name, method)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)
    y, xs, pack = _inputs(fn_name, f_or_y, x)
    _common.check_batch_dims(fn_name, y, xs)
    return pack(_jacobian_tensor_form(y, xs, method, unconnected, batched=True))


@public("per_output_grad", "v1")
def per_output_grad_v1(f_or_y, x, *, tape=None, unconnected_gradients="none", cache=True):
    fn_name = "per_output_grad_v1"
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)
    y, xs, pack = _inputs(fn_name, f_or_y, x)
    results = _jvps(y, xs, [tf.ones_like(x) for x in xs])
    return pack(_assemble.y_shaped(results, y, unconnected))


def _jvps(y, xs, tangents):
    return _assemble.jvps(lambda: _jvp_products(y, xs), _vjp(y, xs), y, xs, tangents)


@public("jvp", "v1")
def jvp_v1(f_or_y, x, tangents, *, tape=None, unconnected_gradients="none", cache=True):
    fn_name = "jvp_v1"
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)
    y, xs, _ = _inputs(fn_name, f_or_y, x)
    tangents = _common.match_tangents(fn_name, xs, tangents)
    return _common.sum_products(_jvps(y, xs, tangents), y, unconnected)


@public("gradients", "v1")
def gradients_v1(
    f_or_ys, x, grad_ys=None, *, tape=None, reduce="sum", unconnected_gradients="none", cache=True
):
    return _gradients("gradients_v1", f_or_ys, x, grad_ys, reduce, unconnected_gradients)


@public("vjp", "v1")
def vjp_v1(f_or_y, x, grad_ys, *, tape=None, unconnected_gradients="none", cache=True):
    return _gradients("vjp_v1", f_or_y, x, grad_ys, "sum", unconnected_gradients)


def _gradients(fn_name, f_or_ys, x, grad_ys, reduce, unconnected_gradients):
    _common.check_reduce(fn_name, reduce)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)
    ys, xs, pack = _inputs(fn_name, f_or_ys, x, check_y=_common.check_outputs)
    grads = tf.gradients(ys, xs, grad_ys=grad_ys, unconnected_gradients=unconnected)
    if reduce == "mean":
        grads = _common.divide_by_batch_size(fn_name, grads, ys)
    return pack(grads)


@public("hessian", "v1")
def hessian_v1(f_or_y, x, *, tape=None, method="auto", unconnected_gradients="none", cache=True):
    fn_name = "hessian_v1"
    _common.check_method(fn_name, method)
    unconnected = _common.unconnected_enum(fn_name, unconnected_gradients)
    y, xs, pack = _inputs(fn_name, f_or_y, x)
    _common.check_scalar_output(fn_name, y)
    gs = _assemble.dense(tf.gradients(y, xs))
    jacobian_of = lambda g: _jacobian_tensor_form(g, xs, method, unconnected)  # noqa: E731
    return pack([pack(row) for row in _assemble.hessian_rows(gs, xs, jacobian_of, unconnected)])
