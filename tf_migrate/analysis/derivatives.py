"""How TF1's derivative calls name their arguments: ``tf.gradients(ys, xs, ...)``, the pfor Jacobians'
``output`` / ``inputs``, ``tf.hessians``. The analysis asks what a gradient differentiates with respect to; the
code generation rewrites the calls."""
from __future__ import annotations

from typing import Dict, List

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.arguments import bind_known

_POSITIONAL = ["ys", "xs", "grad_ys", "name", "colocate_gradients_with_ops", "gate_gradients",
               "aggregation_method", "stop_gradients", "unconnected_gradients"]
_PFOR_POSITIONAL = ["ys", "xs", "use_pfor", "parallel_iterations"]
_HESSIANS_POSITIONAL = ["ys", "xs", "gate_gradients", "aggregation_method", "name"]
_KEYWORD_ALIASES = {"output": "ys", "inputs": "xs", "inp": "xs"}


def bind_arguments(call: cst.Call, positional: List[str] = _POSITIONAL) -> Dict[str, cst.BaseExpression]:
    """tf.gradients' arguments by name; the other derivatives' ``output``/``inputs`` keywords as ys/xs."""
    bound = bind_known(call, positional)
    if positional is _POSITIONAL:
        return bound
    return {_KEYWORD_ALIASES.get(name, name): value for name, value in bound.items()}


def bind_derivative(call: cst.Call, qualname: str) -> Dict[str, cst.BaseExpression]:
    """Arguments of any derivative call, with ys/xs named as tf.gradients names them."""
    if qualname in (api.PFOR_JACOBIAN, api.PFOR_BATCH_JACOBIAN):
        return bind_arguments(call, _PFOR_POSITIONAL)
    if qualname in api.HESSIANS:
        return bind_arguments(call, _HESSIANS_POSITIONAL)
    return bind_arguments(call)


def sources(call: cst.Call, qualname: str = "tf.gradients") -> List[cst.BaseExpression]:
    """The expressions a derivative call differentiates with respect to (its xs, one by one)."""
    xs = bind_derivative(call, qualname).get("xs")
    if xs is None:
        return []
    return [el.value for el in xs.elements] if isinstance(xs, (cst.List, cst.Tuple)) else [xs]


def source_keys(call: cst.Call, qualname: str = "tf.gradients") -> List[str]:
    """Symbol keys among a derivative call's xs (what the tape may have to watch)."""
    return [key for key in (symbol_key(e) for e in sources(call, qualname)) if key is not None]
