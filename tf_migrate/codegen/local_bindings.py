"""Generated functions keep TF1 code that rebinds the name it reads.

Module code may bind a name to the result of the function of that name:

    loss = loss(y, t)        # calls the function `loss`, then binds the tensor

Moved into a generated function, the assignment makes ``loss`` local to the
whole body, and the call raises ``UnboundLocalError``. ``unshadow`` gives the
local binding a name of its own, from its first write on:

    loss_2 = loss(y, t)
    return loss_2

Reads before the first write keep reading the outer name, as they did in TF1.
A name first bound in place (``loss += 1``) or inside a block (an ``if``
branch) is left alone: it has no faithful renamed form here, and the output
self-check reports what breaks. Names a block binds before it reads them
(one branch's statements) are not read from outside.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis.symbols import value_reads, writes
from tf_migrate.codegen.replace import rename_keys
from tf_migrate.cst.names import fresh


def _plain(keys) -> Set[str]:
    return {key for key in keys if "." not in key}


def _loop_names(node: cst.CSTNode) -> Set[str]:
    """Names a loop or comprehension in ``node`` binds: its reads of them are its own."""
    found: Set[str] = set()

    class _LoopTargets(cst.CSTVisitor):
        def visit_CompFor(self, comp: cst.CompFor) -> None:
            found.update(name.value for name in _names_in(comp.target))

        def visit_For(self, loop: cst.For) -> None:
            found.update(name.value for name in _names_in(loop.target))

    node.visit(_LoopTargets())
    return found


def _names_in(target: cst.BaseExpression) -> List[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _names_in(element.value)]
    if isinstance(target, cst.StarredElement):
        return _names_in(target.value)
    return []


def _flat(body: List[cst.BaseStatement]) -> List[cst.BaseStatement]:
    """The statements in the order they run (``with`` blocks opened: the tape block of a generated function)."""
    out: List[cst.BaseStatement] = []
    for statement in body:
        if isinstance(statement, cst.With) and isinstance(statement.body, cst.IndentedBlock):
            out.append(statement)
            out.extend(_flat(list(statement.body.body)))
        else:
            out.append(statement)
    return out


class _Targets(cst.CSTTransformer):
    """Rename the names an assignment binds, not the names its value reads."""

    def __init__(self, mapping: Dict[str, str]) -> None:
        self.mapping = mapping

    def leave_AssignTarget(self, original: cst.AssignTarget, updated: cst.AssignTarget) -> cst.AssignTarget:
        return updated.with_changes(target=rename_keys(updated.target, self.mapping))

    def leave_AnnAssign(self, original: cst.AnnAssign, updated: cst.AnnAssign) -> cst.AnnAssign:
        return updated.with_changes(target=rename_keys(updated.target, self.mapping))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _conflicts(body: List[cst.BaseStatement], params: Set[str]) -> Set[str]:
    """Names read before the body binds them, and bound later in it."""
    bound, read_first = set(params), set()
    written: Set[str] = set()
    for statement in _flat(body):
        if isinstance(statement, cst.With):
            bound |= _plain(w for item in statement.items if item.asname is not None
                            for w in writes(item.asname.name))
            read_first |= {n for item in statement.items for n in _plain(value_reads(item.item))} - bound
            continue
        new = _plain(writes(statement))
        inside = new if isinstance(statement, cst.BaseCompoundStatement) else set()  # a branch binds, then reads
        read_first |= _plain(value_reads(statement)) - bound - _loop_names(statement) - inside
        written |= new
        bound |= new
    return read_first & written


def unshadow(body: List[cst.BaseStatement], params: Set[str], taken: Set[str]) -> List[cst.BaseStatement]:
    """``body`` with each local binding of a name it also reads from outside renamed (see the module doc)."""
    conflicts = _conflicts(body, params)
    if not conflicts:
        return body
    taken = set(taken) | conflicts
    renamed: Dict[str, str] = {}

    def rewrite(statements: List[cst.BaseStatement]) -> List[cst.BaseStatement]:
        out = []
        for statement in statements:
            if isinstance(statement, cst.With) and isinstance(statement.body, cst.IndentedBlock):
                inner = rewrite(list(statement.body.body))
                out.append(statement.with_changes(body=statement.body.with_changes(body=inner)))
                continue
            statement = rename_keys(statement, dict(renamed))
            first = {name for name in _plain(writes(statement)) if name in conflicts and name not in renamed}
            in_place = not isinstance(statement, cst.SimpleStatementLine) or any(
                isinstance(small, cst.AugAssign) for small in statement.body)
            if first and in_place:  # bound in a block or in place: no renamed form here, left as it is
                conflicts.difference_update(first)
            elif first:
                new = {name: fresh(name, taken) for name in sorted(first)}
                statement = statement.visit(_Targets(new))
                renamed.update(new)
            out.append(statement)
        return out

    return rewrite(body)
