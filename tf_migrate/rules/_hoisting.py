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
    params = [p.name.value for p in func.params.params]
    position = params.index("reuse") if "reuse" in params else None

    def reuse_argument(call: cst.Call):
        """What the call passes as ``reuse``: by keyword, or by position (``discriminator(G, Y, True)``)."""
        for index, arg in enumerate(call.args):
            if (arg.keyword is not None and arg.keyword.value == "reuse") or (
                    arg.keyword is None and not arg.star and index == position):
                return arg.value
        return None

    reusing = [c for c in calls if reuse_argument(c) is not None
               and not (isinstance(reuse_argument(c), cst.Name) and reuse_argument(c).value in ("False", "None"))]
    return len(reusing) == len(calls) - 1
