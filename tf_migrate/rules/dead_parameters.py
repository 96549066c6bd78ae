"""Drop the ``reuse`` parameter a rewrite left unused: ``def tower(x, reuse=False)`` -> ``def tower(x)``.

TF1 model functions take ``reuse`` for ``tf.variable_scope(..., reuse=reuse)``. Once the variables
are created once, outside the function, the scope is gone and ``reuse`` means nothing; keeping it
tells the reader that something still depends on it. The parameter is dropped, with the argument of
every call, only where that is all there is to it: a module-level function whose ``reuse`` the
input read and the output does not, whose name is only ever called (never passed, bound again or
decorated), with calls that pass ``reuse`` as a plain name or literal (dropping it skips no
evaluation) and use no ``*args`` / ``**kwargs``.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "dead-parameters"
PARAMETER = "reuse"
KEYWORD_ONLY = -2  # the position of a keyword-only parameter: no positional argument passes it


class DeadParameters(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "drop a `reuse` parameter the rewrite left unused, and its argument at every call"
    ORDER = 950  # after the rules that remove variable scopes
    TRIGGERS = ("reuse",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        read_before = _reading_functions(ctx.original_module) if ctx.original_module is not None else set()
        positions: Dict[str, int] = {}
        for statement in module.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value in read_before:
                position = _dead_position(statement)
                if position is not None:
                    positions[statement.name.value] = position
        if not positions:
            return module
        collector = _Calls(set(positions))
        visit(module, collector)
        droppable = {name: position for name, position in positions.items()
                     if name not in collector.blocked
                     and all(_argument_index(call, position) != -1 for call in collector.calls.get(name, []))}
        if not droppable:
            return module
        for name in sorted(droppable):
            ctx.report(None, RULE_ID, INFO, f"{name}(): dropped the unused `{PARAMETER}` parameter")
        return module.visit(_Dropper(droppable))


def _reads_parameter(function: cst.FunctionDef) -> bool:
    found = []

    class _Finder(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == PARAMETER:
                found.append(node)

    visit(function.body, _Finder())
    return bool(found)


def _reading_functions(module: cst.Module) -> Set[str]:
    return {s.name.value for s in module.body if isinstance(s, cst.FunctionDef) and _reads_parameter(s)}


def _dead_position(function: cst.FunctionDef) -> Optional[int]:
    """Index of ``reuse`` among the positional parameters (KEYWORD_ONLY if it is one), or None if it is not dead."""
    if function.decorators or _reads_parameter(function) or function.params.posonly_params:
        return None
    params = list(function.params.params)
    for index, param in enumerate(params):
        if param.name.value == PARAMETER:
            return index if param.default is not None else None
    if any(p.name.value == PARAMETER and p.default is not None for p in function.params.kwonly_params):
        return KEYWORD_ONLY
    return None


def _argument_index(call: cst.Call, position: int) -> Optional[int]:
    """Which argument of ``call`` passes ``reuse`` (None: none does; -1: cannot tell or not safe to drop)."""
    positional = 0
    for index, arg in enumerate(call.args):
        if arg.star:
            return -1
        if arg.keyword is None:
            if positional == position:
                return index if _no_effect(arg.value) else -1
            positional += 1
        elif arg.keyword.value == PARAMETER:
            return index if _no_effect(arg.value) else -1
    return None


def _no_effect(value: cst.BaseExpression) -> bool:
    return isinstance(value, (cst.Name, cst.Integer, cst.Float, cst.SimpleString))


class _Calls(cst.CSTVisitor):
    """Calls of the candidate functions, and the names used any other way."""

    def __init__(self, names: Set[str]) -> None:
        self.names = names
        self.calls: Dict[str, List[cst.Call]] = {}
        self.blocked: Set[str] = set()
        self._seen: Set[int] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._seen.add(id(node.name))
        for param in list(node.params.params) + list(node.params.kwonly_params):
            self._seen.add(id(param.name))  # a parameter of the same name shadows, it does not use

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in self.names:
            self._seen.add(id(node.func))
            self.calls.setdefault(node.func.value, []).append(node)
        for arg in node.args:
            if arg.keyword is not None:
                self._seen.add(id(arg.keyword))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._seen.add(id(node.attr))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names and id(node) not in self._seen:
            self.blocked.add(node.value)


class _Dropper(cst.CSTTransformer):
    def __init__(self, positions: Dict[str, int]) -> None:
        self.positions = positions

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if original.name.value not in self.positions:
            return updated
        params = updated.params
        return updated.with_changes(params=params.with_changes(
            params=_without(params.params, lambda p: p.name.value == PARAMETER),
            kwonly_params=_without(params.kwonly_params, lambda p: p.name.value == PARAMETER)))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not (isinstance(original.func, cst.Name) and original.func.value in self.positions):
            return updated
        index = _argument_index(original, self.positions[original.func.value])
        if index is None:
            return updated
        args = list(updated.args)
        del args[index]
        return updated.with_changes(args=_last_without_comma(args))


def _without(items, dropped) -> List:
    kept = [item for item in items if not dropped(item)]
    return _last_without_comma(kept) if len(kept) != len(items) else list(items)


def _last_without_comma(items: List) -> List:
    if items:
        items[-1] = items[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return items
