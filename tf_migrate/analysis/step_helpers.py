"""Module functions that build a training step: which ones, and the program with their bodies at the calls.

TF1 programs often wrap the optimizer in a helper that the script calls once on its loss:

    def training(loss):
        optimizer = tf.train.MomentumOptimizer(0.01, 0.9)
        train_step = optimizer.minimize(loss)
        return train_step

    train_step = training(loss)

In TF1 the call ran once, at build time: one optimizer, one set of slot variables. A generated
run function that called ``training`` would make a new optimizer at every step. Running the
helper is running its body where the call stands, so the body is put there (with the arguments
for the parameters) and the optimizer and its step convert as if the script had written them.

A helper qualifies when it is a module-level function that makes an optimizer or calls
``minimize``/``apply_gradients`` and runs nothing (no session, no ``run`` or ``eval``), takes plain
parameters, returns a value from its last statement and from nowhere else, and has no nested
function, ``global`` or ``yield``; and every use of its name is the whole value of an assignment
(``t = training(loss)``) at module level or directly in the main guard. Its locals keep their names unless the module uses them elsewhere
(then they get fresh ones); the value it returns takes the name of the call's target.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.build_methods import not_straight
from tf_migrate.analysis.main_guard import is_main_guard
from tf_migrate.analysis.statement_facts import call_statement
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.names import all_names
from tf_migrate.tfnames import TFNames

_STEP_METHODS = {"minimize", "apply_gradients"}
_SESSIONS = ("Session", "InteractiveSession", "MonitoredTrainingSession", "MonitoredSession")
_RUNS = {"run", "eval"}
# Parameter defaults an inlined call may take as written (evaluated at the call, not at the def).
_LITERALS = (cst.Integer, cst.Float, cst.SimpleString)


@dataclass
class Site:
    statement: cst.SimpleStatementLine
    target: Optional[cst.AssignTarget]
    call: cst.Call


def site_of(statement: cst.BaseStatement, helpers: Set[str]) -> Optional[Tuple[str, Site]]:
    """``t = helper(...)`` or ``helper(...)`` as the whole statement: (helper, site)."""
    found = call_statement(statement)
    if found is None:
        return None
    target, value = found
    if isinstance(value.func, cst.Name) and value.func.value in helpers:
        return value.func.value, Site(statement, target, value)
    return None


def builds_step(func: cst.FunctionDef, names: TFNames) -> bool:
    """Whether ``func``'s body makes an optimizer or an optimizer step, and runs nothing (no session, no run)."""
    calls = all_calls(func.body)
    if any((names.call_name(c) or "").endswith(_SESSIONS) or (
            isinstance(c.func, cst.Attribute) and c.func.attr.value in _RUNS) for c in calls):
        return False
    for call in calls:
        qualname = names.call_name(call) or ""
        if api.is_optimizer_constructor(qualname):
            return True
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in _STEP_METHODS:
            return True
    return False


def _plain_signature(func: cst.FunctionDef) -> bool:
    params = func.params
    return not (func.decorators or func.asynchronous or isinstance(params.star_arg, (cst.Param, cst.ParamStar))
                or params.kwonly_params or params.star_kwarg is not None or params.posonly_params)


def _top_blocks(module: cst.Module) -> List[List[cst.BaseStatement]]:
    """The statement lists a site may stand in: the module body and the main guard's body."""
    blocks = [list(module.body)]
    blocks += [list(node.body.body) for node in module.body
               if is_main_guard(node) and isinstance(node.body, cst.IndentedBlock)]
    return blocks


def _name_uses(module: cst.Module, name: str) -> int:
    count = 0

    class _Count(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal count
            count += node.value == name

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            if node.name.value != name:
                node.name.visit(self)
            for part in (node.params, node.body, *node.decorators):
                part.visit(self)
            return False

    module.visit(_Count())
    return count


def step_helpers(module: cst.Module, names: TFNames) -> Dict[str, cst.FunctionDef]:
    """The helpers of ``module`` to inline (see the module doc), by name."""
    candidates = {}
    for node in module.body:
        if isinstance(node, cst.FunctionDef) and _plain_signature(node) and builds_step(node, names) \
                and all(p.default is None or isinstance(p.default, _LITERALS) for p in node.params.params):
            body = list(node.body.body)
            last = body[-1] if body else None
            returns = isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(
                last.body[0], cst.Return) and last.body[0].value is not None
            if returns and not not_straight(body[:-1]):
                candidates[node.name.value] = node
    defined = [n.name.value for n in module.body if isinstance(n, (cst.FunctionDef, cst.ClassDef))]
    candidates = {name: f for name, f in candidates.items() if defined.count(name) == 1}
    sites: Dict[str, int] = {}
    for block in _top_blocks(module):
        for statement in block:
            found = site_of(statement, set(candidates))
            if found is not None and found[1].target is not None:
                sites[found[0]] = sites.get(found[0], 0) + 1
    return {name: f for name, f in candidates.items() if sites.get(name) and sites[name] == _name_uses(module, name)}


def outside_names(module: cst.Module, helpers: Dict[str, cst.FunctionDef]) -> Set[str]:
    """Every name ``module`` mentions outside the helpers' bodies."""
    rest = module.with_changes(body=[node for node in module.body
                                     if not any(node is helper for helper in helpers.values())])
    return all_names(rest)
