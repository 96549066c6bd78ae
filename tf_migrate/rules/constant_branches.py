"""``if`` tests that are constants -> the branch taken.

    if True:                                  # gradient descent written out by hand
        update_W = tf.assign(W, W - alpha * nabla_W)
        ...
    else:                                     # the same with tf.train's optimizer
        train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
becomes the first branch's statements.

Scripts switch experiments this way (KellerJordan's ``linear_regression.py``, held-out probe 45): Python runs the
branch the constant picks and never the other, so the other is dead code; the rules after this one see the branch
taken as straight-line code (graph code in an ``if`` kept the file compat: "an object the analysis does not know",
the optimizer of the dead branch). Only tests made of literal constants (``True``, ``False``, ``None``, numbers,
strings) with ``not``, ``and``, ``or`` are decided.
"""
from __future__ import annotations

import ast
from typing import Optional, Tuple

import libcst as cst

from tf_migrate.analysis.static_eval import evaluate, parse_test
from tf_migrate.cst.text import code
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._decided_branches import DecidedBranches
from tf_migrate.traversal import visit

RULE_ID = "constant-branches"
_NODES = (ast.Expression, ast.Constant, ast.UnaryOp, ast.Not, ast.BoolOp, ast.And, ast.Or)


class ConstantBranches(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "if-tests that are constants (`if True:`, `if 0:`) -> the branch taken"
    ORDER = 1  # with version-branches: before every rule that reads the branches' TF1 code as straight-line code
    TRIGGERS = ("if True", "if False", "if 0", "if 1", "if not ")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, DecidedBranches(ctx, RULE_ID, constant_test))


def constant_test(test: cst.BaseExpression) -> Optional[Tuple[bool, str]]:
    """(the branch taken, why) for a test of literal constants, else None."""
    tree = parse_test(test, lambda node: isinstance(node, _NODES))
    if tree is None:
        return None
    taken = evaluate(tree, {})
    return None if taken is None else (taken, f"`{code(test).strip()}` is always {taken}")
