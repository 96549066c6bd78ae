"""tf.nn.dropout(x, keep_prob) -> tf.nn.dropout(x, rate=1 - keep_prob).

TF2's second positional argument is ``rate``: leaving the call as it was
would silently drop the kept units instead.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.cst.arguments import keyword
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "dropout-rate"
_TF1_ORDER = ["x", "keep_prob", "noise_shape", "seed", "name", "rate"]


class DropoutKeepProbToRate(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.nn.dropout(x, keep_prob) -> tf.nn.dropout(x, rate=1 - keep_prob)"
    ORDER = 30

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Dropout(ctx))


class _Dropout(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if self.ctx.names.call_name(original) != "tf.nn.dropout":
            return updated
        args = []
        for index, arg in enumerate(updated.args):
            name = arg.keyword.value if arg.keyword is not None else (
                _TF1_ORDER[index] if index < len(_TF1_ORDER) else None)
            if name == "keep_prob":
                value = cst.parse_expression(f"1 - {code(arg.value)}"
                                             if isinstance(arg.value, (cst.Name, cst.Attribute, cst.Float,
                                                                       cst.Integer, cst.Call, cst.Subscript))
                                             else f"1 - ({code(arg.value)})")
                arg = keyword("rate", value)
                self.ctx.report(original, RULE_ID, INFO, "keep_prob -> rate = 1 - keep_prob")
            elif arg.keyword is None and name not in ("x", None):
                arg = arg.with_changes(keyword=cst.Name(name),
                                       equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
            args.append(arg)
        return updated.with_changes(args=args)
