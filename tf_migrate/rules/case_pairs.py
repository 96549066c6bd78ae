"""tf.case with a dict of predicates -> a list of (predicate, function) pairs.

Eager tensors are unhashable, so ``tf.case({x < y: f, x > y: g}, exclusive=True)`` raises
``TypeError: Tensor is unhashable`` once the predicates are eager tensors. With ``exclusive=True`` the
order of the pairs does not change the result (at most one predicate may hold, and TF checks it), so the
dict's pairs in source order are the same case. With ``exclusive=False`` TF1 tried the pairs in the
order of their ops' *names* (``sorted(..., key=lambda item: item[0].name)``, tensorflow/python/ops/
control_flow_case.py), which eager code cannot see: the file stays in compat mode, with the reason here.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.cst.arguments import bind
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "case-pairs"
_CASE = ("tf.case", "tf.compat.v1.case")
_PARAMS = ["pred_fn_pairs", "default", "exclusive", "strict", "name"]


class CaseDictToPairs(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.case({pred: fn}, exclusive=True) -> tf.case([(pred, fn)]): eager tensors are unhashable"
    ORDER = 30
    TRIGGERS = ("case",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Pairs(ctx))


class _Pairs(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) not in _CASE:
            return updated
        bound = bind(updated, _PARAMS)
        pairs = (bound or {}).get("pred_fn_pairs")
        if not isinstance(pairs, cst.Dict):
            if bound is None or pairs is None or not isinstance(pairs, (cst.List, cst.Tuple)):
                self.ctx.block(original, "tf.case's predicates are not a literal list of pairs: a dict keyed by "
                                         "eager tensors raises (they are unhashable)")
            return updated
        exclusive = bound.get("exclusive")
        if not (isinstance(exclusive, cst.Name) and exclusive.value == "True"):
            self.ctx.block(original, "tf.case with a dict of predicates and exclusive=False: TF1 tried them in the "
                                     "order of their op names, which eager code cannot reproduce")
            return updated
        if any(not isinstance(element, cst.DictElement) for element in pairs.elements):
            self.ctx.block(original, "tf.case with `**` in its dict of predicates")
            return updated
        listed = cst.List([cst.Element(cst.Tuple([cst.Element(e.key), cst.Element(e.value)]),
                                       comma=e.comma) for e in pairs.elements],
                          lbracket=cst.LeftSquareBracket(whitespace_after=pairs.lbrace.whitespace_after),
                          rbracket=cst.RightSquareBracket(whitespace_before=pairs.rbrace.whitespace_before))
        self.ctx.report(original, RULE_ID, INFO, "dict of predicates -> list of pairs (eager tensors are unhashable; "
                                                 "exclusive=True makes their order irrelevant)")
        args = [arg.with_changes(value=listed) if arg.value is pairs else arg for arg in updated.args]
        return updated.with_changes(args=args)
