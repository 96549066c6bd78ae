"""Graph code kept on an object: ``__init__`` builds, other methods run.

The DDPG shape: ``self.inputs = tf.placeholder(...)`` and
``self.optimize = ...apply_gradients(...)`` in ``__init__``,
``self.sess.run(self.optimize, feed_dict={self.inputs: s})`` in ``train``.
``__init__``'s body is analysed as a scope whose symbols include ``self.x``;
the run sites of the other methods are planned against it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.batch_norm_updates import batch_norm_blockers
from tf_migrate.analysis.callables import method_effects, unknown_run_values
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.escapes import escaped_reads as _escaped_reads
from tf_migrate.analysis.graph_only_attributes import graph_only_reads
from tf_migrate.analysis.held_graph_objects import held_graph_objects, held_object_blockers
from tf_migrate.analysis.instance_runs import external_run_blockers, mark_runs
from tf_migrate.analysis.method_local_runs import method_local_runs
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.analysis.collections import unbuilt_layer_read
from tf_migrate.analysis.statement_facts import only_initializers
from tf_migrate.analysis.run_sites import RUN, RunSite, find_run_sites
from tf_migrate.analysis.slicing import plan_run
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.analysis.session_methods import session_methods
from tf_migrate.analysis.binding_times import rebound_in_module, stored_outside
from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.tfnames import TFNames, dotted_name

_GRAPH_BUILDERS = api.PLACEHOLDERS | api.VARIABLE_CONSTRUCTORS


@dataclass
class ClassAnalysis:
    scope: "pm.Scope"
    init: cst.FunctionDef
    method_sites: List[Tuple[cst.FunctionDef, List[RunSite]]]
    init_locals: Set[str]
    blockers: List[Tuple[cst.CSTNode, str]] = field(default_factory=list)
    members: Set[str] = field(default_factory=set)
    own_scopes: List[cst.FunctionDef] = field(default_factory=list)  # methods that open their own session
    eager_runs: Set[int] = field(default_factory=set)  # runs computed where they stand (analysis/method_local_runs)
    # Runs in __init__ of values __init__ already has (no feed, no per-run value): computed where they stand, as
    # eager code (stevenpjg's DDPG copies the target network's variables there: `sess.run([t.assign(w), ...])`).
    init_runs: List[Tuple[int, RunSite]] = field(default_factory=list)  # (statement index, site)
    # Runs in methods of the graph of an object the class holds (analysis/held_graph_objects), each marked with it.
    held_runs: List[RunSite] = field(default_factory=list)

    def attribute_for(self, local: str) -> str:
        """The attribute a local of __init__ is kept in so generated methods can read it."""
        name = f"self.{local}"
        if name in self.scope.symbols or local in self.members:
            name = f"self._{local}"
        return name

    def insert_promotions(self, body: List[cst.BaseStatement], promoted: Dict[str, str]) -> List[cst.BaseStatement]:
        """``self.w = w`` after the statement that binds each promoted local (params first)."""
        if not promoted:
            return body
        params = {p.name.value for p in self.init.params.params}
        pending = dict(promoted)
        out: List[cst.BaseStatement] = []
        for local in [k for k in promoted if k in params]:
            out.append(cst.parse_statement(f"{pending.pop(local)} = {local}"))
        for stmt in body:
            out.append(stmt)
            for local in [k for k in pending if k in writes(stmt)]:
                out.append(cst.parse_statement(f"{pending.pop(local)} = {local}"))
        return out


def analyze_class(cls: cst.ClassDef, names: TFNames, layer_scopes=None, external: Sequence[RunSite] = ()) -> ClassAnalysis:
    """The class's graph and the runs of it: its methods' and ``external`` ones, from outside it (written with
    ``self`` for the object, :func:`tf_migrate.analysis.instance_runs.as_class_run`)."""
    methods = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)]
    init = next((m for m in methods if m.name.value == "__init__"), None)
    if init is None:
        scope = pm.Scope([], {}, set(), [], [(cls, "graph built in a class without __init__")], [], is_class=True)
        return ClassAnalysis(scope, cls, [], set(), list(scope.blockers))
    params = tuple(p.name.value for p in init.params.params[1:])
    functions = tuple(sorted(names.function_parameters.get(cls.name.value, ())))  # (transfer_fct=tf.nn.softplus)
    scope = analyze_scope(list(init.body.body), names, params, is_class=True, layer_scopes=layer_scopes,
                          known_callables=functions, known_effects=method_effects(cls, names))
    analysis = ClassAnalysis(scope, init, [], set(params), list(scope.blockers),
                             {m.name.value for m in methods})
    scope.later_stores = _later_stores(methods, init, names)
    for st in scope.statements:
        if st.role == pm.KEEP:
            analysis.init_locals.update(k for k in st.defines if "." not in k)
        if st.role in (pm.RUN,) and st.run_sites:
            if isinstance(st.node, cst.SimpleStatementLine) and all(
                    _of_built_values(scope, st.index, site) for site in st.run_sites):
                analysis.init_runs.extend((st.index, site) for site in st.run_sites)
            else:
                analysis.blockers.append((st.node, "sess.run inside __init__ of per-run values or with feeds is not "
                                                   "converted yet"))
    analysis.own_scopes, own_blockers = session_methods(cls, names)  # fit(): builds and runs its own graph
    analysis.blockers.extend(own_blockers)
    classifier = Classifier(scope, names)
    held = held_graph_objects(cls, scope, names)
    block = lambda node, why: analysis.blockers.append((node, why))  # noqa: E731
    running = [m for m in methods if m is not init and m not in analysis.own_scopes
               and find_run_sites(m, classifier.is_session, classifier.kind_of)]
    for method in methods:
        if method is init or method in analysis.own_scopes:
            continue
        builders = [c for c in all_calls(method) if names.call_name(c) in _GRAPH_BUILDERS]
        if builders or any((names.call_name(c) or "").startswith("tf.layers.") for c in all_calls(method)):
            analysis.blockers.append((method, f"graph built in method `{method.name.value}` "
                                              "(only __init__, and private methods it calls once, are converted)"))
            continue
        sites = find_run_sites(method, classifier.is_session, classifier.kind_of)
        if held:  # runs of an object the class holds: planned in that object's class
            mark_runs(sites, scope, lambda owner: frozenset(), [method], held, block)
            for site in sites:
                if site.instance is not None and site.feed is not None and not isinstance(site.feed, cst.Dict):
                    block(site.call, f"sess.run of `{site.instance}`'s graph in method `{method.name.value}` with a "
                                     "feed dict built before the run (only a dict written at the run is converted)")
            analysis.held_runs.extend(site for site in sites if site.instance is not None)
            sites = [site for site in sites if site.instance is None]
        inits = [site for site in sites if only_initializers(site.fetch, classifier.kind_of)]
        for site in inits:  # (a reset() method: TF1 initialized the trained variables again at each call)
            if not _initializes_once(cls, method, sites, inits, running, analysis, names):
                analysis.blockers.append((site.call, f"an initializer run in method `{method.name.value}`, which "
                                                     "TF1 ran at each call: eager variables would keep their values"))
        passed = _session_passed(method, sites, {key for key in scope.sessions if key.startswith("self.")})
        if passed:
            analysis.blockers.append((method, f"method `{method.name.value}` passes the class's session to "
                                              f"`{passed}`, which still needs it: eager code has no session"))
        analysis.blockers.extend(graph_only_reads(method, scope.kind))  # self.w.op, self.w.initial_value
        for key in sorted(_escaped_reads(method, sites, scope)):
            analysis.blockers.append((method, f"`{key}` is used outside sess.run in `{method.name.value}`"))
        eager, local_blockers = method_local_runs(method, sites, scope, {m.name.value: m for m in methods})
        analysis.eager_runs |= eager
        analysis.blockers.extend(local_blockers)
        for site in sites:
            site.home = method  # its feed dict is built in the method, not in the graph's scope
            if id(site.call) not in eager:
                analysis.blockers.extend(unknown_method_run_values(scope, site, method, classifier, names))
                analysis.blockers.extend(run_blockers(scope, site))
        if sites:
            analysis.method_sites.append((method, sites))
    for site in external:  # runs from outside the class, written as its methods would (analysis/instance_runs)
        analysis.blockers.extend(external_run_blockers(scope, site, classifier, names))
        analysis.blockers.extend(run_blockers(scope, site))
    run_objects = {site.instance for site in analysis.held_runs}  # (a held helper object only called: not these)
    if run_objects:
        analysis.blockers.extend(held_object_blockers(cls, {key: owner for key, owner in held.items()
                                                            if key in run_objects}, analysis.held_runs))
    runs = [site for _, sites in analysis.method_sites for site in sites] + list(external)
    analysis.blockers.extend(batch_norm_blockers(scope, names, [(site, len(scope.statements)) for site in runs]))
    return analysis


def unknown_method_run_values(scope: "pm.Scope", site: RunSite, method: cst.FunctionDef, classifier,
                              names: TFNames) -> List[Tuple[cst.CSTNode, str]]:
    """Why a run in a method fetches or feeds what ``__init__``'s graph does not build (``self.net.train`` of an
    object of another module's class, which a trainer class holds): planned against the class's graph, it would
    read an attribute the eager object does not have."""
    return [(site.call, f"sess.run in method `{method.name.value}` {verb} a value the analysis does not know: {why}")
            for verb, why in unknown_run_values(site, scope, classifier.kind_of, names)]


def _session_passed(method: cst.FunctionDef, sites: Sequence[RunSite], sessions: Set[str]) -> str:
    """The callee of the first call in ``method`` (other than its runs) given one of ``sessions`` (``saver.save(
    self.sess, path)``; "" for none)."""
    runs = {id(site.call) for site in sites}
    for call in all_calls(method) if sessions else ():
        if id(call) not in runs and any(symbol_key(arg.value) in sessions for arg in call.args):
            return dotted_name(call.func) or "a call"
    return ""


def _initializes_once(cls, method, sites, inits, running, analysis, names: TFNames) -> bool:
    """BinRoot's SOM: ``train()`` opens a session, initializes, trains. TF1 initialized at each call; eager variables
    start initialized, which is the same where the module builds its one object, calls ``train()`` once from
    top-level code, ``__init__`` runs nothing, and every other method that runs the graph is called only by
    ``train()``, after its initializer run (DarkTheCross's agent: ``run()`` initializes, then calls ``decision`` and
    ``learn``, which run the graph in the session it opened): that run is the first."""
    if not (len(inits) == 1 and sites[0] is inits[0] and not analysis.init_runs
            and (cls.name.value, method.name.value) in names.methods_run_once):
        return False
    others = [m.name.value for m in running if m is not method]
    return all(_called_only_after(method, inits[0].call, other, names.attribute_counts()) for other in others)


def _called_only_after(method: cst.FunctionDef, init: cst.Call, name: str, counts: Dict[str, int]) -> bool:
    """Whether every mention of the attribute ``name`` in the module is ``self.name`` in ``method``, after ``init``."""
    seen = {"init": False, "after": 0, "before": 0}

    class _Order(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if node is init:
                seen["init"] = True

        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value == name and isinstance(node.value, cst.Name) and node.value.value == "self":
                seen["after" if seen["init"] else "before"] += 1

    method.body.visit(_Order())
    return seen["before"] == 0 and seen["after"] > 0 and counts.get(name, 0) == seen["after"]


def _of_built_values(scope: "pm.Scope", index: int, site: RunSite) -> bool:
    """A run of values the graph holds when it stands: no feed, nothing per-run (ops built in the fetch, variables)."""
    view = scope.at(index)
    return site.style == RUN and site.feed is None and not site.extra_args and not any(
        view.deferred(key) for key in reads(site.fetch))


def run_blockers(scope: "pm.Scope", site: RunSite) -> List[Tuple[cst.CSTNode, str]]:
    found = []
    plan = plan_run(scope, site, len(scope.statements))
    # What the run needs must be what the names hold when __init__ ends (rebound-names renames the rest).
    for key, _ in sorted(plan.rebound):
        found.append((site.call, f"`{key}` is bound again in __init__ after graph code read "
                                 "it; the generated method would read the new value"))
    found += [(site.call, conflict) for conflict in plan.unrenamed_conflicts]
    for key in sorted(plan.reads):
        symbol = scope.symbols.get(key)
        if key in scope.later_stores and symbol is not None and symbol.kind in (pm.PYTHON, pm.EAGER):
            found.append((site.call, f"`{key}`, which graph code in __init__ reads, is bound again by "
                                     f"{scope.later_stores[key]}: TF1 built with the value it had in __init__, the "
                                     "generated method would read the one it has when it runs"))
        elif symbol is None and "." not in key and key not in scope.params and rebound_in_module(key):
            found.append((site.call, f"`{key}`, a module name graph code in __init__ reads, is bound again in the "
                                     "module: TF1 built with the value it had then, the generated method would "
                                     "read the one it has when it runs"))
    unbuilt = unbuilt_layer_read(scope, plan)
    if unbuilt is not None:
        found.append((site.call, unbuilt))
    return found


def _later_stores(methods: Sequence[cst.FunctionDef], init: cst.FunctionDef, names: TFNames) -> Dict[str, str]:
    """``self.x`` -> where code binds or changes it after ``__init__``: a method of the class (``self.x = v``, or
    ``self.x.bump()`` where ``__init__`` made ``self.x`` an object of a class of the module, and ``bump`` changes
    it), or code outside it that binds the attribute on some object (symbols.stored_outside)."""
    found: Dict[str, str] = {}
    held = _held_module_objects(init, names)
    for method in methods:
        if method is not init:
            for key in writes(method.body):
                if key.startswith("self."):
                    found.setdefault(key, f"method `{method.name.value}`")
            for call in all_calls(method.body):
                func = call.func
                owner = held.get(symbol_key(func.value) or "") if isinstance(func, cst.Attribute) else None
                if owner is not None and func.attr.value in names.changing_methods.get(owner, ()):
                    found.setdefault(symbol_key(func.value), f"method `{method.name.value}` "
                                                             f"(`{symbol_key(func.value)}.{func.attr.value}()`)")
    for method in methods:
        for key in reads(method.body):
            if key.startswith("self.") and key not in found and stored_outside(key[len("self."):]):
                found[key] = f"code outside the class (`.{key[len('self.'):]} = ...`)"
    return found


def _held_module_objects(init: cst.FunctionDef, names: TFNames) -> Dict[str, str]:
    """``self.x`` -> ``C`` for each ``self.x = C(...)`` in ``__init__``, ``C`` a class of the module."""
    held: Dict[str, str] = {}
    for statement in init.body.body:
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
                and isinstance(statement.body[0], cst.Assign) and len(statement.body[0].targets) == 1:
            target, value = statement.body[0].targets[0].target, statement.body[0].value
            key = symbol_key(target)
            if key is not None and key.startswith("self.") and isinstance(value, cst.Call) \
                    and isinstance(value.func, cst.Name) and value.func.value in names.changing_methods:
                held[key] = value.func.value
    return held


def per_run_members(scope: "pm.Scope") -> List[str]:
    """The attributes of ``self`` that ``__init__``'s graph binds to placeholders or per-run values: the converted
    class drops them (they become parameters and locals of its generated methods)."""
    return sorted({key for st in scope.statements if st.role == pm.DEFER or st.kind == pm.PLACEHOLDER
                   for key in st.defines if key.startswith("self.")})
