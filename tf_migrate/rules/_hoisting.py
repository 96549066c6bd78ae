"""Shared by the rules that build state once: how often a function is called, and whether it reuses."""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import reads
from tf_migrate.cst.arguments import bind_with_defaults
from tf_migrate.cst.text import code
from tf_migrate.traversal import all_nodes, visit


def call_counts(module: cst.Module) -> Dict[str, int]:
    """How often each function may run (0, 1, or 2: more than once): a call in a loop or comprehension counts twice (it
    may run many times, and each run of a graph-building function made its variables again in TF1), and a call
    in a module function counts as often as that function runs (``build()`` called twice runs ``tower()`` twice)."""
    counts: Dict[str, int] = {}
    for _, callee, runs in call_sites(module):
        counts[callee] = min(counts.get(callee, 0) + runs, 2)
    return counts


def call_sites(module: cst.Module) -> List[Tuple[cst.Call, str, int]]:
    """(call, the function it calls by name, how often it may run: 1, or 2 for more than once), in text order."""
    sites: List[Tuple[cst.Call, str, int, Optional[str]]] = []  # (..., weight, the module function it stands in)
    functions = {f.name.value for f in module.body if isinstance(f, cst.FunctionDef)}

    class _Sites(cst.CSTVisitor):
        def __init__(self) -> None:
            self.loops = 0
            self.function: List[str] = []

        def visit_FunctionDef(self, node) -> None:
            self.function.append(node.name.value)

        def leave_FunctionDef(self, node) -> None:
            self.function.pop()

        def visit_For(self, node) -> None:
            self.loops += 1

        def leave_For(self, node) -> None:
            self.loops -= 1

        visit_While = visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_For
        leave_While = leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = leave_For

        def visit_Call(self, call: cst.Call) -> None:
            if isinstance(call.func, cst.Name):
                outer = self.function[0] if len(self.function) == 1 and self.function[0] in functions else None
                sites.append((call, call.func.value, 2 if self.loops else 1, outer))

    visit(module, _Sites())
    runs: Dict[str, int] = {}
    for _ in range(len(functions) + 1):  # callers' runs reach their callees: to a fixpoint
        new: Dict[str, int] = {}
        for _, callee, weight, outer in sites:
            new[callee] = min(new.get(callee, 0) + weight * _runs(runs, outer), 2)
        if new == runs:
            break
        runs = new
    return [(call, callee, min(weight * _runs(runs, outer), 2)) for call, callee, weight, outer in sites]


def _runs(runs: Dict[str, int], outer: Optional[str]) -> int:
    """How often code in ``outer`` runs (module code: once; a function not called here: as once)."""
    return 1 if outer is None else max(min(runs.get(outer, 0), 2), 1)


def how_called(module: cst.Module, name: str, counts: Dict[str, int]) -> str:
    """"called 3 times", or "called in a loop...", for a reason given when :func:`call_counts` says 2."""
    calls = len(calls_of(module, name))
    return f"called {calls} times" if calls > 1 else "called in a loop, or by a function that runs more than once"


def calls_of(node: cst.CSTNode, name: str) -> List[cst.Call]:
    """The calls ``name(...)`` inside ``node``, in text order."""
    calls: List[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if isinstance(call.func, cst.Name) and call.func.value == name:
                calls.append(call)

    visit(node, _Calls())
    return calls


def fixed_arguments(func: cst.FunctionDef, module: cst.Module, stable: Set[str]) -> Dict[str, cst.BaseExpression]:
    """The parameters of ``func`` that every call of it in ``module`` gives the same value: the same text (or the
    default at every call), made of literals and of names ``stable`` holds (bound once at module level, or
    imported). What such a parameter configures is the same at every call, so it can be configured once."""
    params = list(func.params.params)
    bound = [bind_with_defaults(call, params) for call in calls_of(module, func.name.value)]
    if not bound or any(b is None for b in bound):
        return {}
    fixed: Dict[str, cst.BaseExpression] = {}
    for param in params:
        values = [b[param.name.value] for b in bound]
        if len({code(v) for v in values}) == 1 and _constant(values[0], stable):
            fixed[param.name.value] = values[0]
    return fixed


def _constant(value: cst.BaseExpression, stable: Set[str]) -> bool:
    """Literals, and names bound once, combined without calls or lambdas."""
    found: List[cst.CSTNode] = []

    class _Dynamic(cst.CSTVisitor):
        def visit_Call(self, node) -> None:
            found.append(node)

        visit_Lambda = visit_Subscript = visit_ListComp = visit_GeneratorExp = visit_Call

    visit(value, _Dynamic())
    return not found and all(key.split(".")[0] in stable for key in reads(value))


def first_calling_statement(module: cst.Module, name: str) -> Optional[int]:
    """The index of the first module statement whose run calls ``name``: a statement of module code calling it,
    or calling a module function that calls it. None when a class, or a function called from another function,
    calls it (when it first runs is not read here)."""
    callers = {name}
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and calls_of(statement, name):
            return None
        if isinstance(statement, cst.FunctionDef) and statement.name.value != name and calls_of(statement, name):
            callers.add(statement.name.value)
    for statement in module.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            if statement.name.value not in callers and any(calls_of(statement, c) for c in callers - {name}):
                return None  # a caller called from a function
            continue
        if any(calls_of(statement, c) for c in callers):
            return module.body.index(statement)
    return None


def reuses(func: cst.FunctionDef, module: cst.Module, name: str) -> bool:
    """True when one call of ``func``, run once, makes its variables and the others reuse them (reuse=True /
    AUTO_REUSE; a call that may run many times, literally True)."""
    if "AUTO_REUSE" in code(func):
        return True
    sites = [(call, runs) for call, callee, runs in call_sites(module) if callee == name]
    params = [p.name.value for p in func.params.params]
    position = params.index("reuse") if "reuse" in params else None

    def reuse_argument(call: cst.Call):
        """What the call passes as ``reuse``: by keyword, or by position (``discriminator(G, Y, True)``)."""
        for index, arg in enumerate(call.args):
            if (arg.keyword is not None and arg.keyword.value == "reuse") or (
                    arg.keyword is None and not arg.star and index == position):
                return arg.value
        return None

    def reusing(call: cst.Call) -> bool:
        value = reuse_argument(call)
        return value is not None and not (isinstance(value, cst.Name) and value.value in ("False", "None"))

    making = [runs for call, runs in sites if not reusing(call)]
    # One call makes the variables, once; a call that runs many times reuses them on every pass (`reuse=True`).
    return making == [1] and all(not reusing(call) or runs == 1 or _always_true(reuse_argument(call))
                                 for call, runs in sites)


def _always_true(value: cst.BaseExpression) -> bool:
    return (isinstance(value, cst.Name) and value.value == "True") or (
        isinstance(value, cst.Attribute) and value.attr.value == "AUTO_REUSE")


def first_calls(module: cst.Module) -> Dict[str, Optional[int]]:
    """For each module function: the index of the module statement that first runs it, where it makes its
    variables once (called once, or again with reuse); None otherwise."""
    counts = call_counts(module)
    return {f.name.value: first_calling_statement(module, f.name.value)
            if counts.get(f.name.value, 0) == 1 or reuses(f, module, f.name.value) else None
            for f in module.body if isinstance(f, cst.FunctionDef)}


def opens_session(func: cst.FunctionDef) -> bool:
    """Whether the function opens a session (a program written in one function: its graph and its runs)."""
    return any(isinstance(node, cst.Call) and code(node.func).endswith(("Session", "InteractiveSession"))
               for node in all_nodes(func.body))
