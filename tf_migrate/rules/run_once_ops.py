"""An op bound to a name in a loop or a method and run by the next statement, and nowhere else -> built in that run.

    for i in range(1, len(raw)):                     for i in range(1, len(raw)):
        if raw[i] - raw[i - 1] > 5:                      if raw[i] - raw[i - 1] > 5:
            updater = tf.assign(spike, True)   ->            tf.assign(spike, True).eval()
            updater.eval()

TF1 built the op, then ran it once; built inside the run it is the same graph (the statements are
adjacent: no op is made between them) and the same Python (nothing reads the name otherwise). The value
model does not follow names bound in loops, so ``updater`` was "a value the analysis does not know" and
the file stayed compat; an op built in its run is one the session rule runs eagerly where it stands
(``spike.assign(True)``). BinRoot's TensorFlow-Book updates variables this way under an
``InteractiveSession``. In a method of a class whose ``__init__`` builds the graph, a local op run at once
(``x = tf.nn.sigmoid(self.one_pass(X))``, then ``self.session.run(x, ...)``: Packt's RBM) was read by the
generated method as a name it does not have; built in the run, the class's runs see what it computes.

Only where the name is bound once per pair: every mention of it in its function (or the module) is one
such binding and the run right after it. The run is ``sess.run(name, ...)`` (the name as the fetch, or an
item of a fetched list or tuple, after names and attributes only), ``name.eval(...)`` or ``name.run(...)``,
in a simple statement. Eager mode only: a file that stays compat keeps its lines.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.cst.statements import plain_assignment
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "run-once-ops"
_RUNS_ITSELF = ("eval", "run")  # name.eval(), name.run()
_PURE = (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.SimpleString)


class RunOnceOps(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("an op bound in a loop or a method and run only by the next statement -> built in that run "
                   "(`upd = tf.assign(v, x); sess.run(upd)` -> `sess.run(tf.assign(v, x))`)")
    ORDER = 3  # on TF1 code, before the session rule decides what each run fetches
    TRIGGERS = (".run(", ".eval(")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        pairs = _Pairs()
        visit(module, pairs)
        chosen = {id(first): (name, run) for scope, name, first, run in pairs.found
                  if pairs.mentions[scope].get(name, 0) == 2 * pairs.bound_in_pairs(scope, name)}
        if not chosen:
            return module
        return visit(module, _Inline(ctx, chosen))


def _single_assign(statement: cst.BaseStatement) -> Optional[Tuple[str, cst.BaseExpression]]:
    """``name = value`` alone on its line, the value a call, name, attribute or item (it reads the same in the run,
    also as ``value.eval()``): (name, the value)."""
    found = plain_assignment(statement)
    if found is None or not isinstance(found[1], (cst.Call, cst.Attribute, cst.Name, cst.Subscript)):
        return None
    return found


def _run_of(statement: cst.BaseStatement, name: str) -> Optional[cst.Name]:
    """The one mention of ``name`` in the simple ``statement``, when it is what a run there runs."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return None
    mentions = _Mentions(name)
    visit(statement, mentions)
    if len(mentions.found) != 1 or mentions.found[0] not in mentions.runs:
        return None
    return mentions.found[0]


class _Mentions(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.found: List[cst.Name] = []
        self.runs: List[cst.Name] = []

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.found.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        if func.attr.value in _RUNS_ITSELF and isinstance(func.value, cst.Name) and func.value.value == self.name:
            self.runs.append(func.value)
        elif func.attr.value == "run" and node.args and node.args[0].keyword is None and node.args[0].star == "":
            fetch = node.args[0].value
            if isinstance(fetch, cst.Name) and fetch.value == self.name:
                self.runs.append(fetch)
            elif isinstance(fetch, (cst.List, cst.Tuple)):
                for element in fetch.elements:  # fetched after the items before it, which must not compute
                    if isinstance(element.value, cst.Name) and element.value.value == self.name:
                        self.runs.append(element.value)
                        break
                    if not isinstance(element.value, _PURE) or isinstance(element, cst.StarredElement):
                        break


class _Pairs(cst.CSTVisitor):
    """Each binding in a loop or a method run by the statement after it, and every mention of each name per scope."""

    def __init__(self) -> None:
        self.found: List[Tuple[int, str, cst.BaseStatement, cst.Name]] = []
        self.mentions: Dict[int, Dict[str, int]] = {}
        self._scopes: List[int] = []
        self._loops: List[int] = [0]
        self._methods: List[bool] = [False]  # per function scope: a method of a class (its body is the class's)
        self._class_bodies: List[int] = []
        self._class_statements: Dict[int, Tuple[cst.BaseStatement, ...]] = {}

    def bound_in_pairs(self, scope: int, name: str) -> int:
        return sum(1 for found_scope, found_name, _, _ in self.found if (found_scope, found_name) == (scope, name))

    def visit_Module(self, node: cst.Module) -> None:
        self._enter(node)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._class_bodies.append(id(node.body))

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._class_bodies.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._enter(node)
        self._loops.append(0)
        self._methods.append(bool(self._class_bodies) and any(
            statement is node for statement in self._class_body_statements()))

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scopes.pop()
        self._loops.pop()
        self._methods.pop()

    def _class_body_statements(self):
        return self._class_statements.get(self._class_bodies[-1], ())

    def _enter(self, node: cst.CSTNode) -> None:
        counts: Dict[str, int] = {}

        class _Count(cst.CSTVisitor):
            def visit_Name(self, name: cst.Name) -> None:
                counts[name.value] = counts.get(name.value, 0) + 1

        visit(node, _Count())  # nested functions too: a mention there also reads the name
        self.mentions[id(node)] = counts
        self._scopes.append(id(node))

    def visit_For(self, node: cst.CSTNode) -> None:
        self._loops[-1] += 1

    def leave_For(self, node: cst.CSTNode) -> None:
        self._loops[-1] -= 1

    visit_While, leave_While = visit_For, leave_For

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._class_statements[id(node)] = tuple(node.body)
        if not (self._loops[-1] or self._methods[-1]):
            return
        body = list(node.body)
        for first, second in zip(body, body[1:]):
            bound = _single_assign(first)
            if bound is None:
                continue
            run = _run_of(second, bound[0])
            if run is not None:
                self.found.append((self._scopes[-1], bound[0], first, run))


class _Inline(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, chosen) -> None:
        self.ctx = ctx
        self.chosen = chosen

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        originals, body = list(original.body), list(updated.body)
        if not any(id(statement) in self.chosen for statement in originals):
            return updated
        out: List[cst.BaseStatement] = []
        index = 0
        while index < len(body):
            statement = originals[index]
            if id(statement) in self.chosen and index + 1 < len(body):
                name, run = self.chosen[id(statement)]
                call = _single_assign(statement)[1]
                second = _Swap(run, call).visit_statement(originals[index + 1])
                self.ctx.report(statement, RULE_ID, INFO,
                                f"`{name}` is run once, by the next statement, and nowhere else: built in that run")
                comment = statement.trailing_whitespace.comment  # (the binding's own comment: a line above the run)
                kept = [cst.EmptyLine(indent=True, comment=comment)] if comment is not None else []
                out.append(second.with_changes(leading_lines=[*statement.leading_lines, *kept,
                                                              *originals[index + 1].leading_lines]))
                index += 2
                continue
            out.append(body[index])
            index += 1
        return updated.with_changes(body=out)


class _Swap(cst.CSTTransformer):
    """The statement with the run's mention of the name replaced by the call that was bound to it."""

    def __init__(self, run: cst.Name, call: cst.BaseExpression) -> None:
        self.run = run
        self.call = call

    def visit_statement(self, statement: cst.BaseStatement) -> cst.BaseStatement:
        return statement.visit(self)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.call if original is self.run else updated
