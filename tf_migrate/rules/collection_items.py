"""Items of a list, tuple or dict of names, read by a literal index -> the names.

    ops = {"loss": loss, "train": train}                       (a build function's returned dict, inlined)
    sess.run(ops["train"], {x: xs})             ->             sess.run(train, {x: xs})
    print(sess.run(ops["loss"], {x: xs}))                      print(sess.run(loss, {x: xs}))

TF1 ran only the item a run fetched; the run's generated function computes the statements its fetch reads, whole,
and ``ops = {...}`` reads every item: a run of the loss would also make the training step (the slicing refuses
that, see ``analysis/partial_updates``, and the file stayed compat). Read through its own name, each item needs
its own line alone.

The same program only where each name holds, at every read, what it held when the collection was made, and the
collection is never changed: the collection and each of its names are bound once in their scope (the module or a
function), by a line of the scope's own body (not in a loop or a branch), and the collection is read only by a
literal index or key of one of its items, after it, in that scope (not in a function or comprehension defined
there), or whole as the fetch of a run. A collection no longer read goes.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import binding_counts
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.cst.literals import item_read, literal_items
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "collection-items"
_NESTED = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


class CollectionItems(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = 'ops = {"loss": loss, ...}; sess.run(ops["loss"]) -> sess.run(loss) (collections of names, by item)'
    ORDER = 4  # after the inline rules (their returned dicts and tuples), before every rule that reads runs

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if _declares_globals(module):
            return module  # (a function could bind a module name: not worth following)
        return visit(module, _Scopes(ctx))


class _Scopes(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = _rewrite(list(updated.body), set(), self.ctx)
        return updated if body is None else updated.with_changes(body=body)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not isinstance(updated.body, cst.IndentedBlock):
            return updated
        body = _rewrite(list(updated.body.body), set(parameter_names(updated.params)), self.ctx)
        return updated if body is None else updated.with_changes(body=updated.body.with_changes(body=body))


def _rewrite(body: List[cst.BaseStatement], params: Set[str], ctx: RuleContext) -> Optional[List[cst.BaseStatement]]:
    """``body`` with the items of its collections read by name (None: nothing to change)."""
    counts = binding_counts(body)
    for param in params:
        counts[param] = counts.get(param, 0) + 1
    own_lines = {key for statement in body if isinstance(statement, cst.SimpleStatementLine)
                 for key in _line_binds(statement)}
    changed = False
    position = 0
    while position < len(body):
        statement = body[position]
        found = _collection(statement)
        if found is None:
            position += 1
            continue
        name, items = found
        names = set(items.values())
        if isinstance(statement.body[0].value, cst.Call) and "dict" in counts:
            position += 1  # (`dict` bound here: not the builtin, whatever the call makes)
            continue
        if counts.get(name) != 1 or any(counts.get(item, 0) != 1 for item in names) \
                or any(item not in own_lines and item not in params for item in names) or name in names:
            position += 1
            continue
        rest = body[position + 1:]
        uses = _Uses(name, items)
        for later in rest:
            visit(later, uses)
        if uses.refused or not uses.items or any(name in _mentions(earlier) for earlier in body[:position]):
            position += 1
            continue
        replacer = _Replace(name, items)
        rest = [visit(later, replacer) for later in rest]
        held = ", ".join(sorted(uses.items))
        ctx.report(statement, RULE_ID, INFO,
                   f"`{name}[...]` read as the names it holds ({held}): a run needs the item it fetches alone")
        if uses.whole:
            body = body[:position + 1] + rest
        else:  # the collection is read no more
            if rest:
                rest[0] = rest[0].with_changes(leading_lines=[*statement.leading_lines, *rest[0].leading_lines])
            body = body[:position] + rest
        changed = True
        position += 1
    return body if changed else None


def _collection(statement: cst.BaseStatement) -> Optional[tuple]:
    """(name, {index or key: item name}) of ``name = [a, b]`` / ``(a, b)`` / ``{"k": a}`` / ``dict(k=a)`` with names
    only."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Assign) and len(statement.body[0].targets) == 1
            and isinstance(statement.body[0].targets[0].target, cst.Name)):
        return None
    found = literal_items(statement.body[0].value)
    if not found or not all(isinstance(value, cst.Name) for _, value in found):
        return None
    items: Dict[object, str] = {key: value.value for key, value in found}
    if len(items) < len(found):  # (a key written twice)
        return None
    return statement.body[0].targets[0].target.value, items


def _line_binds(line: cst.SimpleStatementLine) -> List[str]:
    """The names a simple line of the body binds by plain assignment."""
    found = []
    for small in line.body:
        if isinstance(small, cst.Assign):
            for target in small.targets:
                if isinstance(target.target, cst.Name):
                    found.append(target.target.value)
    return found


def _mentions(node: cst.CSTNode) -> Set[str]:
    found: Set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    visit(node, _Names())
    return found


class _Uses(cst.CSTVisitor):
    """How the code after the collection reads it: by literal item (``items``: the names read), whole as a run's
    fetch (``whole``), or otherwise (``refused``)."""

    def __init__(self, name: str, items: Dict[object, str]) -> None:
        self.name, self.table = name, items
        self.items: Set[str] = set()
        self.whole = False
        self.refused = False
        self.nested = 0
        self.targets = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, _NESTED):
            self.nested += 1
        elif isinstance(node, (cst.AssignTarget, cst.Del)) or isinstance(node, cst.AugAssign):
            self.targets += 1
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == self.name:
            item = _item(node, self.table)
            if item is None or self.nested or self.targets:
                self.refused = True
            else:
                self.items.add(item)
            return False
        if isinstance(node, cst.Call) and _runs_whole(node, self.name) and not self.nested:
            self.whole = True
            for arg in node.args[1:]:
                visit(arg, self)
            visit(node.func, self)
            return False
        if isinstance(node, cst.Name) and node.value == self.name:
            self.refused = True
        return True

    def on_leave(self, node: cst.CSTNode) -> None:
        if isinstance(node, _NESTED):
            self.nested -= 1
        elif isinstance(node, (cst.AssignTarget, cst.Del)) or isinstance(node, cst.AugAssign):
            self.targets -= 1


def _item(subscript: cst.Subscript, table: Dict[object, str]) -> Optional[str]:
    key = item_read(subscript)
    return None if key is None else table.get(key)


def _runs_whole(call: cst.Call, name: str) -> bool:
    """``sess.run(name, ...)``: the whole collection fetched."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value == "run" and bool(call.args) \
        and call.args[0].keyword is None and isinstance(call.args[0].value, cst.Name) \
        and call.args[0].value.value == name


class _Replace(cst.CSTTransformer):
    def __init__(self, name: str, items: Dict[object, str]) -> None:
        self.name, self.table = name, items

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if isinstance(original.value, cst.Name) and original.value.value == self.name:
            item = _item(original, self.table)
            if item is not None:
                return cst.Name(item, lpar=updated.lpar, rpar=updated.rpar)
        return updated


def _declares_globals(module: cst.Module) -> bool:
    found: List[cst.CSTNode] = []

    class _Globals(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            found.append(node)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            found.append(node)

    visit(module, _Globals())
    return bool(found)
