"""Functions that build an op changing state (or acting at each run) and neither return it nor make what they return
depend on it.

    def double(t):
        tf.assign_add(counter, 1.0)    # built, never fetched: TF1 never ran it
        return t * 2.0

    y = double(x)
    sess.run(y, {x: [1.0]})

TF1 ran an op only when a run fetched it or something fetched depended on it, so such an op never ran. A run's
generated function calls ``double`` at each run, and TF2 runs every stateful op a function makes, in program
order: the counter would count. A run whose graph code calls such a function keeps the file compat, with the
reason at the run (:func:`dangling_update_conflicts`, asked by :mod:`slicing`).

The same module summarizes functions that make an optimizer step inside them (``opt.minimize(loss)`` in a
function the inline rules could not put at its call, one with an early ``return``): the rewrite turns a step into a
tape where a run computes it, so a run calling such a function keeps the file compat (the migrated program crashed:
a Keras optimizer's ``minimize`` takes no tensor).

What the function returns is followed back through its plain assignments (``out = t * 2 + 0 * up; return out``),
``tf.control_dependencies([...])`` items, and lists it fills and returns (``ops.append(v.assign(1.0))``): an op
reached so is one TF1 ran with the returned value. Updates and effects are :func:`update_ops.effect_calls`,
and calls of functions already found here.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.update_ops import effect_calls, inner_lines
from tf_migrate.analysis.symbols import all_calls, callee_name, reads, symbol_key, target_keys
from tf_migrate.cst.text import code
from tf_migrate.traversal import visit

_FILLING_METHODS = ("append", "extend", "insert", "add", "update")
_STEP_METHODS = ("minimize", "compute_gradients")


def dangling_update(function: cst.FunctionDef, known: Dict[str, str]) -> Optional[str]:
    """What ``function`` builds and drops (``builds `counter.assign_add(...)` and does not return it``), or None;
    ``known``: the functions of the scope already found (a call of one counts as such an op)."""
    lines = inner_lines(function.body)
    live: Set[str] = set()
    attached: List[cst.CSTNode] = []  # expressions whose ops TF1 ran with what the function returns
    for line in lines:
        for small in line.body:
            if isinstance(small, cst.Return) and small.value is not None:
                attached.append(small.value)
                live |= reads(small.value)
    for item in _dependency_items(function):
        attached.append(item)
        live |= reads(item)
    changed = True
    while changed:  # what the returned values are computed from, back through plain bindings
        changed = False
        for line in lines:
            for small in line.body:
                value = _feeds_live(small, live)
                if value is not None and id(value) not in {id(node) for node in attached}:
                    attached.append(value)
                    live |= reads(value)
                    changed = True
    inside = {id(call) for node in attached for call in all_calls(node)}
    for line in lines:
        for call in _effects(line, known):
            if id(call) not in inside:
                return f"builds `{code(call.func)}(...)` and does not return it"
    return None


def dangling_update_conflicts(scope: "pm.Scope", chosen: List["pm.Statement"]) -> List[str]:
    """Why the run whose slice is ``chosen`` has no faithful function: graph code it computes calls a function of
    the scope that builds an update and drops it (TF1 never ran it), or that makes an optimizer step inside it
    (the rewrite turns steps into tapes where the run computes them)."""
    if not (scope.function_updates or scope.function_steps):
        return []
    for st in chosen:
        for call in all_calls(st.node):
            name = callee_name(call)
            if name in scope.function_updates:
                return [f"graph code the run computes calls `{name}`, which {scope.function_updates[name]}: TF1 "
                        "built that op and never ran it; the run's function would run it at each call"]
            if name in scope.function_steps:
                return [f"graph code the run computes calls `{name}`, which {scope.function_steps[name]}: the "
                        "rewrite makes a step a tape where the run computes it, not in a function it calls"]
    return []


def optimizer_step_inside(body_calls: List[cst.Call], known: Dict[str, str]) -> Optional[str]:
    """What a function whose body makes ``body_calls`` calls to make an optimizer step (``opt.minimize(loss)``,
    ``compute_gradients``, or a function of ``known`` that does), or None."""
    for call in body_calls:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in _STEP_METHODS:
            return f"makes an optimizer step inside it (`{code(func)}`)"
        name = callee_name(call)
        if name in known:
            return f"calls `{name}`, which {known[name]}"
    return None


def _effects(line: cst.SimpleStatementLine, known: Dict[str, str]) -> List[cst.Call]:
    found = effect_calls(line)
    found += [call for call in all_calls(line) if callee_name(call) in known]
    return found


def _feeds_live(small: cst.BaseSmallStatement, live: Set[str]) -> Optional[cst.BaseExpression]:
    """The value ``small`` gives a live name (an assignment to it, ``live.append(value)``), else None."""
    if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and small.value is not None:
        targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
        if any(key in live for target in targets for key in target_keys(target)):
            return small.value
        return None
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        func = small.value.func
        if isinstance(func, cst.Attribute) and func.attr.value in _FILLING_METHODS \
                and symbol_key(func.value) in live:
            return small.value
    return None


def _dependency_items(function: cst.FunctionDef) -> List[cst.BaseExpression]:
    """The arguments of the ``control_dependencies(...)`` calls in ``with`` items of ``function``."""
    found: List[cst.BaseExpression] = []

    class _Withs(cst.CSTVisitor):
        def visit_WithItem(self, item: cst.WithItem) -> None:
            for call in all_calls(item.item):
                if isinstance(call.func, (cst.Attribute, cst.Name)) \
                        and code(call.func).endswith("control_dependencies"):
                    found.extend(arg.value for arg in call.args)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

    visit(function, _Withs())
    return found
