"""Shared by the rules that build state once: how often a function is called, and whether it reuses."""
from __future__ import annotations

from typing import Dict, List

import libcst as cst

from tf_migrate.cst.text import code
from tf_migrate.traversal import visit


def call_counts(module: cst.Module) -> Dict[str, int]:
    counts: Dict[str, int] = {}

    class _Count(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if isinstance(call.func, cst.Name):
                counts[call.func.value] = counts.get(call.func.value, 0) + 1

    visit(module, _Count())
    return counts


def reuses(func: cst.FunctionDef, module: cst.Module, name: str) -> bool:
    """True when later calls of ``func`` reuse its variables (reuse=True / AUTO_REUSE)."""
    if "AUTO_REUSE" in code(func):
        return True
    calls: List[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if isinstance(call.func, cst.Name) and call.func.value == name:
                calls.append(call)

    visit(module, _Calls())
    reusing = [c for c in calls if any(a.keyword is not None and a.keyword.value == "reuse"
                                       and not (isinstance(a.value, cst.Name) and a.value.value in ("False", "None"))
                                       for a in c.args)]
    return len(reusing) == len(calls) - 1
