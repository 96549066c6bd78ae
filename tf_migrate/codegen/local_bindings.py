"""Generated functions keep TF1 code that rebinds the name it reads.

Module code may bind a name to the result of the function of that name:

    loss = loss(y, t)        # calls the function `loss`, then binds the tensor

Moved into a generated function, the assignment makes ``loss`` local to the
whole body, and the call raises ``UnboundLocalError``. ``unshadow`` gives the
local binding a name of its own, from its first write on:

    loss_2 = loss(y, t)
    return loss_2

Reads before the first write keep reading the outer name, as they did in TF1.
A name first bound in place (``loss += 1``) or inside a block that reads it
first (a layer loop ``for n in sizes: h = tf.matmul(h, W[n])``) starts from
the outer value: the copy is made first, and the block uses it throughout:

    h_2 = h
    for n in sizes:
        h_2 = tf.matmul(h_2, W[n])

Names a block binds before it reads them (one branch's statements) are not
read from outside.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis.symbols import target_keys, value_reads, writes
from tf_migrate.codegen.replace import rename_keys
from tf_migrate.cst.names import fresh
from tf_migrate.traversal import visit


def _plain(keys) -> Set[str]:
    return {key for key in keys if "." not in key}


def _loop_names(node: cst.CSTNode) -> Set[str]:
    """Names a loop or comprehension in ``node`` binds: its reads of them are its own."""
    targets = _LoopTargets()
    visit(node, targets)
    return targets.found


class _LoopTargets(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: Set[str] = set()

    def visit_CompFor(self, comp: cst.CompFor) -> None:
        self.found.update(name.value for name in _names_in(comp.target))

    def visit_For(self, loop: cst.For) -> None:
        self.found.update(name.value for name in _names_in(loop.target))


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
        read_first |= _read_before_bound(statement, bound)
        written |= new
        bound |= new
    return read_first & written


def _read_before_bound(statement: cst.BaseStatement, bound: Set[str]) -> Set[str]:
    """Names ``statement`` reads before it binds them itself, in the order it runs (a block's statements in
    turn: a branch that binds a name and then reads it does not read it from outside; a loop that reads
    what an earlier iteration bound, ``h = tf.matmul(h, W)``, does, at its first iteration)."""
    if isinstance(statement, cst.SimpleStatementLine):
        return _plain(value_reads(statement)) - bound - _loop_names(statement)
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        return set()
    if isinstance(statement, cst.For):
        header = _plain(value_reads(statement.iter)) - bound
        inner = set(bound) | set(target_keys(statement.target))
        return header | _block_reads(statement.body, inner) | _block_reads(statement.orelse, inner)
    if isinstance(statement, (cst.If, cst.While)):
        return (_plain(value_reads(statement.test)) - bound) | _block_reads(statement.body, bound) \
            | _block_reads(statement.orelse, bound)
    return _plain(value_reads(statement)) - bound - _loop_names(statement) - _plain(writes(statement))


def _block_reads(block, bound: Set[str]) -> Set[str]:
    """What the statements of ``block`` (a body, an ``else:``, an ``elif``) read before binding it."""
    if block is None:
        return set()
    if isinstance(block, cst.If):  # elif
        return _read_before_bound(block, bound)
    found, bound = set(), set(bound)
    for statement in getattr(block.body, "body", block.body) if not isinstance(block.body, list) else block.body:
        found |= _read_before_bound(statement, bound)
        bound |= _plain(writes(statement))
    return found


OUTER = "outer_binding__"  # ``OUTER + name`` in a generated body: the name's binding outside the function


def unshadow(body: List[cst.BaseStatement], params: Set[str], taken: Set[str]) -> List[cst.BaseStatement]:
    """``body`` with each local binding of a name it also reads from outside renamed (see the module doc).

    ``OUTER + name`` (a variable list naming the variable that graph code rebinds here) reads the outer
    ``name`` wherever it stands."""
    marked = {key[len(OUTER):] for statement in body for key in value_reads(statement) if key.startswith(OUTER)}
    conflicts = _conflicts(body, params) | (marked & {k for s in body for k in _plain(writes(s))})
    if conflicts:
        body = _renamed(body, conflicts, taken)
    if marked:
        body = [rename_keys(statement, {OUTER + name: name for name in marked}) for statement in body]
    return body


def _renamed(body: List[cst.BaseStatement], conflicts: Set[str], taken: Set[str]) -> List[cst.BaseStatement]:
    """``body`` with the local bindings of ``conflicts`` renamed from their first write on."""
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
            if first:
                new = {name: fresh(name, taken) for name in sorted(first)}
                renamed.update(new)
                if in_place:  # the block (or `+=`) starts from the outer value: copy it, then use the copy
                    out.extend(cst.parse_statement(f"{new[name]} = {name}\n") for name in sorted(first))
                    statement = rename_keys(statement, new)
                else:
                    statement = statement.visit(_Targets(new))
            out.append(statement)
        return out

    return rewrite(body)
