"""ys computed inside a ``tf.gradients`` call get a name of their own, in the statement before it.

    slopes = tf.gradients(critic(x_hat), [x_hat])[0]

becomes (eager output only)::

    critic_x_hat = critic(x_hat)
    slopes = tf.gradients(critic_x_hat, [x_hat])[0]

The same ops in the same order: TF1 builds the argument before the call. In the eager output a
tape must record the ys it differentiates, so ys computed in the call put the gradient inside its
tape, which must then be persistent and records the gradient computation too; named, the ys are
computed inside the tape and the gradient runs after it (:mod:`tf_migrate.codegen.nested_tapes`).

Only ys that are a call or arithmetic, in a simple statement outside loops with no comprehension or
lambda (whose variables the ys could read), are named.
"""
from __future__ import annotations

from typing import List, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.derivatives import bind_derivative
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import EAGER, Rule, RuleContext
from tf_migrate.rules import _edits as ed
from tf_migrate.traversal import visit

RULE_ID = "gradient-ys-named"
_COMPUTED = (cst.Call, cst.BinaryOperation, cst.UnaryOperation)


class GradientYsNamed(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.gradients(f(x), x) -> f_x = f(x) then tf.gradients(f_x, x): ys the tape records before "
                   "the gradient, so it runs after the tape (eager output only)")
    ORDER = 8
    TRIGGERS = ("gradients", "jacobian")
    MODES = (EAGER,)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        taken = all_names(module)
        edits = ed.Edits()
        for stmt, calls in _statements(module, ctx):
            before: List[cst.BaseStatement] = []
            for call, ys in calls:
                name = fresh(_stem(ys), taken)
                before.append(ed.statement(f"{name} = {code(ys)}"))
                edits.expressions[id(ys)] = cst.Name(name)
                ctx.report(call, RULE_ID, INFO, f"ys `{code(ys)}` computed before the gradient, as `{name}`: "
                                                f"its tape records it, and the gradient runs after the tape")
            if before:
                edits.before[id(stmt)] = before  # the statement's leading comments move to the first
        return visit(module, edits) if edits else module


def _statements(module: cst.Module, ctx: RuleContext) -> List[Tuple[cst.SimpleStatementLine, list]]:
    """Simple statements with no comprehension or lambda, and their derivative calls whose ys are computed."""
    found = []

    class _Find(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> bool:
            return False  # a gradient per iteration: its tape records the loop whatever the ys are

        def visit_While(self, node: cst.While) -> bool:
            return False

        def visit_SimpleStatementLine(self, stmt: cst.SimpleStatementLine) -> bool:
            calls = _DerivativeCalls(ctx)
            visit(stmt, calls)
            if calls.found and not calls.scoped and len(stmt.body) == 1:
                found.append((stmt, calls.found))
            return False

    visit(module, _Find())
    return found


class _DerivativeCalls(cst.CSTVisitor):
    """A statement's derivative calls whose ys are computed, and the comprehensions and lambdas in it."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.found: List[Tuple[cst.Call, cst.BaseExpression]] = []
        self.scoped: List[cst.CSTNode] = []

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.ctx.names.call_name(node)
        if qualname in api.GRADIENTS and qualname not in api.HESSIANS:
            ys = bind_derivative(node, qualname).get("ys")
            if isinstance(ys, _COMPUTED) and not _derivative_inside(ys, self.ctx):
                self.found.append((node, ys))

    def visit_ListComp(self, node: cst.CSTNode) -> bool:  # a scope whose variables the ys could read
        self.scoped.append(node)
        return False

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda = visit_ListComp


def _derivative_inside(ys: cst.BaseExpression, ctx: RuleContext) -> bool:
    """Whether ``ys`` takes a derivative itself (``tf.gradients(tf.gradients(f, x)[0], y)``): left whole."""
    inside = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if ctx.names.call_name(call) in api.GRADIENTS:
                inside.append(call)

    visit(ys, _Find())
    return bool(inside)


def _stem(ys: cst.BaseExpression) -> str:
    """``critic_x_hat`` for ``critic(x_hat)``, ``reduce_sum_d2`` for ``tf.reduce_sum(d2)``, else ``ys``."""
    if isinstance(ys, cst.Call):
        func = ys.func.attr.value if isinstance(ys.func, cst.Attribute) else getattr(ys.func, "value", None)
        if isinstance(func, str):
            args = [arg.value for arg in ys.args if arg.keyword is None]
            return f"{func}_{args[0].value}" if len(args) == 1 and isinstance(args[0], cst.Name) else func
    return "ys"
