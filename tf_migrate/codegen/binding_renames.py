"""A value's own name: the binding of a name that is bound again later gets a fresh name, with its reads.

    b = tf.Variable(...)            b_2 = tf.Variable(...)
    h = tf.matmul(x, W) + b    ->   h = tf.matmul(x, W) + b_2
    b = sess.run(h, ...)            b = sess.run(h, ...)

Used where generated code or a resolved list must name a value that a later binding hides
(``rules/rebound_names``: run functions read names when they run; ``rules/user_collections``: a
collection holds the eval network's ``w1`` after the target network's took the name). Only where
every read is known: the earlier binding is a plain assignment, no function, class or lambda of the
block reads the name (it would read it when called), and nothing declares it global. An augmented
assignment that reads and binds it (``a -= 1.0``) becomes ``a = a_2 - 1.0``.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import reads, symbol_key, target_keys, writes
from tf_migrate.codegen.replace import rename_keys
from tf_migrate.cst.names import fresh
from tf_migrate.traversal import visit


def rename_earlier_binding(scope: "pm.Scope", key: str, earlier: "pm.Symbol", later: "pm.Symbol", taken: Set[str],
                           replacements: Dict[int, cst.CSTNode]) -> Optional[str]:
    """The fresh name given to ``key``'s binding ``earlier`` (bound again at ``later``), with the statements to
    swap added to ``replacements`` (by node id); None when the rename is not known to be faithful."""
    if earlier.index < 0 or later.index <= earlier.index:
        return None
    binding = scope.statements[earlier.index]
    between = scope.statements[earlier.index + 1:later.index]
    rebinding = scope.statements[later.index]
    if not _plain_assignment(binding.node, key) or _read_when_called(scope, key):
        return None
    if any(id(st.node) in replacements for st in [binding, *between, rebinding]):
        return None  # another name's rename already rewrote one of these statements
    rebound = _reads_renamed(rebinding.node, key, "") if key in rebinding.reads else rebinding.node
    if rebound is None:
        return None
    new = fresh(key, taken)
    taken.add(new)
    replacements[id(binding.node)] = _target_renamed(binding.node, key, new)
    for st in between:
        if key in st.reads:
            replacements[id(st.node)] = rename_keys(st.node, {key: new})
    if key in rebinding.reads:
        replacements[id(rebinding.node)] = _reads_renamed(rebinding.node, key, new)
    return new


def _plain_assignment(node: cst.CSTNode, key: str) -> bool:
    """``key = value`` (or ``key, other = ...``, or ``key op= value``) on a line of its own."""
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1):
        return False
    small = node.body[0]
    if isinstance(small, cst.AugAssign):
        return _expanded(small, key, key) is not None
    return (isinstance(small, cst.Assign) and key not in reads(small.value)
            and all(isinstance(t.target, (cst.Name, cst.Tuple, cst.List)) for t in small.targets))


def _expanded(small: cst.AugAssign, key: str, source: str) -> Optional[cst.BaseExpression]:
    """``source op (value)`` for ``key op= value`` (None: another target, or a value that reads ``key``)."""
    if not (isinstance(small.target, cst.Name) and small.target.value == key) or key in reads(small.value):
        return None
    operator = getattr(cst, type(small.operator).__name__[:-len("Assign")], None)
    if operator is None:
        return None
    right = small.value
    if not isinstance(right, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float,
                              cst.SimpleString)):
        right = right.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.BinaryOperation(cst.Name(source), operator(), right)


def _read_when_called(scope: "pm.Scope", key: str) -> bool:
    """A function, class or lambda of the block reads ``key``, or a statement declares it global."""
    for st in scope.statements:
        for node in _deferred_bodies(st.node):
            if key in reads(node):
                return True
        if isinstance(st.node, cst.SimpleStatementLine) and any(
                isinstance(small, (cst.Global, cst.Nonlocal)) for small in st.node.body):
            return True
    return False


def _deferred_bodies(node: cst.CSTNode) -> List[cst.CSTNode]:
    found: List[cst.CSTNode] = []

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            found.append(n)
            return False

        def visit_ClassDef(self, n: cst.ClassDef) -> bool:
            found.append(n)
            return False

        def visit_Lambda(self, n: cst.Lambda) -> bool:
            found.append(n)
            return False

    visit(node, _Finder())
    return found


def _changes_in_place(target: cst.BaseExpression, key: str) -> bool:
    """Whether assigning to ``target`` changes the value ``key`` holds (an item or attribute of it) rather than
    binding ``key`` anew."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_changes_in_place(element.value, key) for element in target.elements)
    if isinstance(target, cst.StarredElement):
        return _changes_in_place(target.value, key)
    return symbol_key(target) is None and key in target_keys(target)


def _target_renamed(node: cst.SimpleStatementLine, key: str, new: str) -> cst.SimpleStatementLine:
    assign = node.body[0]
    if isinstance(assign, cst.AugAssign):  # `a *= 2.0` -> `a_2 = a * 2.0` (reading the value before it)
        return node.with_changes(body=[cst.Assign([cst.AssignTarget(cst.Name(new))], _expanded(assign, key, key))])
    targets = [t.with_changes(target=rename_keys(t.target, {key: new})) for t in assign.targets]
    return node.with_changes(body=[assign.with_changes(targets=targets)])


def _reads_renamed(node: cst.CSTNode, key: str, new: str) -> Optional[cst.CSTNode]:
    """The statement that binds ``key`` again, reading the renamed earlier value (None: no such form). A loop
    over values bound to ``key`` reads the earlier value only in what it iterates over; its body reads its own."""
    if isinstance(node, cst.For) and key in target_keys(node.target) and key not in reads(node.iter):
        return node
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1):
        return None
    small = node.body[0]
    if isinstance(small, cst.Assign):
        if any(_changes_in_place(t.target, key) for t in small.targets):
            return None  # `params[0] = 5.0`, `cfg.scale = 7.0`: changes the earlier value itself
        return node.with_changes(body=[small.with_changes(value=rename_keys(small.value, {key: new} if new else {}))])
    if isinstance(small, cst.AugAssign):  # `a -= 1.0` -> `a = a_2 - 1.0`
        value = _expanded(small, key, new or key)
        return None if value is None else node.with_changes(body=[cst.Assign([cst.AssignTarget(cst.Name(key))], value)])
    return None if key in writes(node) else node
