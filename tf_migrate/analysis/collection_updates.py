"""Runs that read part of a collection or a tuple assignment holding updates: which part, and what else it holds.

    fetches = [loss, train_op]        sess.run(fetches[0])     # TF1 computed the loss alone
    ups = [tf.assign_add(v, 1.0) for v in vs]      sess.run(ups[0])     # updated the first variable alone

A run's generated function computes whole lines: for such a run it would compute every item and run every update
the collection holds. :mod:`partial_updates` asks here which key a run reads in part
(:func:`read_in_part`) and whether the items it leaves hold an update the items it reads do not need
(:func:`held_update`). Literal items and item reads are :mod:`tf_migrate.cst.literals`.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import reads, symbol_key
from tf_migrate.cst.literals import item_read, literal_items
from tf_migrate.traversal import visit


def held_update(st: "pm.Statement", chosen: List["pm.Statement"], fetch: cst.BaseExpression,
                hits_of: Dict[int, Set[str]], updating: Dict[str, cst.Call]) -> Optional[Tuple[str, str, cst.Call]]:
    """(collection, key, call) where ``st`` binds a list, tuple or dict literal (or ``dict(k=v)``) of which the run reads items only
    (``fetches[0]``, ``ops["loss"]``), and an item it does not read is an update or effect of the slice that the
    items it reads do not need (``fetches = [loss, train_op]`` then ``sess.run(fetches[0])``)."""
    if not updating or not (isinstance(st.node, cst.SimpleStatementLine) and len(st.node.body) == 1):
        return None
    assign = st.node.body[0]
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1
            and isinstance(assign.value, (cst.List, cst.Tuple, cst.Dict, cst.Call))):
        return None
    whole = symbol_key(assign.targets[0].target)
    items = literal_items(assign.value)
    if whole is None or items is None or read_in_part(st, chosen, fetch, hits_of) != whole:
        return None
    read = _items_read([fetch] + [other.node for other in chosen if other.index > st.index], whole)
    kept: Set[str] = set()
    for index, value in items:
        if read is not None and index in read:
            kept |= reads(value)
    for index, value in items:
        if read is not None and index in read:
            continue
        for key in sorted(reads(value) - kept):
            if key in updating:
                return whole, key, updating[key]
    return None


def _items_read(nodes: List[cst.CSTNode], whole: str) -> Optional[Set[object]]:
    """The literal indices or keys of ``whole`` that ``nodes`` read (``whole[0]``, ``whole["a"]``); None if a read
    is of another kind (a computed index, a slice, a field, unpacking)."""
    found: Set[object] = set()
    unknown: List[cst.CSTNode] = []

    class _Items(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> Optional[bool]:
            if symbol_key(sub.value) != whole:
                return None
            key = item_read(sub)
            if key is None:
                unknown.append(sub)
            else:
                found.add(key)
            return False

        def visit_Attribute(self, attribute: cst.Attribute) -> Optional[bool]:
            if symbol_key(attribute.value) == whole:
                unknown.append(attribute)
                return False
            return None

        def visit_Name(self, name: cst.Name) -> None:
            if name.value == whole:
                unknown.append(name)  # (read whole, or unpacked: every item)

    for node in nodes:
        if whole in reads(node):
            visit(node, _Items())
    return None if unknown else found


def read_in_part(st: "pm.Statement", chosen: List["pm.Statement"], fetch: cst.BaseExpression,
                 hits_of: Dict[int, Set[str]]) -> str:
    """The key of what ``st`` binds that the run's fetch and the lines of its slice read only in part: each read
    takes an item or a field of it (``ups[0]``, ``ops["a"]``, ``ups[:2]``, ``ops.a``) or unpacks it into names
    the run does not all need (``first, second = ups``). Empty: none."""
    for key in st.defines:
        readers: List[cst.CSTNode] = [fetch] if key in reads(fetch) else []
        unpacked = False
        for other in chosen:
            if other.index <= st.index or key not in other.reads:
                continue
            if _unpacks(other.node, key) and set(other.defines) - hits_of.get(other.index, set()):
                unpacked = True
            else:
                readers.append(other.node)
        if (readers or unpacked) and all(_only_items_read(reader, {key}) for reader in readers):
            return key
    return ""


def _unpacks(node: cst.BaseStatement, key: str) -> bool:
    """Whether the line is ``a, b = key``."""
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Assign)
            and len(node.body[0].targets) == 1):
        return False
    assign = node.body[0]
    return isinstance(assign.targets[0].target, (cst.Tuple, cst.List)) and symbol_key(assign.value) == key


def _only_items_read(node: cst.CSTNode, keys: Set[str]) -> bool:
    whole: List[str] = []
    items: List[str] = []

    class _Uses(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> bool:
            if symbol_key(sub.value) in keys:
                items.append(symbol_key(sub.value))
                for element in sub.slice:
                    visit(element, self)
                return False
            return True

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            if symbol_key(attribute) in keys:
                whole.append(symbol_key(attribute))
            elif symbol_key(attribute.value) in keys:
                items.append(symbol_key(attribute.value))  # a field of a namedtuple of updates (``ops.a``)
            else:
                visit(attribute.value, self)
            return False

        def visit_Name(self, name: cst.Name) -> None:
            if name.value in keys:
                whole.append(name.value)

    visit(node, _Uses())
    return bool(items) and not whole
