"""tf.cond on a training flag: its predicate made a tensor, as TF2's tf.cond requires.

    is_training = tf.placeholder(tf.bool, [])              (fed True / False)
    h = tf.cond(is_training, lambda: a, lambda: b)
becomes
    h = tf.cond(tf.convert_to_tensor(is_training), lambda: a, lambda: b)

The session rule turns a scalar bool placeholder into a Python bool parameter of the run functions
(Keras layers branch on ``training`` in Python, and a run fed one literal is compiled for it), and
TF2's ``tf.cond`` refuses a Python bool (``TypeError: pred must not be a Python bool``), where TF1's
took the placeholder. ``tf.convert_to_tensor`` gives the same branch in every mode: eager runs only
the branch taken, and ``tf.function`` traces both, as TF1 built both. A predicate that is the flag
itself, or a parameter of the function around the ``tf.cond`` in a program that has such flags (the
flag may be handed in), is wrapped; on a tensor the wrap does nothing.
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.arguments import bind_known, parameter_names
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "cond-flags"
_PLACEHOLDERS = ("tf.placeholder", "tf.placeholder_with_default")


class CondOnFlags(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.cond(flag, ...) on a bool placeholder -> tf.cond(tf.convert_to_tensor(flag), ...)"
    ORDER = 30
    TRIGGERS = ("cond",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        flags = _bool_placeholders(module, ctx)
        if not flags:
            return module
        return visit(module, _Wrap(ctx, flags))


def _bool_placeholders(module: cst.Module, ctx: RuleContext) -> Set[str]:
    """Names and ``self.`` attributes bound to a scalar-or-unshaped bool placeholder anywhere in the module."""
    found: Set[str] = set()

    class _Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if not (isinstance(node.value, cst.Call) and ctx.names.call_name(node.value) in _PLACEHOLDERS):
                return
            call = node.value
            if ctx.names.call_name(call) == "tf.placeholder":
                dtype = bind_known(call, ["dtype", "shape", "name"]).get("dtype")
                is_bool = dtype is not None and code(dtype).endswith("bool")
            else:
                default = bind_known(call, ["input", "shape", "name"]).get("input")
                is_bool = isinstance(default, cst.Name) and default.value in ("True", "False")
            if is_bool:
                found.update(key for target in node.targets for key in [symbol_key(target.target)] if key)

    visit(module, _Find())
    return found


class _Wrap(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, flags: Set[str]) -> None:
        self.ctx, self.flags = ctx, flags
        self.params: List[Set[str]] = []  # the parameters of each enclosing function or lambda

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.params.append(set(parameter_names(node.params, stars=False)))

    def leave_FunctionDef(self, original, updated):
        self.params.pop()
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) != "tf.cond" or not updated.args:
            return updated
        first = updated.args[0]
        if first.keyword is not None and first.keyword.value != "pred":
            return updated
        key = symbol_key(first.value)
        if key is None or not (key in self.flags or (self.params and key in self.params[-1])):
            return updated
        wrapped = cst.parse_expression(f"{self.ctx.tf}.convert_to_tensor(x)").with_changes(
            args=[cst.Arg(first.value)])
        self.ctx.report(original, RULE_ID, INFO, f"tf.cond on `{key}`, which may be a Python bool flag: its "
                        "predicate is made a tensor, as TF2's tf.cond requires")
        return updated.with_changes(args=[first.with_changes(value=wrapped), *updated.args[1:]])
