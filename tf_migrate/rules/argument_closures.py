"""A helper given the caller's session and graph values, always the same ones, reads them where they live.

    def compute_accuracy(sess, prediction, xs, v_xs, v_ys):   def main():
        y_pre = sess.run(prediction, {xs: v_xs})                   def compute_accuracy(v_xs, v_ys):
        ...                                                            y_pre = sess.run(prediction, {xs: v_xs})
                                                                       ...
    def main():                                           ->
        xs = tf.placeholder(tf.float32, [None, 784])               xs = tf.placeholder(tf.float32, [None, 784])
        ...                                                        ...
        with tf.Session() as sess:                                 with tf.Session() as sess:
            print(compute_accuracy(sess, prediction, xs, a, b))        print(compute_accuracy(a, b))

    main()                                                     main()

The helper's runs are then runs of the caller's graph, which the session rule converts as it converts a
function of the scope that reads the scope's values (MorvanZhou's ``compute_accuracy`` with ``global
prediction``). Passing a name bound once, or reading it, gives the helper the same object at every call, so the
program means the same. Only where that is so: a module-level helper called only from one place (module level, or
one module-level function the module calls, where the helper moves as a nested function), every call passing the
same bound-once name (not bound in a loop) for the session it runs and for each parameter taken out, the helper
rebinding none of them and mentioning no name the move or the renaming would give another meaning.
Eager mode only: a file that stays compat keeps its helpers as they were.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import target_names, writes
from tf_migrate.analysis.main_guard import is_main_guard
from tf_migrate.codegen.replace import NameSubstitution
from tf_migrate.cst.arguments import argument, bind
from tf_migrate.cst.enclosing import EnclosingDefs
from tf_migrate.cst.names import all_names
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "argument-closures"


class ArgumentClosures(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("a module-level helper always given the caller's session and graph values (the same names) -> "
                   "it reads them where they are bound (nested in the calling function when that is one)")
    ORDER = 2  # before every rule that reads runs and the scopes they stand in
    TRIGGERS = (".run(",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        for definition in module.body:
            if isinstance(definition, cst.FunctionDef):
                plan = _plan(module, definition)
                if plan is not None:
                    ctx.report(definition, RULE_ID, INFO, f"`{definition.name.value}` reads "
                               + ", ".join(f"`{name}`" for name in plan.fixed.values()) + " where "
                               + (f"`{plan.home.name.value}` binds them" if plan.home else "the module binds them")
                               + ", instead of taking them from every call")
                    return _apply(module, plan)  # (one at a time: the next one sees this one's result)
        return module


@dataclass
class _Plan:
    helper: cst.FunctionDef
    home: Optional[cst.FunctionDef]  # the module-level function holding every call (None: module level)
    fixed: Dict[str, str]  # parameter -> the name every call passes for it
    calls: List[cst.Call] = field(default_factory=list)


def _plan(module: cst.Module, helper: cst.FunctionDef) -> Optional[_Plan]:
    params = helper.params
    if helper.decorators or helper.asynchronous or params.kwonly_params or params.posonly_params \
            or isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None:
        return None
    names = [p.name.value for p in params.params]
    sessions, graph_values = _run_names(helper)
    sessions &= set(names)
    if not sessions or _declares_scopes(helper):
        return None
    found = _Calls(helper.name.value)
    visit(module, found)
    if found.other_uses or not found.calls or len({id(home) for home, _ in found.calls}) != 1:
        return None
    home = found.calls[0][0]
    if home is not None and not _called_by_module(module, home.name.value):
        return None  # a function of a library: its callers may be elsewhere
    bound = [bind(call, names) for _, call in found.calls]
    if any(b is None for b in bound):
        return None
    fixed: Dict[str, str] = {}
    for name in names:
        given = {b[name].value if isinstance(b.get(name), cst.Name) else None for b in bound}
        if len(given) == 1 and None not in given and name in sessions | graph_values:
            fixed[name] = given.pop()
    fixed = _readable(module, helper, home, fixed)
    if not sessions <= set(fixed) or not set(fixed) - sessions or not graph_values & set(names) <= set(fixed) \
            or not _movable(helper, home, fixed):
        return None  # (a helper given only the session, or objects, converts as such: analysis/session_functions)
    return _Plan(helper, home, fixed, [call for _, call in found.calls])


def _run_names(helper: cst.FunctionDef) -> Tuple[Set[str], Set[str]]:
    """(the names ``name.run(...)`` calls are made on in the helper: its sessions; the plain names its runs fetch
    or feed as keys: graph values). The values fed stay parameters (the data of each call); objects whose members
    are fetched are left to the analysis of objects given to functions."""
    sessions: Set[str] = set()
    graph_values: Set[str] = set()

    class _Runs(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "run" and isinstance(func.value, cst.Name)):
                return
            sessions.add(func.value.value)
            fetch = argument(node, "fetches", 0)
            feed = argument(node, "feed_dict", 1)
            fetched = [e.value for e in fetch.elements] if isinstance(fetch, (cst.List, cst.Tuple)) else [fetch]
            graph_values.update(value.value for value in fetched if isinstance(value, cst.Name))
            if isinstance(feed, cst.Dict):
                graph_values.update(element.key.value for element in feed.elements
                                    if isinstance(element, cst.DictElement) and isinstance(element.key, cst.Name))

    visit(helper.body, _Runs())
    return sessions, graph_values


def _declared_global(module: cst.Module) -> Set[str]:
    found: Set[str] = set()

    class _Globals(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            found.update(item.name.value for item in node.names)

    visit(module, _Globals())
    return found


def _declares_scopes(node: cst.CSTNode) -> bool:
    found = [False]

    class _Declarations(cst.CSTVisitor):
        def visit_Global(self, _) -> None:
            found[0] = True

        def visit_Nonlocal(self, _) -> None:
            found[0] = True

    visit(node, _Declarations())
    return found[0]


class _Calls(EnclosingDefs):
    """Each call of the helper with the module-level function it stands in (None: module level); other uses."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.calls: List[Tuple[Optional[cst.FunctionDef], cst.Call]] = []
        self.other_uses = 0

    def visit_Call(self, node: cst.Call) -> bool:
        if isinstance(node.func, cst.Name) and node.func.value == self.name:
            home = self.stack[0] if self.stack else None
            if any(isinstance(frame, cst.ClassDef) for frame in self.stack) or len(self.stack) > 1:
                self.other_uses += 1  # in a class or a nested function: left alone
            else:
                self.calls.append((home, node))
            for arg in node.args:
                visit(arg, self)
            return False
        return True

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name and not (self.stack and isinstance(self.stack[-1], cst.FunctionDef)
                                            and self.stack[-1].name is node):
            self.other_uses += 1


def _called_by_module(module: cst.Module, name: str) -> bool:
    """Whether the module calls ``name()`` at its top level or in its main guard (a script's program function)."""
    for statement in module.body:
        blocks = list(statement.body.body) if is_main_guard(statement) else [statement]
        for line in blocks:
            if isinstance(line, cst.SimpleStatementLine) and any(
                    isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                    and isinstance(small.value.func, cst.Name) and small.value.func.value == name
                    for small in line.body):
                return True
    return False


def _readable(module: cst.Module, helper: cst.FunctionDef, home: Optional[cst.FunctionDef],
              fixed: Dict[str, str]) -> Dict[str, str]:
    """Those of ``fixed`` the helper can read where the calls stand: names bound once there, outside loops (so
    every call passed the same object), that the helper does not rebind and, renamed, mentions for nothing else."""
    scope_body = home.body if home is not None else module
    declared = _declared_global(module) if home is None else set()  # a function may bind those again
    written = set(writes(helper.body))
    mentioned = all_names(helper.body)
    return {param: given for param, given in fixed.items()
            if param not in written and (param == given or given not in mentioned) and given not in declared
            and _bindings(scope_body, given, home) == 1}


def _movable(helper: cst.FunctionDef, home: Optional[cst.FunctionDef], fixed: Dict[str, str]) -> bool:
    """Whether, moved into ``home``, every other name the helper reads means what it meant (a global, not one of
    home's locals)."""
    if home is None:
        return True
    own = set(writes(helper.body)) | {p.name.value for p in helper.params.params}
    home_names = set(writes(home.body)) | {p.name.value for p in home.params.params}
    free = all_names(helper.body) - own
    return not (free & home_names) - set(fixed.values()) and helper.name.value not in home_names


def _bindings(body: cst.CSTNode, name: str, home: Optional[cst.FunctionDef]) -> int:
    """How many places bind ``name`` in ``body`` (outside nested functions and classes); one in a loop counts
    two (bound again at each pass)."""
    counter = _Bindings(name)
    visit(body, counter)
    params = {p.name.value for p in home.params.params} if home is not None else set()
    return counter.count + (name in params)


class _Bindings(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name, self.count, self.loops = name, 0, 0

    def _binds(self, target: cst.CSTNode) -> None:
        if self.name in target_names(target):
            self.count += 2 if self.loops else 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if node.name.value == self.name:
            self.count += 1
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        if node.name.value == self.name:
            self.count += 1
        return False

    def visit_For(self, node: cst.For) -> None:
        self._binds(node.target)
        self.loops += 1

    def leave_For(self, node: cst.For) -> None:
        self.loops -= 1

    def visit_While(self, node: cst.While) -> None:
        self.loops += 1

    def leave_While(self, node: cst.While) -> None:
        self.loops -= 1

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._binds(target.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._binds(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._binds(node.target)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._binds(node.asname.name)

    def visit_Import(self, node: cst.Import) -> None:
        self._imports(node.names)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not isinstance(node.names, cst.ImportStar):
            self._imports(node.names)
        else:
            self.count += 2  # anything

    def _imports(self, aliases) -> None:
        for alias in aliases:
            bound = alias.asname.name if alias.asname is not None else alias.name
            while isinstance(bound, cst.Attribute):
                bound = bound.value
            if isinstance(bound, cst.Name) and bound.value == self.name:
                self.count += 2 if self.loops else 1


def _apply(module: cst.Module, plan: _Plan) -> cst.Module:
    renames = {param: cst.Name(given) for param, given in plan.fixed.items() if param != given}
    helper = plan.helper
    body = visit(helper.body, NameSubstitution(renames)) if renames else helper.body
    kept = [p for p in helper.params.params if p.name.value not in plan.fixed]
    if kept:
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    helper = helper.with_changes(body=body, params=helper.params.with_changes(params=kept))
    calls = {id(call): call for call in plan.calls}
    names = [p.name.value for p in plan.helper.params.params]
    module = visit(module, _DropArguments(calls, names, set(plan.fixed)))
    if plan.home is None:
        return module.with_changes(body=[helper if s is plan.helper else s for s in module.body])
    home = next(s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == plan.home.name.value)
    statements = list(home.body.body)
    at = 1 if statements and _is_docstring(statements[0]) else 0
    helper = helper.with_changes(leading_lines=[])
    if at < len(statements):  # a blank line after the nested function
        blank = cst.EmptyLine(indent=False)
        statements[at] = statements[at].with_changes(leading_lines=[blank, *statements[at].leading_lines])
    nested = home.with_changes(body=home.body.with_changes(body=[*statements[:at], helper, *statements[at:]]))
    return module.with_changes(body=[nested if s is home else s for s in module.body if s is not plan.helper])


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
        and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString)


class _DropArguments(cst.CSTTransformer):
    def __init__(self, calls: Dict[int, cst.Call], names: List[str], dropped: Set[str]) -> None:
        self.calls, self.names, self.dropped = calls, names, dropped

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if id(original) not in self.calls:
            return updated
        args = []
        for position, arg in enumerate(updated.args):
            name = arg.keyword.value if arg.keyword is not None else self.names[position]
            if name not in self.dropped:
                args.append(arg)
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(args=args)
