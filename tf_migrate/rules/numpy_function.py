"""tf.py_func(f, inp, Tout) -> tf.numpy_function(f, inp, Tout).

``tf.numpy_function`` is TF2's name for the same op: ``f`` gets numpy arrays
and returns numpy arrays, it is not differentiable, and it runs each time the
op runs (also inside a ``tf.function``). The arguments keep their order and
names (``stateful=``, ``name=``). ``tf.py_function``, which hands ``f`` eager
tensors, would change what ``f`` sees.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "numpy-function"


class PyFuncToNumpyFunction(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.py_func -> tf.numpy_function (same arguments, numpy in and out)"
    ORDER = 30
    TRIGGERS = ("py_func",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _PyFunc(ctx))


class _PyFunc(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) != "tf.py_func":
            return updated
        self.ctx.report(original, RULE_ID, INFO, "tf.py_func -> tf.numpy_function (numpy in and out, as before)")
        return updated.with_changes(func=cst.parse_expression(f"{self.ctx.tf}.numpy_function"))
