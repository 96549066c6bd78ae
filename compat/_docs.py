"""Docstrings for the public functions, written once for all three variants.

`name_v1`, `name_v2` and `name` take the same arguments; `docstring(name,
backend)` assembles each variant's Google-style docstring from the shared
argument text, a backend note and a runnable `>>>` example (checked by
tests/compat/test_compat_docs.py).
"""

_ARGS = {
    "f_or_y": (
        "A callable f, called once as f(x) with x as passed (the portable form), "
        "or the tensor y itself (tensor form: a graph tensor in graph mode; in eager "
        "mode pass the tape that recorded it)."
    ),
    "f_or_ys": (
        "A callable f returning one tensor or a list of tensors, or those tensors (tensor form)."
    ),
    "x": (
        "A float tensor, Variable or scalar, or a list/tuple of them (the result then has one "
        "entry per element). The callable form also takes Python numbers and numpy arrays."
    ),
    "tangents": "The direction dx: x's structure, x's shapes.",
    "grad_ys": (
        "Weights of y's elements (tf.gradients' grad_ys, GradientTape's output_gradients), "
        "y's structure and shapes."
    ),
    "grad_ys_optional": "Like grad_ys in vjp; None (default) weighs every element of y by 1.",
    "tape": (
        "Eager tensor form only: the tf.GradientTape that recorded y while watching x. "
        "The graph-mode variant ignores it."
    ),
    "method": (
        "How the Jacobian is assembled. 'auto' (default): 'forward' when y has more than "
        "twice as many elements as x, else 'pfor'. 'pfor': one vectorized backward pass "
        "(tf.vectorized_map over one-hot cotangents). 'forward': one vectorized forward pass "
        "over x's elements. 'loop': one backward pass per element of y, unrolled in Python "
        "(needs y's size when the graph is built). 'map_fn': tf.map_fn over tf.range(size). "
        "'while_loop': tf.while_loop writing a TensorArray. All give the same values."
    ),
    "reduce": (
        "'sum' (default): what tf.gradients computes, the sum over every y and every element "
        "of y. 'mean': that sum divided by the batch size, the length of axis 0 of y (of the "
        "first y if several), as DDPG-style code does by hand."
    ),
    "unconnected_gradients": (
        "'none' (default) returns None for an x that y does not depend on, 'zero' returns "
        "zeros of the result's shape; tf.UnconnectedGradients members work too."
    ),
    "cache": (
        "Eager callable form only: run the computation as a tf.function cached per callable "
        "and options (traced again for new shapes or dtypes), so that repeated calls cost "
        "what a tf.function costs, not an eager retrace. Pass False when f reads Python state "
        "or tensors that change between calls. A callable that fails to trace runs eagerly "
        "with a warning. Graph mode ignores it."
    ),
}

_FUNCTIONS = {
    "jacobian": dict(
        summary="Computes the Jacobian of y with respect to x, shape y.shape + x.shape",
        args=("f_or_y", "x", "tape", "method", "unconnected_gradients", "cache"),
        returns=(
            "A tensor of shape y.shape + x.shape and x's dtype (a list of them for a list "
            "of xs); None for an unconnected x unless unconnected_gradients='zero'."
        ),
    ),
    "batch_jacobian": dict(
        summary=("Computes per-example Jacobians, shape (batch,) + y.shape[1:] + x.shape[1:]"),
        details=(
            "Assumes y[i] depends on x[i] only (not checked), as GradientTape.batch_jacobian "
            "does; the batch size may be unknown (None) in graph mode. Unlike "
            "GradientTape.batch_jacobian, an unconnected x gives None by default."
        ),
        args=("f_or_y", "x", "tape", "method", "unconnected_gradients", "cache"),
        returns=(
            "A tensor of shape (batch,) + y.shape[1:] + x.shape[1:] and x's dtype (a list "
            "for a list of xs); None for an unconnected x unless unconnected_gradients='zero'."
        ),
    ),
    "per_output_grad": dict(
        summary=(
            "Computes each output's derivative summed over all of x, shape y.shape, in forward mode"
        ),
        details=(
            "This is the 'dy/dx with y's shape' that tf.gradients does not give: the sum of "
            "the Jacobian over x's axes, J @ ones, i.e. how fast each y[i] moves when every "
            "element of x moves by 1. For an elementwise f it is f's derivative at x. It costs "
            "one forward-mode pass (a Jacobian-vector product with a tangent of ones), not one "
            "backward pass per output. tf.gradients sums the other way: over y, shape of x."
        ),
        args=("f_or_y", "x", "tape", "unconnected_gradients", "cache"),
        returns=(
            "A tensor of y's shape and dtype (a list, one per x, for a list of xs); None for "
            "an unconnected x unless unconnected_gradients='zero'."
        ),
    ),
    "gradients": dict(
        summary="Computes tf.gradients' sum over all outputs (or its batch mean), shape of x",
        details=(
            "tf.gradients(ys, xs) returns sum over every y and every element of y of dy/dx: "
            "stacking y twice doubles it. Per-example gradients come out only when row i of y "
            "depends on row i of x alone. reduce= makes that sum explicit."
        ),
        args=(
            "f_or_ys",
            "x",
            "grad_ys_optional",
            "tape",
            "reduce",
            "unconnected_gradients",
            "cache",
        ),
        returns=(
            "x's structure: one gradient per x with x's shape (a bare tensor for a bare x, "
            "unlike tf.gradients' list); IndexedSlices where TF returns them."
        ),
    ),
    "jvp": dict(
        summary="Computes the Jacobian-vector product J @ tangents in forward mode, shape y.shape",
        details=(
            "For a list of xs it is the sum of J_i @ tangents[i], the derivative along all of them."
        ),
        args=("f_or_y", "x", "tangents", "tape", "unconnected_gradients", "cache"),
        returns="A tensor of y's shape and dtype; None if y depends on no x, unless 'zero'.",
    ),
    "vjp": dict(
        summary="Computes the vector-Jacobian product grad_ys @ J in reverse mode, shape of x",
        details="The same as gradients(f_or_y, x, grad_ys) with reduce='sum'.",
        args=("f_or_y", "x", "grad_ys", "tape", "unconnected_gradients", "cache"),
        returns="x's structure, one tensor of x's shape per x.",
    ),
    "hessian": dict(
        summary="Computes the Hessian of a scalar y with respect to x, shape x.shape + x.shape",
        details=(
            "y must be a scalar: tf.hessians' sum over y is hessian of tf.reduce_sum(y). "
            "In the eager tensor form the tape must be persistent: the gradient is recorded "
            "on it again."
        ),
        args=("f_or_y", "x", "tape", "method", "unconnected_gradients", "cache"),
        returns=(
            "A tensor of shape x.shape + x.shape; for a list of xs a list of lists, "
            "result[i][j] of shape x[i].shape + x[j].shape."
        ),
    ),
}

_BACKENDS = {
    "v1": (
        "Graph mode (tf.gradients): works in a tf.compat.v1.Graph with Session code and "
        "inside a tf.function; y and x must belong to the graph being built. tape= and "
        "cache= are accepted and ignored, so moving between {name}_v1 and {name}_v2 is a rename."
    ),
    "v2": (
        "Eager mode (tf.GradientTape, tf.autodiff.ForwardAccumulator): the callable form "
        "records its own tape, the tensor form needs tape=. Also works inside a tf.function."
    ),
    None: (
        "Calls {name}_v2 when TensorFlow executes eagerly or a tape is given, {name}_v1 "
        "otherwise (Session code, tf.function); both take the same arguments."
    ),
}

_V1_SETUP = """\
>>> import tensorflow as tf
>>> from compat import {name}_v1
>>> graph = tf.compat.v1.Graph()
>>> with graph.as_default():
...     x = tf.compat.v1.placeholder(tf.float32, (3,))
...     result = {call}
>>> with tf.compat.v1.Session(graph=graph) as sess:
...     print(sess.run(result, {{x: [1.0, 2.0, 3.0]}}))
"""

_V2_SETUP = """\
>>> import tensorflow as tf
>>> from compat import {func}
>>> x = tf.constant([1.0, 2.0, 3.0])
>>> print({call}.numpy())
"""

_EXAMPLES = {
    "jacobian": (
        "{func}(lambda x: x ** 2, x)",
        "[[2. 0. 0.]\n [0. 4. 0.]\n [0. 0. 6.]]",
    ),
    "batch_jacobian": (
        "{func}(lambda x: x ** 2, tf.reshape(x, (1, 3)))",
        "[[[2. 0. 0.]\n  [0. 4. 0.]\n  [0. 0. 6.]]]",
    ),
    "per_output_grad": (
        "{func}(lambda x: tf.stack([tf.reduce_sum(x), x[0] * x[1]]), x)",
        "[3. 3.]",
    ),
    "gradients": ("{func}(lambda x: tf.stack([x, x]) ** 2, x)", "[ 4.  8. 12.]"),
    "jvp": ("{func}(lambda x: x ** 2, x, tf.ones(3))", "[2. 4. 6.]"),
    "vjp": ("{func}(lambda x: x ** 2, x, tf.constant([1.0, 0.0, 1.0]))", "[2. 0. 6.]"),
    "hessian": (
        "{func}(lambda x: tf.reduce_sum(x ** 3), x)",
        "[[ 6.  0.  0.]\n [ 0. 12.  0.]\n [ 0.  0. 18.]]",
    ),
}


def _example(name, backend):
    call, output = _EXAMPLES[name]
    func = name if backend is None else f"{name}_{backend}"
    if backend == "v1":
        text = _V1_SETUP.format(name=name, call=call.format(func=func))
    else:
        text = _V2_SETUP.format(func=func, call=call.format(func=func))
    return text + output + "\n"


def _indent(text, prefix):
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _wrap(text, width=84):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


def docstring(name, backend):
    spec = _FUNCTIONS[name]
    mode = {"v1": " (graph mode).", "v2": " (eager mode).", None: "."}[backend]
    parts = [spec["summary"] + mode, _wrap(_BACKENDS[backend].format(name=name))]
    if "details" in spec:
        parts.append(_wrap(spec["details"]))
    args = "\n".join(
        _indent(_wrap(f"{arg.replace('_optional', '')}: {_ARGS[arg]}", 80), "    ").replace(
            "\n    ", "\n        "
        )
        for arg in spec["args"]
    )
    parts.append("Args:\n" + args)
    parts.append("Returns:\n" + _indent(_wrap(spec["returns"], 80), "    "))
    parts.append("Example:\n" + _indent(_example(name, backend), "    "))
    return "\n\n".join(parts) + "\n"
