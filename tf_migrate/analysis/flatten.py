"""Unwrap ``with`` blocks that only scope graph construction.

``with tf.Session() as sess:``, ``with tf.Graph().as_default():``,
``with tf.name_scope(...)``, ``with tf.device(...)`` and
``with tf.control_dependencies(deps):`` have no job left in eager code: their
bodies join the enclosing block. Control dependencies become data
dependencies of the statements they guarded, so slicing keeps the order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Sequence, Set

import libcst as cst

from tf_migrate.analysis import api_tables
from tf_migrate.analysis.symbols import reads, symbol_key, target_keys
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit


@dataclass
class FlatStatement:
    node: cst.BaseStatement
    extra_deps: Set[str] = field(default_factory=set)
    # The `with` statements this one was lifted out of (outermost first).
    unwrapped_from: List[cst.With] = field(default_factory=list)
    # variable_scope / name_scope names around it, outermost first ("actor", "layer1").
    scope_path: List[str] = field(default_factory=list)


@dataclass
class Unwrapped:
    statements: List[FlatStatement]
    sessions: Set[str]
    withs: List[cst.With]


def _is_transparent(item: cst.WithItem, names: TFNames, graphs: Set[str]) -> bool:
    expr = item.item
    if isinstance(expr, cst.Call):
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "as_default":
            # graph.as_default() / sess.as_default(), not a summary writer's as_default(step=...)
            owner = expr.func.value
            return not expr.args and (
                (isinstance(owner, cst.Call) and names.qualname(owner.func) in api_tables.TRANSPARENT_CONTEXTS)
                or (isinstance(owner, cst.Name) and owner.value in graphs))
        qualname = names.qualname(expr.func)
        if qualname == "tf.control_dependencies" and not _named_dependencies(expr, names):
            return False  # `[tf.assign_add(step, 1)]`: an op made in the header, which unwrapping would drop
        return qualname in api_tables.TRANSPARENT_CONTEXTS
    return False


def _named_dependencies(call: cst.Call, names: TFNames) -> bool:
    """Whether ``tf.control_dependencies(...)`` waits for values bound to names only (``[train_step, inc]``,
    ``update_ops``, ``None``): those stay in the program as the statements that made them. Or for the update
    ops of batch normalization (``tf.get_collection(tf.GraphKeys.UPDATE_OPS)``), which make no op: eager Keras
    layers update in their call (analysis/batch_norm_updates says where that is what TF1 did)."""
    deps = call.args[0].value if call.args else None
    if isinstance(deps, cst.Call) and names.qualname(deps.func) == "tf.get_collection" and deps.args \
            and names.qualname(deps.args[0].value) == "tf.GraphKeys.UPDATE_OPS":
        return True
    elements = [e.value for e in deps.elements] if isinstance(deps, (cst.List, cst.Tuple)) else [deps]
    return all(element is None or isinstance(element, cst.Name) or symbol_key(element) is not None
               for element in elements)


def _graph_names(body, names: TFNames) -> Set[str]:
    """Names bound to graphs and sessions (their as_default() only scopes graph building)."""
    found: Set[str] = set()

    class _Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and names.qualname(node.value.func) in (
                    api_tables.GRAPHS | api_tables.SESSIONS):
                for target in node.targets:
                    found.update(target_keys(target.target))

        def visit_WithItem(self, node: cst.WithItem) -> None:
            if node.asname is not None and isinstance(node.item, cst.Call) and names.qualname(
                    node.item.func) in api_tables.SESSIONS:
                found.update(target_keys(node.asname.name))

    for stmt in body:
        visit(stmt, _Find())
    return found


def _is_session_item(item: cst.WithItem, names: TFNames) -> bool:
    expr = item.item
    if isinstance(expr, cst.Call):
        if names.qualname(expr.func) in api_tables.SESSIONS:
            return True
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "as_default":
            inner = expr.func.value
            return isinstance(inner, cst.Call) and names.qualname(inner.func) in api_tables.SESSIONS
    return False


def _scope_name(item: cst.WithItem, names: TFNames):
    expr = item.item
    if isinstance(expr, cst.Call) and names.qualname(expr.func) in ("tf.variable_scope", "tf.name_scope"):
        if expr.args and isinstance(expr.args[0].value, cst.SimpleString) and expr.args[0].keyword is None:
            return expr.args[0].value.evaluated_value
    return None


def control_dependencies(item: cst.WithItem, names: TFNames) -> Set[str]:
    """What ``with tf.control_dependencies([...])`` makes its block wait for (the names it reads); empty for
    another ``with`` item."""
    expr = item.item
    if isinstance(expr, cst.Call) and names.qualname(expr.func) == "tf.control_dependencies":
        return reads(expr)
    return set()


def unwrap(body: Sequence[cst.BaseStatement], names: TFNames) -> Unwrapped:
    """Flatten transparent ``with`` blocks of ``body`` (recursively)."""
    result = Unwrapped([], set(), [])
    _unwrap_into(body, names, set(), [], result, [], _graph_names(body, names))
    return result


def _unwrap_into(body, names, deps, outer, result: Unwrapped, path: List[str], graphs: Set[str]) -> None:
    for stmt in body:
        if isinstance(stmt, cst.With) and stmt.items and all(_is_transparent(i, names, graphs) for i in stmt.items):
            inner_deps = set(deps)
            inner_path = list(path)
            for item in stmt.items:
                scope_name = _scope_name(item, names)
                if scope_name is not None:
                    inner_path.append(scope_name)
                inner_deps |= control_dependencies(item, names)
                if item.asname is not None and _is_session_item(item, names):
                    result.sessions.update(target_keys(item.asname.name))
            result.withs.append(stmt)
            inner = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else [cst.SimpleStatementLine(stmt.body.body)]
            _unwrap_into(inner, names, inner_deps, outer + [stmt], result, inner_path, graphs)
        else:
            waits = set(deps) if deps and makes_ops(stmt) else set()
            result.statements.append(FlatStatement(stmt, waits, list(outer), list(path)))


def makes_ops(stmt: cst.BaseStatement) -> bool:
    """Whether ``stmt`` may make an op (``tf.control_dependencies`` acts on the ops made in its block only): not a
    line that binds names to other names or literals (``y = x``, ``a, b = self.x, 1.0``), which TF1 ran without
    waiting for the dependencies (the names' own ops were made before the block)."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return True
    value = stmt.body[0].value
    elements = [e.value for e in value.elements] if isinstance(value, (cst.Tuple, cst.List)) else [value]
    if any(isinstance(e, cst.StarredElement) for e in getattr(value, "elements", ())):
        return True
    return not all(symbol_key(element) is not None or isinstance(element, (cst.Integer, cst.Float, cst.SimpleString))
                   for element in elements)
