"""Jacobians assembled from vector products, independent of the backend.

A backend supplies `product(v)`: a vector-Jacobian product (reverse mode, one
row of the Jacobian per basis cotangent) or a Jacobian-vector product (forward
mode, one column per basis tangent). The functions here apply it to every basis
vector with the requested method and reshape the stack:

- "loop": a Python loop, one product subgraph per basis vector (needs the count
  when the graph is built);
- "map_fn" / "while_loop": one product subgraph run in a TF loop over
  `tf.range(count)`; the loop maps over indices, never over y's elements, which
  would disconnect them from x;
- "pfor": one product subgraph vectorized over all basis vectors at once
  (`tf.vectorized_map`), i.e. one batched backward (or forward) pass.

A product returns a list (one entry per source) whose entries may be None
where a source is unconnected; those come back as None.
"""

from compat import _common
from compat._common import static_size, tf


def jacobians(vjp, make_jvp_products, y, xs, method, unconnected, batched, forward_ok=True):
    """Jacobians of y for every x (full or per-example); unconnected: None or zeros.

    vjp(cotangent) returns one x-shaped product per x. make_jvp_products()
    returns, per x, a function tangent -> [y-shaped product] (None for an
    unconnected x). With method="auto", forward mode is tried only where
    forward_ok, and a LookupError (an op whose gradient has no gradient)
    falls back to "pfor".
    """
    results = _jacobians(vjp, make_jvp_products, y, xs, method, batched, forward_ok)
    shapes = [joined_shape(y, x, batched) for x in xs]
    return zeros_for_unconnected(results, shapes, [x.dtype for x in xs], unconnected)


def _jacobians(vjp, make_jvp_products, y, xs, method, batched, forward_ok):
    if batched:
        y_size, x_sizes = y.shape[1:].num_elements(), [x.shape[1:].num_elements() for x in xs]
        reverse, forward = batch_reverse_jacobian, batch_forward_jacobian
    else:
        y_size, x_sizes = static_size(y), [static_size(x) for x in xs]
        reverse, forward = reverse_jacobian, forward_jacobian
    chosen = method
    if method == "auto":
        ranks_known = all(t.shape.rank is not None for t in [y, *xs])
        wants_forward = forward_ok and ranks_known and _common.prefers_forward_mode(y_size, x_sizes)
        chosen = "forward" if wants_forward else "pfor"
    if chosen == "forward":
        try:
            products = _checked(make_jvp_products(), xs)
            return [None if p is None else forward(p, y, x, "pfor") for p, x in zip(products, xs)]
        except LookupError:
            if method != "auto":
                raise
            chosen = "pfor"
    return reverse(vjp, y, xs, chosen)


def reverse_jacobian(vjp, y, xs, method):
    """Full Jacobians y.shape + x.shape from vjp(cotangent) -> [dx for x in xs]."""
    stacked = _stack_over_basis(vjp, y, xs, method, batched=False)
    return [None if s is None else _reshape_joined(s, y, x) for s, x in zip(stacked, xs)]


def forward_jacobian(jvp, y, x, method):
    """Full Jacobian y.shape + x.shape from jvp(tangent of x) -> [dy] (or [None])."""
    _check_ranks(y, x)
    (stacked,) = _stack_over_basis(jvp, x, [y], method, batched=False)
    if stacked is None:
        return None
    ry, rx = y.shape.rank, x.shape.rank
    columns = tf.reshape(stacked, tf.concat([tf.shape(x), tf.shape(y)], 0))
    jac = tf.transpose(columns, list(range(rx, rx + ry)) + list(range(rx)))
    jac = tf.cast(jac, x.dtype)
    jac.set_shape(y.shape.concatenate(x.shape))
    return jac


def batch_reverse_jacobian(vjp, y, xs, method):
    """Per-example Jacobians (B,) + y.shape[1:] + x.shape[1:] from vjp."""
    stacked = _stack_over_basis(vjp, y, xs, method, batched=True)
    return [
        None if s is None else _per_example(s, y, x, rows_first=True) for s, x in zip(stacked, xs)
    ]


def batch_forward_jacobian(jvp, y, x, method):
    """Per-example Jacobians (B,) + y.shape[1:] + x.shape[1:] from jvp."""
    (stacked,) = _stack_over_basis(jvp, x, [y], method, batched=True)
    return None if stacked is None else _per_example(stacked, y, x, rows_first=False)


def jvps(make_jvp_products, vjp, y, xs, tangents, can_retry=True):
    """J_k @ tangents[k] for every x (y-shaped, None where unconnected).

    Forward mode; when an op has no second derivative (LookupError), the
    products come from the reverse-mode Jacobians instead, if can_retry.
    """
    try:
        products = make_jvp_products()
        return [
            None if p is None else _dense_or_zeros(p(t)[0], y) for p, t in zip(products, tangents)
        ]
    except LookupError:
        if not can_retry:
            raise
    jacs = reverse_jacobian(vjp, y, xs, "pfor")
    return [
        None if j is None else contract(j, t, x, y.dtype) for j, t, x in zip(jacs, tangents, xs)
    ]


def contract(jac, tangent, x, dtype):
    """J @ tangent for a Jacobian of shape y.shape + x.shape: y-shaped, of dtype."""
    if x.shape.rank is None:
        raise ValueError("the fallback to reverse mode needs the rank of x; set_shape it")
    return tf.cast(tf.tensordot(jac, tf.cast(tangent, jac.dtype), axes=x.shape.rank), dtype)


def y_shaped(results, y, unconnected):
    """per_output_grad's results, one per x, with zeros of y's shape if asked."""
    k = len(results)
    return zeros_for_unconnected(results, [tf.shape(y)] * k, [y.dtype] * k, unconnected)


def hessian_rows(gs, xs, jacobian_of, unconnected):
    """Hessian blocks [[d g_i / d x_j for x_j in xs] for g_i in gs], g_i the gradients.

    jacobian_of(g) returns one block per x; an unconnected x_i (g_i None) gets a
    row of None (or zeros).
    """
    rows = []
    for g, x_i in zip(gs, xs):
        if g is None:
            shapes = [joined_shape(x_i, x_j) for x_j in xs]
            rows.append(
                zeros_for_unconnected([None] * len(xs), shapes, [x.dtype for x in xs], unconnected)
            )
        else:
            rows.append(jacobian_of(g))
    return rows


def joined_shape(y, x, batched=False):
    """Dynamic shape of a Jacobian: y's shape, then x's (without its batch axis)."""
    return tf.concat([tf.shape(y), tf.shape(x)[1 if batched else 0 :]], 0)


def zeros_for_unconnected(results, shapes, dtypes, unconnected):
    """With unconnected_gradients="zero", None results become zeros."""
    if unconnected != tf.UnconnectedGradients.ZERO:
        return results
    return [
        tf.zeros(shape, dtype) if r is None else r
        for r, shape, dtype in zip(results, shapes, dtypes)
    ]


def dense(grads):
    """Gradients as tensors (IndexedSlices densified), None kept."""
    return [None if g is None else tf.convert_to_tensor(g) for g in grads]


def _checked(products, xs):
    """Raises LookupError now, not from inside a traced loop, if an op lacks a second derivative."""
    for p, x in zip(products, xs):
        if p is not None:
            p(tf.zeros_like(x))
    return products


def _dense_or_zeros(t, like):
    return tf.zeros_like(like) if t is None else tf.convert_to_tensor(t)


def _stack_over_basis(product, basis_of, like, method, batched):
    """Stacks product(e) for every one-hot e shaped like basis_of (per example when batched).

    The one-hots run over all elements of basis_of, or over the elements of one
    example, repeated for every example, when batched. A zero-size basis only
    asks product for connectivity.
    """
    count = _count(basis_of, method, batched)
    if isinstance(count, int) and count == 0:
        outs = product(tf.zeros_like(basis_of))
        return [
            None if out is None else tf.zeros(tf.concat([[0], tf.shape(ref)], 0), ref.dtype)
            for out, ref in zip(outs, like)
        ]
    basis = _basis(count, basis_of, basis_of.dtype, batched)
    return _stack_products(product, count, basis, method, like)


def _count(t, method, batched):
    """Basis size: all elements of t, or those of one example when batched."""
    n = t.shape[1:].num_elements() if batched else static_size(t)
    if n is not None:
        return n
    if method == "loop":
        raise ValueError(
            "method='loop' needs the size of y (x for forward mode) when the graph "
            "is built; use method='pfor' or 'while_loop' for unknown shapes"
        )
    return tf.reduce_prod(tf.shape(t)[1:]) if batched else tf.size(t)


def _basis(count, like, dtype, batched):
    """Returns i -> the i-th one-hot tensor shaped like `like`.

    With `batched`, the one-hot runs over the elements of one example and is
    repeated for every example along axis 0.
    """
    shape = tf.shape(like)

    def basis(i):
        e = tf.one_hot(i, count, dtype=dtype)
        if batched:
            e = tf.broadcast_to(e, tf.stack([shape[0], count]))
        return tf.reshape(e, shape)

    return basis


def _stack_products(product, count, basis, method, like):
    """Stacks product(basis(i)) for i in range(count) along a new axis 0.

    `like` holds, per product output, a tensor with its shape and dtype (zeros
    stand in while tracing an unconnected output).
    """
    unconnected = set()

    def row(i):
        outs = []
        for k, (out, ref) in enumerate(zip(product(basis(i)), like)):
            if out is None:
                unconnected.add(k)
                out = tf.zeros(tf.shape(ref), ref.dtype)
            outs.append(tf.convert_to_tensor(out))
        return outs

    if method == "loop":
        rows = [row(i) for i in range(count)]
        stacked = [tf.stack(column) for column in zip(*rows)]
    elif method == "map_fn":
        stacked = tf.map_fn(
            row,
            tf.range(count),
            fn_output_signature=[tf.TensorSpec(None, ref.dtype) for ref in like],
        )
    elif method == "while_loop":
        stacked = _while_loop(row, count, like)
    else:
        stacked = tf.vectorized_map(row, tf.range(count))
    return [None if k in unconnected else s for k, s in enumerate(stacked)]


def _while_loop(row, count, like):
    arrays = [tf.TensorArray(ref.dtype, size=count, infer_shape=False) for ref in like]

    def body(i, arrays):
        return i + 1, [a.write(i, out) for a, out in zip(arrays, row(i))]

    _, arrays = tf.while_loop(lambda i, _: i < count, body, (tf.constant(0), arrays))
    return [a.stack() for a in arrays]


def _reshape_joined(stacked, y, x):
    """(m, *x.shape) rows -> y.shape + x.shape, in x's dtype."""
    out = tf.cast(tf.reshape(stacked, joined_shape(y, x)), x.dtype)
    out.set_shape(y.shape.concatenate(x.shape))
    return out


def _per_example(stacked, y, x, rows_first):
    """(k, B, ...) products -> (B, y-example..., x-example...).

    Reverse mode stacks rows (k = y elements per example, then x's shape),
    forward mode stacks columns (k = x elements per example, then y's shape).
    """
    rank = (x if rows_first else y).shape.rank
    if rows_first:
        perm = [1, 0, *range(2, rank + 1)]
    else:
        perm = [*range(1, rank + 1), 0]
    checks = []
    if not y.shape[:1].merge_with(x.shape[:1]).is_fully_defined():
        checks.append(
            tf.debugging.assert_equal(
                tf.shape(y)[0], tf.shape(x)[0], message="batch_jacobian: y and x batch sizes differ"
            )
        )
    with tf.control_dependencies(checks):
        shape = joined_shape(y, x, batched=True)
    out = tf.reshape(tf.transpose(stacked, perm), shape)
    out = tf.cast(out, x.dtype)
    out.set_shape(
        y.shape[:1].merge_with(x.shape[:1]).concatenate(y.shape[1:]).concatenate(x.shape[1:])
    )
    return out


def _check_ranks(y, x):
    if y.shape.rank is None or x.shape.rank is None:
        raise ValueError(
            "method='forward' needs the ranks of y and x when the graph is built; "
            "use method='pfor' for tensors of unknown rank"
        )
