"""Runs in a method that fetch what the method computes from its own values (its parameters, numpy).

    def reconstruct(self, X):
        return self.session.run(tf.nn.sigmoid(self.one_pass(X)), feed_dict={self._X: X})

The class's graph is ``__init__``'s; a run in another method is planned against it and becomes a call of a
generated method, which has ``__init__``'s values and the fed ones, not the calling method's locals (the
generated method read ``X``, a name it does not have: Packt's RBM, caught by the self-check). Such a fetch
reads no per-run value of the graph (no placeholder, nothing computed from one, directly or through the
methods it calls on ``self``): it is what eager code computes where the run stands, from the variables'
values then, which are the ones the run read. The feed, which nothing fetched reads, changes nothing. Other
runs that read the method's locals stay compat, with the reason at the run.
"""
from __future__ import annotations

from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.symbols import all_calls, binding_counts, reads, writes
from tf_migrate.cst.statements import plain_assignment


def method_local_runs(method: cst.FunctionDef, sites: List[RunSite], scope: "pm.Scope",
                      methods: Dict[str, cst.FunctionDef]) -> Tuple[Set[int], List[Tuple[cst.CSTNode, str]]]:
    """The ids of the run calls in ``method`` that eager code computes where they stand, and a blocker for each
    other run that reads the method's own locals."""
    params = [p.name.value for p in method.params.params][1:]
    own = (set(params) | set(writes(method.body))) - {"self"}
    eager: Set[int] = set()
    blockers: List[Tuple[cst.CSTNode, str]] = []
    for site in sites:
        local = sorted(key for key in reads(site.fetch) if "." not in key and key in own)
        if not local:
            continue
        why = _not_eager(site, method, scope, methods, params)
        if why:
            blockers.append((site.call, f"the run fetches `{local[0]}`, a value of method `{method.name.value}`, "
                                        f"which the class's generated methods do not have: {why}"))
        else:
            eager.add(id(site.call))
    return eager, blockers


def _not_eager(site: RunSite, method: cst.FunctionDef, scope: "pm.Scope", methods: Dict[str, cst.FunctionDef],
               params: List[str]) -> str:
    computed, why = _computed_before(site, method, params)
    if why:
        return why
    read = set().union(*(_reads_through_methods(node, methods) for node in [site.fetch, *computed]))
    locals_ = set(params) | _loop_counters(method) | {key for node in computed for key in writes(node)}
    for key in sorted(read - locals_):
        if scope.deferred(key):
            return f"it also reads `{key}`, a per-run value of the graph"
    if site.feed is not None and not isinstance(site.feed, cst.Dict):
        return "its feed is not a dict written at the run, so what it feeds is not known"
    fed = [key for key in _feed_keys(site) if key in read]
    if fed:
        return f"it reads `{fed[0]}`, which the run feeds"
    return ""


def _computed_before(site: RunSite, method: cst.FunctionDef, params: List[str]):
    """The method's statements that compute the locals the fetch reads (``h = self.encoder(x)``), and why they
    are not what the run would compute ("" when they are): each a plain ``name = value`` line at the top of the
    method, the name bound nowhere else, and the lines from the first of them to the run all such lines (no
    other run or update between: the values then are the values at the run)."""
    body = list(method.body.body)
    bound = set(writes(method.body)) - _loop_counters(method)  # (a parameter bound again too)
    needed = [key for key in reads(site.fetch) if key in bound]
    if not needed:  # only the arguments as passed: their values where the run stands, as TF1 built the ops there
        return [], ""
    at = next((i for i, statement in enumerate(body) if _holds(statement, site.call)), None)
    if at is None:
        return [], "the run is inside a block of the method"
    counts = binding_counts(body)
    first, computed, seen = at, [], set()
    while needed:
        key = needed.pop()
        if key in seen:
            continue
        seen.add(key)
        line = next((i for i in range(at - 1, -1, -1) if key in writes(body[i])), None)
        if line is None or counts.get(key) != 1 or (plain_assignment(body[line]) or ('',))[0] != key:
            return [], f"`{key}` is not bound once, by a line of its own before the run"
        first = min(first, line)
        computed.append(body[line])
        needed.extend(k for k in reads(body[line]) if k in bound)
    for statement in body[first:at]:
        if plain_assignment(statement) is None or any(_updates(call) for call in all_calls(statement)):
            return [], "the method runs or changes something between computing it and the run"
    return computed, ""


def _loop_counters(method: cst.FunctionDef) -> Set[str]:
    """Names the method binds only as the targets of ``for`` loops over ``range(...)``: Python ints."""
    counters: Set[str] = set()
    others: Set[str] = set()

    class _Loops(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            if isinstance(node.target, cst.Name) and isinstance(node.iter, cst.Call) \
                    and isinstance(node.iter.func, cst.Name) and node.iter.func.value == "range":
                counters.add(node.target.value)
            else:
                others.update(writes(node.target))

    method.body.visit(_Loops())
    plain = {key for statement in method.body.body for key in _plain_bindings(statement)}
    return counters - others - plain


def _plain_bindings(node: cst.CSTNode) -> Set[str]:
    """Names bound other than as a loop target (assignments anywhere in ``node``)."""
    found: Set[str] = set()

    class _Assigns(cst.CSTVisitor):
        def visit_Assign(self, assign: cst.Assign) -> None:
            for target in assign.targets:
                found.update(writes(target.target))

        def visit_AugAssign(self, assign: cst.AugAssign) -> None:
            found.update(writes(assign.target))

    node.visit(_Assigns())
    return found


def _holds(statement: cst.BaseStatement, call: cst.Call) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and any(c is call for c in all_calls(statement))


_UPDATES = {"run", "eval", "assign", "assign_add", "assign_sub", "load", "restore", "save", "minimize",
            "apply_gradients", "scatter_update"}


def _updates(call: cst.Call) -> bool:
    """A call that may run the graph or change a variable (by its method's name)."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in _UPDATES


def _reads_through_methods(node: cst.CSTNode, methods: Dict[str, cst.FunctionDef]) -> Set[str]:
    """What ``node`` reads, and what the methods it calls on ``self`` read from outside themselves (``self``'s
    members, module names), and theirs (by their names)."""
    found = reads(node)
    todo = [key for key in found if key.startswith("self.") and key[len("self."):] in methods]
    seen: Set[str] = set()
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        called = methods[key[len("self."):]]
        inner = reads(called.body) - set(writes(called.body)) - {p.name.value for p in called.params.params}
        found |= inner
        todo.extend(k for k in inner if k.startswith("self.") and k[len("self."):] in methods)
    return found


def _feed_keys(site: RunSite) -> List[str]:
    if not isinstance(site.feed, cst.Dict):
        return []
    return [key for element in site.feed.elements if isinstance(element, cst.DictElement)
            for key in reads(element.key)]
