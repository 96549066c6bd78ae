"""Which deferred statements one run needs (a backward slice over names)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.branch_placeholders import computed_from
from tf_migrate.analysis.fed_gradients import gradient_through_feeds
from tf_migrate.analysis.feed_dicts import (bool_literals, feeds_tensors, floats_fed_to_integers, named_feed_keys,
                                            site_feed_literals)
from tf_migrate.analysis.flatten import FlatStatement
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.binding_times import holds_loop
from tf_migrate.analysis.partial_updates import partial_update_conflicts
from tf_migrate.analysis.dangling_updates import dangling_update_conflicts
from tf_migrate.analysis.later_changes import changed_by_functions, changed_by_methods
from tf_migrate.analysis.expression_kinds import queue_method
from tf_migrate.analysis.symbols import all_calls, reads, symbol_key, target_keys
from tf_migrate.cst.names import parameter_name
from tf_migrate.cst.text import code


# The method the statement computing an object's members calls until the class's rewrite names it.
MEMBERS_MARK = "__tf_migrate_members__"


@dataclass
class RunPlan:
    """What the generated function of one run site computes."""

    site: RunSite
    statements: List["pm.Statement"]  # deferred statements, in program order
    fed: List[Tuple[str, Optional[cst.BaseExpression]]]  # (key, value) in feed order; value None if dynamic
    dynamic_feed: bool  # the feed is not a dict literal: the call passes it as ``**feed``
    unfed_placeholders: List["pm.Statement"] = field(default_factory=list)
    reads: Set[str] = field(default_factory=set)  # every key the function reads
    conflicts: List[str] = field(default_factory=list)  # why this run has no faithful function (empty: it has)
    fed_symbols: Dict[str, "pm.Symbol"] = field(default_factory=dict)  # the binding each feed replaces
    limit: int = 0  # the run site's statement: the bindings it sees are those before it
    keys_known: bool = False  # a dynamic feed whose keys are known (see feed_dicts): no ``**unused_feeds``
    # (key, index of the binding graph code read) for each name bound again before the run (one conflict each)
    rebound: Set[Tuple[str, int]] = field(default_factory=set)
    # fed key -> the Python bool (``"True"`` / ``"False"``) every run of the site feeds it (a training flag)
    fed_bools: Dict[str, str] = field(default_factory=dict)
    rebound_conflicts: List[str] = field(default_factory=list)  # the conflicts of ``rebound``

    @property
    def unrenamed_conflicts(self) -> List[str]:
        """The conflicts other than a name bound again (rebound-names gives those values names of their own)."""
        return [conflict for conflict in self.conflicts if conflict not in self.rebound_conflicts]

    @property
    def parameter_keys(self) -> List[str]:
        """The keys the run's function takes as parameters: the fed ones, then the placeholders it needs unfed."""
        return parameter_keys(self.fed, self.unfed_placeholders)

    @property
    def open_feed(self) -> bool:
        """Whether the function must take feeds it does not know (``**unused_feeds``)."""
        return self.dynamic_feed and not self.keys_known

    @property
    def needs_function(self) -> bool:
        return bool(self.statements or self.fed or self.unfed_placeholders or self.dynamic_feed)

    @property
    def feeds_unread(self) -> bool:
        """A run with feeds that nothing it computes reads (``sess.run(accuracy, {x: ...})`` where
        ``accuracy`` was computed from numpy): the feeds change nothing."""
        return bool(self.fed) and not (self.statements or self.unfed_placeholders or self.dynamic_feed
                                       or any(key in self.reads for key, _ in self.fed))


# A fed variable: what TF1 replaced depends on how each op read it (the ops reading a reference variable's own
# tensor saw the feed; a schedule's or a resource variable's other reads did not): a parameter of the run's function
# would replace every read.
_FED_VARIABLE = ("`{key}`, a variable, is fed: TF1 gave the fed value to the ops reading the variable's own tensor "
                 "and not to other reads of it (a learning-rate schedule's of the global step), which the text does "
                 "not tell apart")


def plan_run(scope: "pm.Scope", site: RunSite, limit: int) -> RunPlan:
    """Slice ``scope`` for ``site``, using statements before index ``limit``.

    The slice is over *bindings*, not names: a statement needs the binding of each name it reads
    that is visible where it stands, and a feed replaces the binding visible at the run site (any
    tensor can be fed in TF1, not only a placeholder). Where one run would need two values under
    one parameter name, the plan records a conflict and the scope stays in compat mode.
    """
    literal = site.literal_feeds
    dynamic = literal is None
    named_keys = named_feed_keys(scope, site, limit) if dynamic else None
    unmatched = dynamic and named_keys is None and feeds_tensors(scope, site)
    if named_keys is not None:
        fed = [(key, None) for key, _ in named_keys]
        fed_symbols = dict(named_keys)  # the binding each key names where the dict was built
    else:
        # A key given twice in the feed dict literal: Python keeps the last value, in the first one's place.
        fed = [] if dynamic else list({key: value for key, _, value in literal}.items())
        fed_symbols = {key: scope.symbol_at(key, limit) for key, _ in fed}
    fed_at = {key: symbol.index if symbol is not None else -2 for key, symbol in fed_symbols.items()}
    needed: Set[Tuple[str, int]] = set()
    rebound: Set[Tuple[str, int]] = set()
    rebound_conflicts: List[str] = []
    conflicts: List[str] = [_FED_VARIABLE.format(key=key) if symbol.kind == pm.VARIABLE else
                            f"`{key}` is fed, but the analysis cannot tell its dtype (TF1 converts a feed to it)"
                            for key, symbol in fed_symbols.items()
                            if symbol is not None and symbol.kind != pm.PLACEHOLDER and symbol.dtype is None
                            and key not in scope.branch_placeholders.get(symbol.index, ())]  # (their lines cast)
    if unmatched:
        conflicts.append(f"the feed dict `{site.feed.value}` replaces tensors, and the analysis cannot tell which "
                         "value of each this run sees (a key bound again, or other keys elsewhere)")

    def need(keys, at: int) -> None:
        for key in keys:
            if at == limit and _loop_around_binds(scope, key, limit):
                loop_reads.append(key)  # a conflict where the run becomes a function (see below)
                continue
            symbol = scope.symbol_at(key, at)
            if symbol is None:
                continue
            if symbol.kind not in pm.DEFERRED_KINDS:
                # Read as it is when the function runs: only right if it is not bound again before the run.
                # A later plain assignment by graph code leaves the program with it (the generated
                # functions bind the name locally, see codegen.local_bindings): the name keeps this value.
                # Any other later binding (a loop appending to it, a kept statement) changes what it holds.
                # (A dataset iterator bound again is the program's re-initialization, which the run means:
                # the functions take the iterator bound at the call, see codegen.compiled.iterator_parameters.)
                if symbol.kind != pm.ITERATOR and at < limit and _bound_again(scope, key, symbol, limit):
                    rebound_conflicts.append(f"`{key}` is bound again after graph code reads it and before the "
                                             "run; the generated function would read the new value")
                    conflicts.append(rebound_conflicts[-1])
                    rebound.add((key, symbol.index))
                conflicts.extend(_called_reads_rebound(scope, key, symbol, at, limit))
                if at < limit:  # changed in place by a call in between (analysis/later_changes)
                    between = _between(scope, at, limit)
                    conflicts.extend(changed_by_functions(scope, key, between))
                    conflicts.extend(changed_by_methods(scope, key, at, between))
                continue
            if key in fed_at:
                if fed_at[key] != symbol.index:
                    conflicts.append(f"`{key}` is fed, and this run also needs the `{key}` bound before it")
                continue
            needed.add((key, symbol.index))

    loop_reads: List[str] = []
    need(reads(site.fetch), limit)
    chosen: List[pm.Statement] = []
    placeholders: List[pm.Statement] = []
    hits_of: Dict[int, Set[str]] = {}
    for st in reversed(scope.statements[:limit]):
        hits = {key for key in st.defines if (key, st.index) in needed}
        if not hits:
            continue
        hits_of[st.index] = hits
        needed.difference_update((key, st.index) for key in hits)
        members = object_members_needed(scope, st, hits, fed_at, conflicts)
        if members is not None:
            chosen.append(members)
            continue
        if st.role != pm.DEFER:
            continue  # bound by a kept statement: the generated function reads it as it is
        if st.kind == pm.PLACEHOLDER:
            placeholders.append(st)
            continue
        chosen.append(st)
        conflicts += _unfed_in_branch(scope, st, hits, fed_at)
        need(st.reads, st.index)
    chosen.reverse()
    placeholders.reverse()
    conflicts += _parameter_conflicts(scope, chosen, placeholders, fed)
    conflicts += _renamed_parameter_conflicts(chosen, placeholders, fed, reads(site.fetch))
    conflicts += _build_time_effects(chosen)
    conflicts += _unordered_queue_ops(scope, chosen, site.fetch)
    conflicts += _shared_stopped_gradients(chosen)
    conflicts += partial_update_conflicts(chosen, site.fetch, hits_of)
    conflicts += dangling_update_conflicts(scope, chosen)
    conflicts += gradient_through_feeds(scope, chosen, {key: symbol for key, symbol in fed_symbols.items() if symbol})
    all_reads = set(reads(site.fetch))
    for st in chosen + placeholders:
        all_reads |= st.reads
    fed_keys = {key for key, _ in fed}
    if loop_reads and (chosen or placeholders or dynamic or fed):  # (else the fetch is computed where it stands)
        conflicts.append(f"the run's fetch reads `{loop_reads[0]}`, which the loop around the run binds: TF1 built "
                         "the fetched ops at each run, with the value then; the generated function would keep the "
                         "value of its first call")
    literals = site_feed_literals(scope, site) if fed_keys else []
    fed_bools = {key: value for key, value in bool_literals(literals).items() if key in fed_keys}
    conflicts += floats_fed_to_integers(literals, {key: symbol for key, symbol in fed_symbols.items() if symbol})
    return RunPlan(site, chosen, fed, dynamic, placeholders, all_reads, conflicts,
                   {key: symbol for key, symbol in fed_symbols.items() if symbol is not None}, limit,
                   named_keys is not None, rebound, fed_bools, rebound_conflicts)


def object_members_needed(scope: "pm.Scope", st: "pm.Statement", hits, fed_at, conflicts: List[str]):
    """The statement computing the members of the object ``st`` built that the run needs (``hits``), or None
    (analysis/object_members); unfed placeholders of the object the run needs are conflicts."""
    symbols = [scope.symbol_at(key, st.index + 1) for key in sorted(hits)]
    members = [s for s in symbols if s is not None and s.member_of]
    if not members:
        return None
    instance = members[0].member_of
    graph = scope.object_graphs[instance]
    wanted = {s.key for s in members if s.kind != pm.PLACEHOLDER}
    attributes = [a for a in graph.tensors if f"{instance}.{a}" in wanted]
    feeds = list(dict.fromkeys(f for a in attributes for f in graph.tensors[a]))
    for attribute in [s.key.split(".", 1)[1] for s in members if s.kind == pm.PLACEHOLDER] + feeds:
        if f"{instance}.{attribute}" not in fed_at:
            conflicts.append(f"`{instance}.{attribute}`, a placeholder of `{instance}`'s graph, is needed and not fed")
    return member_statement(instance, attributes, feeds, st.index) if attributes else None


def _unordered_queue_ops(scope: "pm.Scope", chosen: List["pm.Statement"], fetch: cst.BaseExpression) -> List[str]:
    """Two ops of one queue in one run, neither computed from the other (``sess.run([head, queue.size()])``):
    TF1 ran them in no fixed order, and the generated function would fix one. A chain (``again =
    queue.enqueue([head + 1])`` after ``head = queue.dequeue()``) has the order of its data."""
    if not scope.queue_keys:
        return []  # (most scopes bind no queue: nothing to walk)
    defined_by: Dict[str, int] = {}
    before: List[Set[int]] = []  # position in chosen -> the positions it is computed from
    ops: List[Tuple[str, Set[int], str]] = []  # (queue, positions the op is computed from, its code)

    def sources(keys) -> Set[int]:
        found: Set[int] = set()
        for key in keys:
            if key in defined_by:
                found |= {defined_by[key]} | before[defined_by[key]]
        return found

    for position, st in enumerate(chosen):
        before.append(sources(st.reads))
        for call in all_calls(st.node):
            if queue_method(call, scope):
                ops.append((symbol_key(call.func.value), before[-1] | {position}, code(call.func)))
        for key in st.defines:
            defined_by[key] = position
    for call in all_calls(fetch):
        if queue_method(call, scope):
            ops.append((symbol_key(call.func.value), sources(reads(call)), code(call.func)))
    for later, (queue, made_from, name) in enumerate(ops):
        for earlier in ops[:later]:
            if earlier[0] == queue and not (earlier[1] <= made_from):
                return [f"the run computes `{earlier[2]}` and `{name}`, ops of one queue, and neither from the "
                        "other: TF1 ran them in no fixed order"]
    return []


def _bound_again(scope: "pm.Scope", key: str, symbol: "pm.Symbol", limit: int) -> bool:
    """Whether ``key`` (its binding ``symbol`` read by graph code) holds another value when the run at statement
    ``limit`` happens: bound again before that statement (not by graph code the functions make local), or by
    the block that holds the run (``for k in ks: sess.run(y)``, the loop binding ``k`` before each run)."""
    later = scope.symbol_at(key, limit)
    if later is not None and later.index != symbol.index \
            and not _deferred_assignment(scope.statements[later.index], key):
        return True
    holder = scope.statements[limit] if limit < len(scope.statements) else None
    return holder is not None and not isinstance(holder.node, cst.SimpleStatementLine) and key in holder.defines


def _build_time_effects(chosen: List["pm.Statement"]) -> List[str]:
    """Why graph code this run recomputes acts in Python (prints, draws numpy random numbers): TF1 did that
    once, when it built the graph; in a generated function it happens when the function is traced, once per
    function that needs the line."""
    for st in chosen:
        if st.python_effect is not None:
            return [f"graph code the run recomputes {st.python_effect}: TF1 did that once, when it built the graph; "
                    "a generated function would do it when traced, once for each function that needs it"]
    return []


def _loop_around_binds(scope: "pm.Scope", key: str, limit: int) -> bool:
    """Whether the statement holding the run at ``limit`` is a loop, or holds one, and binds ``key``."""
    holder = scope.statements[limit] if limit < len(scope.statements) else None
    if holder is None or isinstance(holder.node, cst.SimpleStatementLine) or key not in holder.defines:
        return False
    return isinstance(holder.node, (cst.For, cst.While)) or holds_loop(holder.node)


def _called_reads_rebound(scope: "pm.Scope", key: str, symbol: "pm.Symbol", at: int, limit: int) -> List[str]:
    """Why the run at ``limit`` would see other values than TF1 built with through ``key``, a function of the
    scope that graph code at ``at`` calls: a name it reads from the scope when called (or a function it calls
    reads) is bound again before the run. TF1 built with the value at the call; the generated function calls
    it when it runs. (No fresh name helps: the function reads the name itself.)"""
    found: List[str] = []
    seen = {key}
    pending = [key]
    while pending:
        function = pending.pop()
        for name in sorted(scope.function_reads.get(function, ())):
            bound = scope.symbol_at(name, at)
            if bound is None or name in seen:
                continue
            seen.add(name)
            if name in scope.function_reads:
                pending.append(name)
            elif bound.kind not in pm.DEFERRED_KINDS and at < limit and (
                    _bound_again(scope, name, bound, limit) or name in scope.global_writers):
                found.append(f"`{name}`, which `{function}` reads when graph code calls it "
                             f"(`{key}`), is bound again before the run; TF1 built with the value it had at the "
                             "call, the generated function would read the new one")
    return found


def _shared_stopped_gradients(chosen: List["pm.Statement"]) -> List[str]:
    """``tf.gradients(y, xs, stop_gradients=[a])`` with other derivatives in the same run: the run's one tape
    stops ``a`` for all of them (``a = tf.stop_gradient(a)`` where it is built), where TF1 stopped it for that
    call alone."""
    derivatives = [call for st in chosen if st.gradient for call in all_calls(st.node)
                   if isinstance(call.func, (cst.Name, cst.Attribute)) and _derivative_name(call.func)]
    if len(derivatives) > 1 and any(arg.keyword is not None and arg.keyword.value == "stop_gradients"
                                    for call in derivatives for arg in call.args):
        return ["a gradient with `stop_gradients` and other derivatives in one run: the run's tape would stop "
                "those tensors for every derivative, where TF1 stopped them for that gradient alone"]
    return []


def _derivative_name(func: cst.BaseExpression) -> bool:
    name = func.value if isinstance(func, cst.Name) else func.attr.value
    return name in ("gradients", "hessians", "minimize", "compute_gradients", "jacobian", "batch_jacobian")


def _between(scope: "pm.Scope", at: int, limit: int) -> List["pm.Statement"]:
    """The statements after graph code at ``at`` and before the run at ``limit``, with the block that holds the run
    (``for ...: cfg.set(step); sess.run(y)``)."""
    holder = scope.statements[limit] if limit < len(scope.statements) else None
    return scope.statements[at + 1:limit] + (
        [holder] if holder is not None and not isinstance(holder.node, cst.SimpleStatementLine) else [])


def _deferred_assignment(st: "pm.Statement", key: str) -> bool:
    """``key = ...`` as a whole statement of graph code (the rewrite moves it into the run functions)."""
    node = st.node
    if st.role == pm.DEFER and isinstance(node, cst.For) and key in _assigned_in(node):
        return True  # a per-run loop (`for W in Ws: h = tf.matmul(h, W)`): the functions' local, like a line's
    return st.role == pm.DEFER and isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 \
        and isinstance(node.body[0], cst.Assign) and any(
            isinstance(t.target, cst.Name) and t.target.value == key for t in node.body[0].targets)


def _assigned_in(loop: cst.For) -> Set[str]:
    """The names a loop binds by assignment (not a list it appends to: that list is the program's, and a loop
    moved into the run functions would append to it at every run)."""
    found: Set[str] = set()

    class _Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            if isinstance(node.target, cst.Name):
                found.add(node.target.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                found.add(node.target.value)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    loop.body.visit(_Targets())
    found.update(target_keys(loop.target))
    return found


def _unfed_in_branch(scope: "pm.Scope", st: "pm.Statement", needed: Set[str], fed_at) -> List[str]:
    """A placeholder declared in a branch of ``st`` that the run does not feed, from which the branch computes
    what the run does not need: TF1's run succeeded without it, the generated function would fail (module doc of
    ``branch_placeholders``)."""
    conflicts = []
    for key in sorted(set(scope.branch_placeholders.get(st.index, ())) - set(fed_at)):
        computed = computed_from(st.node, key)
        unneeded = sorted(computed - needed) if computed is not None else ["a statement"]
        if unneeded:
            conflicts.append(f"`{key}`, a placeholder declared in a branch, is not fed here, and the branch "
                             f"computes `{unneeded[0]}` from it, which this run does not need")
    return conflicts


def _parameter_conflicts(scope: "pm.Scope", chosen, placeholders, fed) -> List[str]:
    """A parameter (fed value or placeholder) whose name a statement of the same run binds again (a placeholder
    declared in a branch of that statement aside: the generated function drops its line)."""
    params = parameter_keys(fed, placeholders)
    conflicts = []
    for key in dict.fromkeys(params):
        if any(key in st.defines and key not in scope.branch_placeholders.get(st.index, ()) for st in chosen):
            conflicts.append(f"`{key}` names two graph values that one run needs (a parameter and a rebinding)")
    names = [parameter_name(key) for key in dict.fromkeys(params)]
    for name in sorted({n for n in names if names.count(n) > 1}):
        conflicts.append(f"two fed values would both be the parameter `{name}`")
    return conflicts


def parameter_keys(fed, placeholders) -> List[str]:
    """The keys a run function takes as parameters: those of ``fed`` ((key, value) pairs), then the placeholders
    (statements) it needs unfed."""
    return [key for key, _ in fed] + [st.defines[0] for st in placeholders if st.defines]


def _renamed_parameter_conflicts(chosen, placeholders, fed, fetch_reads: Set[str]) -> List[str]:
    """A fed value whose parameter drops its leading underscores (``_x`` -> ``x``: ``cst.names.parameter_name``)
    where the run also reads or binds a value of that name (a Python ``x``, another member ``self.x``): the
    parameter would shadow it in the generated function."""
    params = parameter_keys(fed, placeholders)
    used: Set[str] = set()
    for key in set(fetch_reads).union(*(set(st.reads) | set(st.defines) for st in chosen)) - set(params):
        used.update((key.split(".")[0], key.split(".")[-1]))
    return [f"`{key}` would be the parameter `{parameter_name(key)}`, a name this run also reads"
            for key in dict.fromkeys(params)
            if parameter_name(key) != key.split(".")[-1] and parameter_name(key) in used]


def member_statement(instance: str, attributes: List[str], feeds: List[str], index: int) -> "pm.Statement":
    """The statement a run's generated function computes ``instance``'s per-run ``attributes`` with, from the fed
    placeholders ``feeds`` (a call the class's rewrite names: :data:`MEMBERS_MARK`)."""
    targets = ", ".join(f"{instance}.{a}" for a in attributes)
    arguments = ", ".join(f"{f}={instance}.{f}" for f in feeds)
    node = cst.parse_statement(f"{targets} = {instance}.{MEMBERS_MARK}({arguments})")
    st = pm.Statement(index, FlatStatement(node), role=pm.DEFER, kind=pm.TENSOR)
    st.defines = [f"{instance}.{a}" for a in attributes]
    st.reads = {f"{instance}.{f}" for f in feeds}
    return st


def member_parts(st: "pm.Statement") -> Optional[Tuple[str, List[str], List[str]]]:
    """(object, attributes, fed placeholders) of a statement :func:`member_statement` made, else None."""
    node = st.node
    if not (isinstance(node, cst.SimpleStatementLine) and isinstance(node.body[0], cst.Assign)):
        return None
    call = node.body[0].value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == MEMBERS_MARK
            and isinstance(call.func.value, cst.Name)):
        return None
    return call.func.value.value, [key.split(".", 1)[1] for key in st.defines], [arg.keyword.value for arg in call.args]
