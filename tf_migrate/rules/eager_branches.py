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
are left as they are. A question left outside the functions (or module level) where a branch was decided
keeps the file compat, with the reason at it: TF1 answered False, the migrated program would answer True
and take the other branch (``if tf.executing_eagerly(): print("eager")``). In a function written for both
modes, where a branch was decided, the author's other questions are taken to agree.
"""
from __future__ import annotations

from typing import List, Optional, Set, Tuple, Union

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
        decide = _Decide(ctx)
        module = visit(module, decide)
        if any(ctx.names.call_name(call) in api.EAGER_SWITCHES for call in all_calls(module)):
            return module  # an eager TF1 program: it answered True too
        for call, where in decide.questions:
            if where not in decide.decided:
                ctx.block(call, f"`{ctx.names.call_name(call)}()` answered False in the TF1 program and would "
                                "answer True in the migrated one (outside its compiled functions): the branch it "
                                "chooses would change")
        return module


class _Decide(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.functions: List[Optional[cst.FunctionDef]] = [None]  # the enclosing function (None: module level)
        self.decided: Set[int] = set()  # ids of the functions (0: the module) where a branch was decided
        self.questions: List[Tuple[cst.Call, int]] = []  # every question asked, with where

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.functions.pop()
        return updated

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.names.call_name(node) in api.EXECUTION_MODE_QUERIES:
            self.questions.append((node, self._where()))

    def _where(self) -> int:
        return id(self.functions[-1]) if self.functions[-1] is not None else 0

    def leave_If(self, original: cst.If, updated: cst.If) -> Union[cst.BaseStatement, cst.FlattenSentinel,
                                                                     cst.RemovalSentinel]:
        eager_first = self._asks(original.test)
        if eager_first is None or isinstance(original.orelse, cst.If):
            return updated
        graph_branch = original.orelse.body if eager_first else original.body
        if graph_branch is None or not self._opens_a_session(graph_branch):
            return updated
        eager_branch = updated.body if eager_first else (updated.orelse.body if updated.orelse else None)
        self.decided.add(self._where())
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
