"""A feed dict each branch of an ``if`` builds, then one run -> the run in each branch, with its own dict.

    if 'final_s_' not in globals():
        feed_dict = {tf_x: x, tf_y: y}
    else:
        feed_dict = {tf_x: x, tf_y: y, init_s: final_s_}
    _, pred_, final_s_ = sess.run([train_op, outs, final_s], feed_dict)
becomes
    if 'final_s_' not in globals():
        _, pred_, final_s_ = sess.run([train_op, outs, final_s], {tf_x: x, tf_y: y})
    else:
        _, pred_, final_s_ = sess.run([train_op, outs, final_s], {tf_x: x, tf_y: y, init_s: final_s_})

An rnn fed its last state back (MorvanZhou's 403_RNN_regression) feeds the initial state only after the first
step: the feeds differ, so one run function cannot take them all (a compiled function takes the same arguments at
every call), and a tensor such as the zero state read as a dict key outside a run kept the file in compat mode.
With the run in each branch, each run has a dict literal of its own, and the session rule gives each the function
of its feeds (the forward shared between them).

Plain Python: the program does what it did. Only where every branch of an ``if``/``elif``/``else`` chain ends by
binding the name to a dict literal, the statement right after the chain passes the name as the ``feed_dict`` of a
``.run`` / ``.eval`` call (its one mention), the fetches make no call (they were evaluated before the dict, and
still are no call), and the module mentions the name nowhere else.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.names import name_mentions
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "feed-branches"
_RUNS = {"run": ("fetches", "feed_dict"), "eval": ("feed_dict",)}  # the parameters before and at the feed dict


class FeedBranches(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("if A: feed = {...} else: feed = {...}; sess.run(fetches, feed) -> the run in each branch, "
                   "with its own dict")
    ORDER = 1  # before every rule that reads runs and their feeds
    TRIGGERS = ("else",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        mover = _Move(ctx, module)
        new = visit(module, mover)
        return new if mover.moved else module  # (the same module where nothing moved: later rules' caches hold)


class _Move(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx = ctx
        self.module = module
        self.moved = 0

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        body = self._moved(list(updated.body))
        return updated.with_changes(body=body) if body is not None else updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = self._moved(list(updated.body))
        return updated.with_changes(body=body) if body is not None else updated

    def _moved(self, body: List[cst.BaseStatement]) -> Optional[List[cst.BaseStatement]]:
        changed = False
        index = 0
        while index + 1 < len(body):
            chain, run = body[index], body[index + 1]
            moved = self._move(chain, run) if isinstance(chain, cst.If) else None
            if moved is not None:
                body[index:index + 2] = [moved]
                changed = True
                self.moved += 1
            index += 1
        return body if changed else None

    def _move(self, chain: cst.If, run: cst.BaseStatement) -> Optional[cst.If]:
        branches = _branches(chain)
        if branches is None:
            return None
        bindings = [_dict_binding(block) for block in branches]
        if any(binding is None for binding in bindings):
            return None
        name = bindings[0][0]
        if any(bound != name for bound, _ in bindings):
            return None
        if name_mentions(self.module, name) != len(bindings) + 1 or _fed_by(run, name) is None:
            return None
        self.ctx.report(run, RULE_ID, INFO, f"the run moved into each branch that builds `{name}`: each has its own "
                                            "feeds, so each gets the function of them")
        return _with_runs(chain, run, name)


def _branches(chain: cst.If) -> Optional[List[cst.IndentedBlock]]:
    """The blocks of an ``if`` / ``elif`` / ``else`` chain that ends in ``else``, else None."""
    blocks: List[cst.IndentedBlock] = []
    node: cst.BaseStatement = chain
    while isinstance(node, cst.If):
        if not isinstance(node.body, cst.IndentedBlock):
            return None
        blocks.append(node.body)
        node = node.orelse
    if not isinstance(node, cst.Else) or not isinstance(node.body, cst.IndentedBlock):
        return None
    return blocks + [node.body]


def _dict_binding(block: cst.IndentedBlock):
    """(name, dict) where the block's last statement is ``name = {...}``, else None."""
    last = block.body[-1] if block.body else None
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1):
        return None
    small = last.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
            and isinstance(small.value, cst.Dict):
        return small.targets[0].target.value, small.value
    return None


def _fed_by(run: cst.BaseStatement, name: str) -> Optional[Tuple[cst.Call, cst.Arg]]:
    """(the call, its argument) where the statement's one ``.run`` / ``.eval`` call passes ``name`` as its feed dict,
    the statement mentions ``name`` there only, and no call is evaluated before the dict but the calls the run is an
    argument of (``print(sess.run(y, feed))``); else None."""
    if not (isinstance(run, cst.SimpleStatementLine) and len(run.body) == 1
            and isinstance(run.body[0], (cst.Assign, cst.Expr))):
        return None
    if name_mentions(run, name) != 1:
        return None
    calls = all_calls(run)
    for call in calls:
        arg = _feed_argument(call, name)
        if arg is not None:
            enclosing = {id(c) for c in calls if c is not call and any(inner is call for inner in all_calls(c))}
            return (call, arg) if all(c is call or id(c) in enclosing for c in calls) else None
    return None


def _feed_argument(call: cst.Call, name: str) -> Optional[cst.Arg]:
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in _RUNS):
        return None
    params = _RUNS[call.func.attr.value]
    for position, arg in enumerate(call.args):
        keyword = arg.keyword.value if arg.keyword is not None else (
            params[position] if position < len(params) and not arg.star else None)
        if keyword == "feed_dict" and isinstance(arg.value, cst.Name) and arg.value.value == name:
            return arg
    return None


def _with_runs(chain: cst.If, run: cst.SimpleStatementLine, name: str) -> cst.If:
    """The chain with each branch's binding of ``name`` replaced by ``run`` fed its dict."""
    def branch(block: cst.IndentedBlock) -> cst.IndentedBlock:
        last = block.body[-1]
        literal = last.body[0].value
        call, arg = _fed_by(run, name)
        new_call = call.with_changes(args=[a.with_changes(value=literal) if a is arg else a for a in call.args])
        new_run = run.with_changes(leading_lines=last.leading_lines).deep_replace(call, new_call)
        return block.with_changes(body=[*block.body[:-1], _comments(last, new_run)])

    def rebuilt(node):
        if isinstance(node, cst.If):
            return node.with_changes(body=branch(node.body), orelse=rebuilt(node.orelse))
        return node.with_changes(body=branch(node.body))

    new = rebuilt(chain)
    trailing: Sequence[cst.EmptyLine] = run.leading_lines  # comments above the run go above the chain's end
    return new.with_changes(leading_lines=[*chain.leading_lines, *trailing]) if trailing else new


def _comments(binding: cst.SimpleStatementLine, new_run: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
    """The run keeps its own end-of-line comment, else the binding's."""
    if new_run.trailing_whitespace.comment is None and binding.trailing_whitespace.comment is not None:
        return new_run.with_changes(trailing_whitespace=binding.trailing_whitespace)
    return new_run
