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
from tf_migrate.analysis.symbols import reads, writes


def method_local_runs(method: cst.FunctionDef, sites: List[RunSite], scope: "pm.Scope",
                      methods: Dict[str, cst.FunctionDef]) -> Tuple[Set[int], List[Tuple[cst.CSTNode, str]]]:
    """The ids of the run calls in ``method`` that eager code computes where they stand, and a blocker for each
    other run that reads the method's own locals."""
    params = [p.name.value for p in method.params.params][1:]
    bound = set(writes(method.body))
    own = (set(params) | bound) - {"self"}
    eager: Set[int] = set()
    blockers: List[Tuple[cst.CSTNode, str]] = []
    for site in sites:
        local = sorted(key for key in reads(site.fetch) if "." not in key and key in own)
        if not local:
            continue
        why = _not_eager(site, scope, methods, params, bound, local)
        if why:
            blockers.append((site.call, f"the run fetches `{local[0]}`, a value of method `{method.name.value}`, "
                                        f"which the class's generated methods do not have: {why}"))
        else:
            eager.add(id(site.call))
    return eager, blockers


def _not_eager(site: RunSite, scope: "pm.Scope", methods: Dict[str, cst.FunctionDef], params: List[str],
               bound: Set[str], local: List[str]) -> str:
    rebound = [key for key in local if key in bound]
    if rebound:
        return f"`{rebound[0]}` is bound in the method (only its parameters are read where the run stands)"
    for key in sorted(_reads_through_methods(site.fetch, methods) - set(params) - bound):
        if scope.deferred(key):
            return f"it also reads `{key}`, a per-run value of the graph"
    if site.feed is not None and not isinstance(site.feed, cst.Dict):
        return "its feed is not a dict written at the run, so what it feeds is not known"
    fed = [key for key in _feed_keys(site) if key in _reads_through_methods(site.fetch, methods)]
    if fed:
        return f"it reads `{fed[0]}`, which the run feeds"
    return ""


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
