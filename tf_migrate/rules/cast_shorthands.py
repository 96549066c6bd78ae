"""tf.to_float(x) -> tf.cast(x, tf.float32), and the other tf.to_* casts.

TF2 removed the ``tf.to_*`` shorthands; ``tf.cast`` with the dtype spelled out
is the same op (TF1 defined them as that cast). The op name, when the call
gives one, is kept as ``name=``.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.cst.arguments import bind_known
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "cast-shorthands"
_DTYPES = {"tf.to_float": "float32", "tf.to_double": "float64", "tf.to_int32": "int32", "tf.to_int64": "int64",
           "tf.to_bfloat16": "bfloat16", "tf.to_complex64": "complex64", "tf.to_complex128": "complex128"}


class CastShorthandsToCast(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.to_float/to_double/to_int32/to_int64/... -> tf.cast(x, dtype)"
    ORDER = 30
    TRIGGERS = ("to_",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Casts(ctx))


class _Casts(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        dtype = _DTYPES.get(self.ctx.names.call_name(original) or "")
        if dtype is None:
            return updated
        bound = bind_known(updated, ["x", "name"])
        if "x" not in bound or set(bound) - {"x", "name"} or any(a.star for a in updated.args):
            return updated  # not a call TF1 accepted as written: leave its error to it
        name = f", name={code(bound['name'])}" if "name" in bound else ""
        self.ctx.report(original, RULE_ID, INFO, f"{self.ctx.names.call_name(original)} -> tf.cast(..., {dtype})")
        return cst.parse_expression(f"{self.ctx.tf}.cast({code(bound['x'])}, {self.ctx.tf}.{dtype}{name})")
