"""The unsuffixed functions: each picks the graph-mode or the eager backend."""

import functools
import inspect

from compat import _v1, _v2
from compat._common import public, tf


def _dispatching(name):
    v1, v2 = getattr(_v1, f"{name}_v1"), getattr(_v2, f"{name}_v2")

    @public(name, None)
    @functools.wraps(v2)
    def dispatch(*args, **kwargs):
        # A tape means y was recorded on it, also inside a tf.function.
        eager = kwargs.get("tape") is not None or tf.executing_eagerly()
        return (v2 if eager else v1)(*args, **kwargs)

    dispatch.__name__ = dispatch.__qualname__ = name
    dispatch.__signature__ = inspect.signature(v2)
    del dispatch.__wrapped__
    return dispatch


jacobian = _dispatching("jacobian")
batch_jacobian = _dispatching("batch_jacobian")
per_output_grad = _dispatching("per_output_grad")
gradients = _dispatching("gradients")
jvp = _dispatching("jvp")
vjp = _dispatching("vjp")
hessian = _dispatching("hessian")
