"""tf.while_loop over a one-element list -> the element of a loop whose body returns a one-element tuple.

    r = tf.while_loop(lambda i: i < 5, lambda i: i + 1, [i])
    ->  r = tf.while_loop(lambda i: i < 5, lambda i: (i + 1,), [i])[0]

TF1's ``while_loop`` took a body returning the bare tensor for a ``loop_vars`` list of one, and returned the loop
variable itself (its ``return_same_structure=False``); TF2's returns the structure it was given, and run eagerly it
rejects such a body (``Cannot iterate over a scalar tensor``; given the bare element instead, an eager ``0`` is
refused as no ``loop_vars`` at all). The body's one value in a tuple matches the list, and ``[0]`` is what TF1
returned. Only where the body is a lambda whose result is not a list or tuple; any other one-element
``loop_vars`` keeps the file compat, with the reason.
"""
from __future__ import annotations

from typing import Set

import libcst as cst

from tf_migrate.cst.arguments import bind_known
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "while-loops"
_PARAMETERS = ["cond", "body", "loop_vars"]


class WhileLoops(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.while_loop(cond, lambda v: ..., [v]) -> tf.while_loop(cond, lambda v: (...,), [v])[0]: the "
                   "element TF1 returned")
    ORDER = 30
    TRIGGERS = ("while_loop",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Loops(ctx))


class _Loops(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.written: Set[int] = set()  # ids of loops already in this rule's form (its own output, migrated again)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        index = node.slice[0].slice if len(node.slice) == 1 else None
        body = bind_known(node.value, _PARAMETERS).get("body") if isinstance(node.value, cst.Call) else None
        if isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "0" \
                and isinstance(body, cst.Lambda) and isinstance(body.body, cst.Tuple) and len(body.body.elements) == 1:
            self.written.add(id(node.value))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) != "tf.while_loop" or id(original) in self.written:
            return updated
        bound = bind_known(updated, _PARAMETERS)
        loop_vars, body = bound.get("loop_vars"), bound.get("body")
        if not (isinstance(loop_vars, (cst.List, cst.Tuple)) and len(loop_vars.elements) == 1):
            return updated
        given = {a.keyword.value: a.value for a in updated.args if a.keyword is not None}
        if "return_same_structure" in given or not (isinstance(body, cst.Lambda) and not isinstance(
                body.body, (cst.List, cst.Tuple))) or isinstance(loop_vars.elements[0], cst.StarredElement):
            self.ctx.block(original, "tf.while_loop over a one-element list whose body is not a lambda returning "
                                     "one value: TF1 returned the element, TF2 returns the list")
            return updated
        one = cst.Tuple([cst.Element(body.body, comma=cst.Comma())])
        args = [arg.with_changes(value=body.with_changes(body=one)) if arg.value is body else arg
                for arg in updated.args]
        self.ctx.report(original, RULE_ID, INFO, "tf.while_loop over a one-element list: its body returns a "
                                                 "one-element tuple, and the loop's result is its element, as in TF1")
        return cst.Subscript(updated.with_changes(args=args), [cst.SubscriptElement(cst.Index(cst.Integer("0")))])
