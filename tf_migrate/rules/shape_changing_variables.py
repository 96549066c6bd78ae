"""tf.Variable(..., validate_shape=False) -> tf.Variable(..., shape=tf.TensorShape(None)).

TF1 made such a variable without a static shape, and ``tf.assign(v, value, validate_shape=False)`` gave it the
value's shape (a vector that grows by ``tf.concat`` at each run). A TF2 variable keeps the shape of its initial
value even with ``validate_shape=False``, and an assignment of another shape fails ("Shape mismatch", inside a
compiled run function); ``shape=tf.TensorShape(None)`` is TF2's variable of any shape.

An assignment with ``validate_shape=False`` to anything but a name the module binds only to such variables (a
variable made with its shape fixed, ``tf.get_variable``, an attribute) keeps the file compat, with the reason:
TF1 changed that variable's shape, a TF2 variable cannot change its own.
"""
from __future__ import annotations

from typing import Dict, List

import libcst as cst

from tf_migrate.cst.arguments import argument, keyword
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "shape-changing-variables"
_ASSIGNS = {"tf.assign", "tf.compat.v1.assign"}
_VARIABLES = {"tf.Variable", "tf.compat.v1.Variable"}


class ShapeChangingVariables(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.Variable(validate_shape=False) -> tf.Variable(shape=tf.TensorShape(None)) (a TF2 variable of any shape)"
    ORDER = 9  # before get-variable and assign-ops, which drop validate_shape
    TRIGGERS = ("validate_shape",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        survey = _Survey(ctx)
        visit(module, survey)
        for call, ref in survey.assigns:
            if not (isinstance(ref, cst.Name) and survey.bindings.get(ref.value) and all(survey.bindings[ref.value])):
                ctx.block(call, f"`tf.assign(..., validate_shape=False)` gives `{code(ref)}` "
                                "the value's shape: TF1 changed the variable's shape, and a TF2 variable keeps the "
                                "one it was made with (unless made with shape=tf.TensorShape(None), which this "
                                "variable is not)")
        if not survey.unshaped:
            return module
        return visit(module, _Unshape(ctx, survey.unshaped))


def _no_validation(call: cst.Call, position: int) -> bool:
    """Whether the call passes ``validate_shape=False`` (by keyword, or at ``position``)."""
    given = argument(call, "validate_shape")
    if given is None:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        given = positional[position].value if len(positional) > position else None
    return isinstance(given, cst.Name) and given.value == "False"


class _Survey(cst.CSTVisitor):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.assigns: List[tuple] = []  # (call, ref) of assignments without shape validation
        self.unshaped: set = set()  # ids of tf.Variable calls without shape validation
        self.bindings: Dict[str, List[bool]] = {}  # name -> for each binding: a variable without shape validation

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                value = node.value
                unshaped = isinstance(value, cst.Call) and self.ctx.names.call_name(value) in _VARIABLES and \
                    _no_validation(value, 3) and len(node.targets) == 1
                self.bindings.setdefault(target.target.value, []).append(unshaped)

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.ctx.names.call_name(node)
        if qualname in _VARIABLES and _no_validation(node, 3) and argument(node, "shape") is None:
            self.unshaped.add(id(node))
        elif qualname in _ASSIGNS and _no_validation(node, 2):
            ref = argument(node, "ref")
            positional = [a for a in node.args if a.keyword is None and not a.star]
            self.assigns.append((node, ref if ref is not None else positional[0].value if positional else None))
        elif qualname in ("tf.get_variable", "tf.compat.v1.get_variable") and _no_validation(node, 9):
            self.ctx.block(node, "`tf.get_variable(validate_shape=False)`: a TF2 variable keeps the shape it was "
                                 "made with")


class _Unshape(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, unshaped: set) -> None:
        self.ctx, self.unshaped = ctx, unshaped

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if id(original) not in self.unshaped:
            return updated
        self.ctx.report(original, RULE_ID, INFO, "tf.Variable(validate_shape=False) -> "
                                                 "tf.Variable(shape=tf.TensorShape(None)): TF2's variable of any shape")
        args = [a for a in updated.args if not (a.keyword is not None and a.keyword.value == "validate_shape")]
        if len(args) != len(updated.args) and args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(args=[*args, keyword("shape", cst.parse_expression(f"{self.ctx.tf}.TensorShape(None)"))])
