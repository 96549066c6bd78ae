"""What changes a Python object graph code read, after TF1 built with it: a function of the scope that binds or
changes it (``global``; ``cfg["k"] = 7`` in its body), or a method of the program's own class that changes the
object it is called on (``cfg.set(9.0)``).

TF1 read the value once, when it built the op; a generated run function reads it when traced (a converted method:
when it runs). The slicing (``analysis/slicing``) asks about the statements between the graph code and a run; the
check of objects given to graph classes (:func:`check_given_objects`) about every statement after the object is
built.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.binding_times import changes_parameters, self_changing_methods
from tf_migrate.analysis.symbols import all_calls, bound_names, callee_name, symbol_key, writes
from tf_migrate.cst.statements import plain_assignment
from tf_migrate.tfnames import TFNames


def changed_by_functions(scope: "pm.Scope", key: str, statements: Sequence["pm.Statement"]) -> List[str]:
    """Why ``key`` is another value after ``statements``: a function of the scope that binds it (``global``) or
    changes it in place is called, or named, in them (itself or through the functions that call it)."""
    changers = _parameter_changers(scope)
    for st in (st for st in statements if changers and key in st.reads and st.reads & changers):
        for call in all_calls(st.node):
            if callee_name(call) in changers and any(symbol_key(arg.value) == key for arg in call.args):
                return [f"`{key}`, which graph code reads, is given to `{callee_name(call)}`, which changes its "
                        "parameters in place: TF1 built with the value it had before, the generated function would "
                        "read the changed one"]
    writer = scope.global_writers.get(key)
    if writer is None:
        return []
    callers, grew = {writer}, True
    while grew:
        grew = False
        for function, function_reads in scope.function_reads.items():
            if function not in callers and function_reads & callers:
                callers.add(function)
                grew = True
    if not any(st.reads & callers for st in statements):
        return []
    return [f"`{key}`, which graph code reads, is bound or changed by `{writer}` when it is called: TF1 built "
            "with the value it had then, the generated function would read the one it has when it runs"]


def changed_by_methods(scope: "pm.Scope", key: str, at: int, statements: Sequence["pm.Statement"]) -> List[str]:
    """Why ``key`` (as bound at statement ``at``) is another value after ``statements``: it holds an object of a
    class of this scope, and a method of it that changes the object is called in them."""
    root = key.split(".")[0]
    symbol = scope.symbol_at(root, at + 1)
    if symbol is None or symbol.index < 0:
        return []
    assignment = plain_assignment(scope.statements[symbol.index].node)
    value = assignment[1] if assignment is not None else None
    cls = scope.class_defs.get(callee_name(value) or "") if isinstance(value, cst.Call) else None
    if cls is None:
        return []
    changing = self_changing_methods(cls)
    for st in statements:
        for call in all_calls(st.node):
            if isinstance(call.func, cst.Attribute) and symbol_key(call.func.value) == root \
                    and call.func.attr.value in changing:
                return [f"`{root}.{call.func.attr.value}()` changes `{root}` after graph code reads it and before "
                        "the run: TF1 built with the value it had then, the generated function would read the new one"]
    return []


def check_given_objects(scope: "pm.Scope", names: TFNames, block) -> None:
    """Block where an object given to the constructor of a class of this scope that builds graph code
    (``net = Net(cfg)``) is changed after it (``cfg.scale = 5``, ``cfg.bump()``, a function changing ``cfg``): the
    class keeps the object, and its converted methods would read the new values where TF1 built with the old."""
    for st in scope.statements:
        for call in all_calls(st.node):
            cls = scope.class_defs.get(callee_name(call) or "")
            if cls is None or not any((names.call_name(c) or "").startswith("tf.") for c in all_calls(cls)):
                continue
            for arg in call.args:
                key = symbol_key(arg.value)
                if key is None or "." in key or scope.kind(key) in pm.DEFERRED_KINDS:
                    continue
                why = _changed_after(scope, key, st.index)
                if why is not None:
                    reason = (f"`{key}`, given to `{cls.name.value}(...)`, {why} after it: TF1 built the object's "
                              "graph with the values it held then, its converted methods would read the new ones")
                    scope.object_blockers.append((call, reason))
                    block(call, reason)


def _parameter_changers(scope: "pm.Scope") -> Set[str]:
    """The functions of the scope (or around it) that change an object given to them in place (once per scope)."""
    if scope.parameter_changers is None:
        functions = dict(scope.outer_functions)
        functions.update((st.node.name.value, st.node) for st in scope.statements
                         if isinstance(st.node, cst.FunctionDef))
        scope.parameter_changers = {name for name, node in functions.items() if changes_parameters(node)}
    return scope.parameter_changers


def _changed_after(scope: "pm.Scope", key: str, index: int) -> Optional[str]:
    later = scope.statements[index + 1:]
    for st in later:
        if key in writes(st.node) and key not in bound_names(st.node):
            return "is changed in place"  # cfg.scale = 5, cfg["k"] = 7, cfg.items.append(x)
    if changed_by_functions(scope, key, later) or changed_by_methods(scope, key, index, later):
        return "is changed by a call"
    return None
