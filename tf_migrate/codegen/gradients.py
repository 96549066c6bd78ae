"""tf.gradients(ys, xs, ...) -> tape.gradient(ys, [xs], ...), every TF1 semantic kept.

Also the other TF1 derivative calls: ``tf.hessians(ys, xs)`` -> a Jacobian of
the recorded gradient per x, and TF1's graph-mode
``parallel_for.gradients.jacobian`` / ``batch_jacobian`` -> ``tape.jacobian`` /
``tape.batch_jacobian`` (both vectorize with pfor, as the TF1 versions did).

* the result stays a list of len(xs): bare xs are wrapped in a list;
* ys lists are summed by both APIs; ``grad_ys`` -> ``output_gradients``;
* ``unconnected_gradients`` is passed on; ``name``, ``gate_gradients``,
  ``colocate_gradients_with_ops`` and ``aggregation_method`` do not change
  values and are dropped;
* ``stop_gradients=[t]`` becomes ``t = tf.stop_gradient(t)`` where t is built
  (done by the function builder, which knows where that is).

The tape itself (which statements it records, what it watches, whether it is
persistent) is built by :mod:`tf_migrate.codegen.function_builder`; this
module rewrites the calls. Both run inside the session-to-functions rule: a
gradient is only lowered where the run that needs it becomes a function.
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.derivatives import bind_arguments, bind_derivative
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.arguments import keyword
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

# Derivatives whose inner gradient must itself be recorded: computed inside the tape's context.
IN_CONTEXT = api.HESSIANS


def as_list(expr: cst.BaseExpression, scope: "pm.Scope", tf: str) -> cst.BaseExpression:
    """An expression that is a list of the sources ``expr`` names, as tf.gradients reads xs."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return cst.List([el.with_changes(comma=cst.MaybeSentinel.DEFAULT) for el in expr.elements])
    key = symbol_key(expr)
    if key is not None and scope.kind(key) in (pm.VARIABLE, pm.TENSOR, pm.PLACEHOLDER, pm.EAGER):
        return cst.List([cst.Element(expr)])
    if key is not None and scope.kind(key) in (pm.VARIABLES, pm.TENSORS, pm.STRUCT):
        return expr
    return cst.parse_expression(f"{tf}.nest.flatten({code(expr)})")


def stopped_keys(call: cst.Call) -> Optional[List[str]]:
    """Keys in ``stop_gradients``; None when it is not a list of names."""
    stop = bind_arguments(call).get("stop_gradients")
    if stop is None:
        return []
    elements = [el.value for el in stop.elements] if isinstance(stop, (cst.List, cst.Tuple)) else [stop]
    keys = [symbol_key(e) for e in elements]
    return None if None in keys else keys


def to_tape_call(call: cst.Call, tape: str, scope: "pm.Scope", tf: str, qualname: str = "tf.gradients"):
    if qualname in (api.PFOR_JACOBIAN, api.PFOR_BATCH_JACOBIAN):
        bound = bind_derivative(call, qualname)
        method = "jacobian" if qualname == api.PFOR_JACOBIAN else "batch_jacobian"
        args = [cst.Arg(bound["ys"]), cst.Arg(bound["xs"])]
        if "use_pfor" in bound:
            args.append(keyword("experimental_use_pfor", bound["use_pfor"]))
        return cst.Call(cst.Attribute(cst.Name(tape), cst.Name(method)), args=args)
    if qualname in api.HESSIANS:
        bound = bind_derivative(call, qualname)
        xs = code(as_list(bound["xs"], scope, tf))
        return cst.parse_expression(
            f"[{tape}.jacobian(grad, source) for grad, source in zip({tape}.gradient({code(bound['ys'])}, {xs}), {xs})]")
    bound = bind_arguments(call)
    args = [cst.Arg(bound["ys"]), cst.Arg(as_list(bound["xs"], scope, tf))]
    if "grad_ys" in bound and not (isinstance(bound["grad_ys"], cst.Name) and bound["grad_ys"].value == "None"):
        args.append(keyword("output_gradients", bound["grad_ys"]))
    if "unconnected_gradients" in bound:
        args.append(keyword("unconnected_gradients", bound["unconnected_gradients"]))
    return cst.Call(cst.Attribute(cst.Name(tape), cst.Name("gradient")), args=args)


class _Rewriter(cst.CSTTransformer):
    def __init__(self, names: TFNames, tape: str, scope, tf: str) -> None:
        self.names, self.tape, self.scope, self.tf = names, tape, scope, tf
        self.count = 0

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.names.call_name(original)
        if qualname in api.GRADIENTS:
            self.count += 1
            return to_tape_call(updated, self.tape, self.scope, self.tf, qualname)
        return updated


def gradient_calls(node: cst.CSTNode, names: TFNames) -> List[cst.Call]:
    calls = _GradientCalls(names)
    visit(node, calls)
    return calls.found


class _GradientCalls(cst.CSTVisitor):
    def __init__(self, names: TFNames) -> None:
        self.names = names
        self.found: List[cst.Call] = []

    def visit_Call(self, call: cst.Call) -> None:
        if self.names.call_name(call) in api.GRADIENTS:
            self.found.append(call)


def rewrite_gradients(node: cst.BaseStatement, names: TFNames, tape: str, scope, tf: str) -> cst.BaseStatement:
    return visit(node, _Rewriter(names, tape, scope, tf))
