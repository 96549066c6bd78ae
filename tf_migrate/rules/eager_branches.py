"""``if tf.executing_eagerly():`` where the graph branch runs its own session -> the eager branch.

    if tf.executing_eagerly():                              for images, labels in dataset:
        for images, labels in dataset:                          images = images.numpy()
            images = images.numpy()                             break
            break
    else:                                            ->
        images, labels = dataset.make_one_shot_iterator().get_next()
        with tf.Session() as sess:
            images, labels = sess.run([images, labels])

Code written for TF 1.x and 2.x at once (Google's codelabs of 2018-2019 draw a batch for display so)
asks TF which mode it runs in. TF1 graph mode answered False: the legacy program ran the graph branch.
A branch that opens a ``tf.Session`` (or ``InteractiveSession``) is host code: it builds and runs its
own graph, so nothing around it is part of a graph another session runs, and the eager program runs
it eagerly, where TF2 answers True. The eager branch is what the migrated program runs, and the graph
branch is dead code that would otherwise keep the file in compat mode (its ``make_one_shot_iterator``
and session are graph-only). The author wrote both branches to do the same; ``--verify`` compares them.

Tests that read anything more than ``tf.executing_eagerly()`` (or ``not`` of it), ``elif`` chains, and
graph branches that open no session (graph code a run function might trace, where TF2 answers False)
are left as they are.
"""
from __future__ import annotations

from typing import List, Optional, Union

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import block_statements
from tf_migrate.traversal import visit

RULE_ID = "eager-branches"
_QUESTIONS = {"tf.executing_eagerly", "tf.compat.v1.executing_eagerly", "tf.compat.v2.executing_eagerly"}


class EagerBranches(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "if tf.executing_eagerly(): A else: B, where B runs its own session -> A (what TF2 runs)"
    ORDER = 1  # with version-branches: before every rule that reads the branches' TF1 code as straight-line code
    TRIGGERS = ("executing_eagerly",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Decide(ctx))


class _Decide(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_If(self, original: cst.If, updated: cst.If) -> Union[cst.BaseStatement, cst.FlattenSentinel,
                                                                     cst.RemovalSentinel]:
        eager_first = self._asks(original.test)
        if eager_first is None or isinstance(original.orelse, cst.If):
            return updated
        graph_branch = original.orelse.body if eager_first else original.body
        if graph_branch is None or not self._opens_a_session(graph_branch):
            return updated
        eager_branch = updated.body if eager_first else (updated.orelse.body if updated.orelse else None)
        self.ctx.report(original, RULE_ID, INFO, "the graph branch runs its own session, so this is host code, "
                                                 "which TF2 runs eagerly: kept the eager branch")
        if eager_branch is None:
            return cst.RemovalSentinel.REMOVE
        body = block_statements(eager_branch)
        body[0] = body[0].with_changes(leading_lines=[*updated.leading_lines, *body[0].leading_lines])
        return cst.FlattenSentinel(body)

    def _asks(self, test: cst.BaseExpression) -> Optional[bool]:
        """True for ``tf.executing_eagerly()``, False for ``not tf.executing_eagerly()``, else None."""
        negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        call = test.expression if negated else test
        if isinstance(call, cst.Call) and not call.args and self.ctx.names.call_name(call) in _QUESTIONS:
            return not negated
        return None

    def _opens_a_session(self, block: cst.CSTNode) -> bool:
        calls: List[cst.Call] = all_calls(block)
        return any(self.ctx.names.call_name(call) in api.SESSIONS - api.SESSIONS_WITH_HOOKS for call in calls)
