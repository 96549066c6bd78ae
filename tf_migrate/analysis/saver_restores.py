"""Whether a program trains after a Saver restores a checkpoint (for ``saver-var-list`` and ``saver-slots``, and
for ``reinitialization``: an initializer run a restore undoes).

The eager Saver lists the model's variables; TF1's ``Saver()`` also held the optimizer's slots (Adam's
moments, RMSProp's mean squares). A program that restores and then trains (also one that restores only
when a checkpoint exists: a resumed run) trains on from other slot values after the migration.
"""
from __future__ import annotations

from typing import List

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.callables import fetch_leaves
from tf_migrate.analysis.binding_times import holds_loop
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit


def trains_after_restore(scope: "pm.Scope", saver: str) -> bool:
    """Whether a training step may run after ``saver.restore(...)``: in the statement that restores or after it
    (a restore in a loop or a function: anywhere). A block that restores and then exits the program
    (``exit()``, ``sys.exit()``: solaris33's "restore, print the test accuracy, exit") is followed by nothing."""
    for st in scope.statements:
        if not any(isinstance(call.func, cst.Attribute) and call.func.attr.value == "restore"
                   and symbol_key(call.func.value) == saver for call in all_calls(st.node)):
            continue
        if isinstance(st.node, (cst.For, cst.While, cst.FunctionDef)) or holds_loop(st.node):
            return any(_runs_a_step(scope, other) for other in scope.statements)
        if _runs_a_step(scope, st):
            return True
        if not _exits_after_restoring(st.node, saver):
            return any(_runs_a_step(scope, later) for later in scope.statements[st.index + 1:])
    return False


_EXITS = {"exit", "quit", "sys.exit", "os._exit"}


def _exits_after_restoring(node: cst.CSTNode, saver: str) -> bool:
    """Whether every restore by ``saver`` in ``node`` stands in a block that later calls ``exit()`` on a line
    of its own."""
    blocks: List[bool] = []

    class _Blocks(cst.CSTVisitor):
        def visit_IndentedBlock(self, block: cst.IndentedBlock) -> None:
            restored = False
            for stmt in block.body:
                if isinstance(stmt, cst.SimpleStatementLine):
                    calls = all_calls(stmt)
                    if any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "restore"
                           and symbol_key(c.func.value) == saver for c in calls):
                        restored = True
                        blocks.append(False)
                    elif restored and any(isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                                          and dotted_name(small.value.func) in _EXITS for small in stmt.body):
                        blocks[-1] = True
                        restored = False

    visit(node, _Blocks())
    return bool(blocks) and all(blocks)


def _runs_a_step(scope: "pm.Scope", st: "pm.Statement") -> bool:
    for site in st.run_sites:
        for leaf in fetch_leaves(site.fetch):
            key = symbol_key(leaf)
            symbol = scope.symbols.get(key) if key is not None else None
            if symbol is not None and 0 <= symbol.index < len(scope.statements) \
                    and scope.statements[symbol.index].gradient:
                return True
    return False
