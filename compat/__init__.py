"""One Jacobian/gradient API over TF1 graph mode and TF2 eager mode.

Every function comes as `name_v1` (graph mode: tf.gradients, for Session code
and tf.function), `name_v2` (eager: GradientTape / ForwardAccumulator) and
`name`, which picks one by `tf.executing_eagerly()`. The three take the same
arguments and return the same shapes, dtypes and None/zero conventions.
"""

from compat._dispatch import (
    batch_jacobian,
    gradients,
    hessian,
    jacobian,
    jvp,
    per_output_grad,
    vjp,
)
from compat._v1 import (
    batch_jacobian_v1,
    gradients_v1,
    hessian_v1,
    jacobian_v1,
    jvp_v1,
    per_output_grad_v1,
    vjp_v1,
)
from compat._v2 import (
    batch_jacobian_v2,
    gradients_v2,
    hessian_v2,
    jacobian_v2,
    jvp_v2,
    per_output_grad_v2,
    vjp_v2,
)

__all__ = [
    "batch_jacobian",
    "batch_jacobian_v1",
    "batch_jacobian_v2",
    "gradients",
    "gradients_v1",
    "gradients_v2",
    "hessian",
    "hessian_v1",
    "hessian_v2",
    "jacobian",
    "jacobian_v1",
    "jacobian_v2",
    "jvp",
    "jvp_v1",
    "jvp_v2",
    "per_output_grad",
    "per_output_grad_v1",
    "per_output_grad_v2",
    "vjp",
    "vjp_v1",
    "vjp_v2",
]
