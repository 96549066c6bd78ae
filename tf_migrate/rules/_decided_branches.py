"""An ``if`` whose test a rule decides before the program runs -> the statements of the branch taken.

Used by ``version-branches`` (tests on ``tf.__version__`` that every release answers alike) and
``constant-branches`` (``if True:``, ``if 0:``): the rules after them see the branch as straight-line code.
An ``elif`` is decided with the ``if`` that holds it, or kept as an ``if`` of its own where the ``if`` was
decided false and it is not; a branch taken that leaves a block empty leaves ``pass``.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Tuple, Union

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import RuleContext
from tf_migrate.rules._edits import block_statements, pass_if_empty

# test -> (the branch taken, why: "`X` is True for ...") or None when the rule does not decide it
Decider = Callable[[cst.BaseExpression], Optional[Tuple[bool, str]]]


class DecidedBranches(cst.CSTTransformer):
    """Each ``if`` that ``decide`` decides -> the statements of the branch taken (reported at the ``if``)."""

    def __init__(self, ctx: RuleContext, rule_id: str, decide: Decider) -> None:
        self.ctx, self.rule_id, self.decide = ctx, rule_id, decide
        self.elifs: set = set()  # ``elif`` nodes: decided with the ``if`` that holds them

    def visit_If(self, node: cst.If) -> None:
        if isinstance(node.orelse, cst.If):
            self.elifs.add(id(node.orelse))

    def leave_If(self, original: cst.If, updated: cst.If) -> Union[cst.BaseStatement, cst.FlattenSentinel,
                                                                     cst.RemovalSentinel]:
        if id(original) in self.elifs:
            return updated
        body = self._decided(original, updated)
        if body is None:
            return updated
        if not body:
            return cst.RemovalSentinel.REMOVE
        body[0] = body[0].with_changes(leading_lines=[*updated.leading_lines, *body[0].leading_lines])
        return cst.FlattenSentinel(body)

    def _decided(self, original: cst.If, updated: cst.If) -> Optional[List[cst.BaseStatement]]:
        """The statements that stand for the ``if`` (None: its test is not decided)."""
        decided = self.decide(original.test)
        if decided is None:
            return None
        taken, why = decided
        kept = "the first branch" if taken else ("the other branch" if updated.orelse else "nothing")
        self.ctx.report(original, self.rule_id, INFO, f"{why}: kept {kept}")
        if taken:
            return block_statements(updated.body)
        if updated.orelse is None:
            return []
        if isinstance(updated.orelse, cst.If):  # elif: decided in turn, or kept as an if of its own
            inner = self._decided(original.orelse, updated.orelse)
            return inner if inner is not None else [updated.orelse.with_changes(leading_lines=[])]
        return block_statements(updated.orelse.body)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated if updated.body else updated.with_changes(body=pass_if_empty(updated.body))
