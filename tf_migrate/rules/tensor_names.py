"""sess.run by graph name -> sess.run by the Python names that hold those values.

    tf_x = tf.placeholder(tf.float32, [None, 784], name='features')
    cost = tf.reduce_mean(loss, name='cost')
    train = optimizer.minimize(cost, name='train')
    ...
    _, c = sess.run(['train', 'cost:0'], feed_dict={'features:0': batch_x})
becomes
    _, c = sess.run([train, cost], feed_dict={tf_x: batch_x})

which the session rule then converts as any run. A run is rewritten only when every name string in it
is known (``analysis/graph_names``: one call of the session's graph gives the name, its output is named
exactly so, and the Python name still holds it at the run); else it is left whole, and the session rule
keeps the file compat with the reason given here.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis.graph_names import ModuleGraphNames, fetched_strings, graph_names
from tf_migrate.cst.arguments import find_argument
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "tensor-names"


class TensorNames(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "sess.run('cost:0', feed_dict={'features:0': x}) -> sess.run(cost, feed_dict={tf_x: x})"
    ORDER = 3  # on TF1 code, before the rules that convert what made the names
    TRIGGERS = (":0'", ':0"', "name=")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        known: Optional[ModuleGraphNames] = None
        body = list(module.body)
        for index, statement in enumerate(body):
            if not _has_string_run(statement):
                continue
            known = known or graph_names(module, ctx.names)
            body[index] = visit(statement, _Runs(ctx, known))
        return module.with_changes(body=body) if known is not None else module


def _has_string_run(statement: cst.CSTNode) -> bool:
    found = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            strings = _run_strings(call)
            if strings is not None and strings[0]:
                found.append(call)

    visit(statement, _Find())
    return bool(found)


def _run_strings(call: cst.Call) -> Optional[Tuple[List[cst.SimpleString], Optional[cst.Dict]]]:
    """The name strings of a ``<name>.run(fetches, feed_dict)`` call (fetched, and feed keys), and its feed
    dict literal; None for other calls."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "run"
            and isinstance(call.func.value, cst.Name)):
        return None
    fetches = find_argument(call, "fetches", 0)
    feed = find_argument(call, "feed_dict", 1)
    strings: List[cst.SimpleString] = []
    if fetches is not None:
        strings += [s for s in fetched_strings(fetches.value) if isinstance(s, cst.SimpleString)]
    feed_dict = feed.value if feed is not None and isinstance(feed.value, cst.Dict) else None
    if feed_dict is not None:
        strings += [e.key for e in feed_dict.elements
                    if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)]
    return strings, feed_dict


class _Runs(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, known: ModuleGraphNames) -> None:
        self.ctx, self.known = ctx, known
        self.replace: dict = {}
        self.statements: List[int] = []  # positions of the statements around the call visited

    def _enter(self, node: cst.CSTNode) -> None:
        self.statements.append(self.known.positions.get(id(node), -1))

    def _leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
        self.statements.pop()
        return updated

    visit_SimpleStatementLine = visit_With = visit_For = visit_While = visit_If = visit_Try = _enter
    leave_SimpleStatementLine = leave_With = leave_For = leave_While = leave_If = leave_Try = _leave

    def visit_Call(self, call: cst.Call) -> None:
        found = _run_strings(call)
        if not found or not found[0]:
            return
        strings = found[0]
        statement = self.statements[-1] if self.statements else -1
        graph = self.known.session_graph(call.func.value.value, statement) if statement >= 0 else None
        resolved = {}
        for string in strings:
            target, why = (None, "the session's graph is not known") if graph is None else self.known.resolve(
                string.evaluated_value, graph, statement)
            if target is None:
                self.ctx.report(call, RULE_ID, WARNING, f"run by graph name kept: {why}")
                return
            resolved[id(string)] = target
        self.replace.update(resolved)
        self.ctx.report(call, RULE_ID, INFO, "values named by their graph names (" + ", ".join(
            f"'{s.evaluated_value}' -> {resolved[id(s)]}" for s in strings) + ")")

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        target = self.replace.get(id(original))
        return cst.Name(target) if target is not None else updated
