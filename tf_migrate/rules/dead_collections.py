"""Drop a collection the rewrite emptied and left unread: ``update_ops = []`` after batch norm.

    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = optimizer.minimize(loss)
becomes, in eager output, a training step whose layers update their moving averages themselves; the
collection is ``[]`` (eager code has no deferred update ops) and, once the ``control_dependencies``
is gone, nothing reads it. The binding is dropped where that is all there is to it: a statement
``name = []`` at any level, where the input bound ``name`` to ``tf.get_collection(...)`` and no code
of the output reads ``name``.
"""
from __future__ import annotations

from typing import Set

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "dead-collections"


class DeadCollections(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "drop `name = []` where the input's `name = tf.get_collection(...)` became empty and unread"
    ORDER = 950  # after the session rule, which removed what read the collection
    TRIGGERS = ("get_collection",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if ctx.original_module is None:
            return module
        collected = _collection_names(ctx.original_module, ctx)
        if not collected:
            return module
        read = _read_names(module)
        dead = {name for name in collected if name not in read}
        if not dead:
            return module
        return visit(module, _Drop(dead, ctx))


def _collection_names(module: cst.Module, ctx: RuleContext) -> Set[str]:
    """Names the input binds to ``tf.get_collection(...)``."""
    found: Set[str] = set()

    class _Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and ctx.names.call_name(node.value) == "tf.get_collection" \
                    and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                found.add(node.targets[0].target.value)

    visit(module, _Find())
    return found


def _read_names(module: cst.Module) -> Set[str]:
    """Every name the module loads (an assignment's own target is no read)."""
    targets: Set[int] = set()
    read: Set[str] = set()

    class _Reads(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            if isinstance(node.target, cst.Name):
                targets.add(id(node.target))

        def visit_Name(self, node: cst.Name) -> None:
            if id(node) not in targets:
                read.add(node.value)

    visit(module, _Reads())
    return read


class _Drop(cst.CSTTransformer):
    def __init__(self, dead: Set[str], ctx: RuleContext) -> None:
        self.dead, self.ctx = dead, ctx

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.List) \
                and not small.value.elements and symbol_key(small.targets[0].target) in self.dead:
            self.ctx.report(original, RULE_ID, INFO, f"`{symbol_key(small.targets[0].target)} = []`: the emptied "
                            "collection nothing reads, dropped")
            return cst.RemoveFromParent()
        return updated
