"""Whole-scope passes, run once every statement of a scope is classified.

:func:`tf_migrate.analysis.scope_analysis.analyze_scope` runs them in this order:
:func:`settle_eager` (eager constants a tape must record become per-run
tensors), then the checks that add blockers: per-run values used outside a run
(:func:`check_escapes`), a second initialization (``reinitialization``),
a session used beyond running the graph (``session_escapes``, run between them), tensors compared with
``==`` (:func:`check_tensor_equality`), graph values built into module names by a function
(:func:`check_global_bindings`).
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.collections import unbuilt_layer_read
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.escapes import describe_problem, escaped_reads, finder, printed_only, static_read_problem
from tf_migrate.analysis.input_specs import placeholder_default
from tf_migrate.analysis.slicing import plan_run
from tf_migrate.analysis.symbols import all_calls, reads, symbol_key, writes
from tf_migrate.cst.text import code
from tf_migrate.analysis.statement_facts import check_feed_objects, single
from tf_migrate.traversal import visit


def settle_eager(c: Classifier) -> None:
    """Demote eager constants that a tape must record or that must be redrawn per run."""
    for st in c.scope.statements:
        if st.role == pm.DEFER:
            for earlier in c.scope.statements[:st.index]:
                if (earlier.role == pm.KEEP and earlier.kind == pm.PYTHON and not earlier.run_sites
                        and isinstance(earlier.node, cst.SimpleStatementLine)
                        and _read_in_runs(c.scope, earlier, set(earlier.defines) & set(st.defines))):
                    earlier.role = pm.DEFER
                    c.define(earlier, pm.STRUCT)
                    c.define(st, st.kind)
    for key, index in _fed_bindings(c.scope):
        st = c.scope.statements[index]
        if st.kind == pm.EAGER:  # a fed tensor: its value is the feed's in that run, so it is made per run
            st.role = pm.DEFER
            c.define(st, pm.TENSOR)
    changed = True
    while changed:
        changed = False
        needed_by_tape = _tape_inputs(c.scope)
        for st in c.scope.statements:
            if st.kind != pm.EAGER:
                continue
            per_run_random = (st.random or st.per_run_effect) and _read_by_deferred(c.scope, st.defines)
            reads_deferred = bool(escaped_reads(st.node, [], c.scope))
            if set(st.defines) & needed_by_tape or per_run_random or reads_deferred:
                st.role = pm.DEFER
                c.define(st, pm.TENSOR)
                changed = True


def _read_in_runs(scope: "pm.Scope", earlier: "pm.Statement", keys) -> bool:
    """Whether per-run code reads the binding ``earlier`` makes of one of ``keys``: ``h = 3`` then
    ``h = tf.constant(h) * x`` moves ``h = 3`` into the run (there ``h`` is local to the function)."""
    for st in scope.statements[earlier.index + 1:]:
        if st.role != pm.DEFER:
            continue
        for key in keys & st.reads:
            # The binding visible when the statement starts (a loop that rebinds the name still reads it first).
            before = scope.symbol_at(key, st.index)
            if before is not None and before.index == earlier.index:
                return True
    return False


def _fed_bindings(scope: "pm.Scope"):
    """(key, statement index) of each binding a feed dict replaces somewhere in the scope: the keys of
    literal feeds, and of dict literals bound to names only passed as feeds (``replace = {a: 15}``)."""
    for st in scope.statements:
        keys = [key for site in st.run_sites for key, _, _ in site.literal_feeds or []]
        _, value = single(st.node)
        if value is not None and id(value) in scope.feed_literals:
            keys += [symbol_key(element.key) for element in value.elements]
        for key in keys:
            symbol = scope.symbol_at(key, st.index)
            if symbol is not None and symbol.index >= 0:
                yield key, symbol.index


def _tape_inputs(scope: "pm.Scope") -> Set[str]:
    needed: Set[str] = set()
    for st in reversed(scope.statements):
        if st.kind in (pm.VARIABLE, pm.VARIABLES, pm.OPTIMIZER, pm.ITERATOR, pm.SAVER, pm.LAYER, pm.AVERAGER,
                       pm.METRIC, pm.QUEUE):
            continue  # a source the tape watches (a layer: its variables), or data: its making is not recorded
        if st.gradient or set(st.defines) & needed:
            needed |= st.reads
    return needed


def _read_by_deferred(scope: "pm.Scope", keys) -> bool:
    keys = set(keys)
    return any(st.role in (pm.DEFER, pm.RUN) and st.reads & keys for st in scope.statements)


def check_run_plans(c: Classifier) -> Set[int]:
    """Runs whose slice would need two values under one name (a feed replacing a rebound name...). Returns the
    indices of the statements some run needs (for :func:`check_unneeded_effects`)."""
    needed: Set[int] = set()
    for st in c.scope.statements:
        limit = len(c.scope.statements) if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)) else st.index
        for site in st.run_sites:
            if site.instance is not None:
                continue  # planned in its class's scope
            plan = plan_run(c.scope, site, limit)
            needed.update(chosen.index for chosen in plan.statements)
            for conflict in plan.conflicts:
                c.block(site.call, conflict)
            if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):  # (the module's own runs: checked by classify)
                check_feed_objects(site, c.scope, c.block)  # `{p: v for p, v in zip([x], batch)}` in a helper
            for key in unfed_placeholders(c, plan):
                c.block(site.call, f"this run needs the placeholder `{key}`, which its feed does not name: TF1 fails "
                                   "here (\"You must feed a value for placeholder\") unless another name of it is fed")
            unbuilt = unbuilt_layer_read(c.scope, plan)
            if unbuilt is not None:
                c.block(site.call, unbuilt)
    return needed


def check_unneeded_effects(c: Classifier, needed: Set[int]) -> None:
    """Graph code that acts in Python (prints) and that no run needs (``needed``: the indices runs need):
    ``for t in fetches: print(t.shape)`` would go with the graph code, and the eager program print nothing."""
    for st in c.scope.statements:
        if st.role == pm.DEFER and st.python_effect is not None and st.index not in needed:
            c.block(st.node, f"graph code that {st.python_effect} and that no run needs: TF1 did that when it built "
                             "the graph; the generated functions would not do it at all")


def unfed_placeholders(c: Classifier, plan) -> List[str]:
    """The placeholders without a default that a run with a feed of known keys needs and does not feed (a
    ``**feed`` of unknown keys may hold them)."""
    if plan.open_feed:
        return []
    return [st.defines[0] for st in plan.unfed_placeholders if st.defines
            and placeholder_default(st, c.scope, c.names) is None
            and st.defines[0] not in c.scope.branch_placeholders.get(st.index, ())]


def _outer_values(scope: "pm.Scope", node) -> List[str]:
    """This scope's per-run values a nested scope reads, feed keys included."""
    keys = set(finder(node, [], scope).keys)
    if isinstance(node, (cst.FunctionDef, cst.If)):
        local = set(writes(node.body))
        if isinstance(node, cst.FunctionDef):
            params = node.params
            local |= {p.name.value for p in [*params.params, *params.kwonly_params, *params.posonly_params]}
        keys |= {k for k in reads(node.body) - local if scope.kind(k) == pm.PLACEHOLDER}
    return sorted(keys)


def _view_at(scope: "pm.Scope", st) -> "pm.Scope":
    """The bindings a statement reads: those made before it, and for a compound statement (a loop
    may read on its next pass what it binds later) those made inside it too; a definition's body
    may read any of them."""
    if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)) or _declares_outer_names(st.node):
        # A body runs when called, and `global x` hands every later binding of x to other code:
        # both read what the names hold then, any later binding too.
        return scope
    compound = isinstance(st.node, cst.BaseCompoundStatement)
    return scope.at(st.index + 1 if compound else st.index)


def _declares_outer_names(node) -> bool:
    return isinstance(node, cst.SimpleStatementLine) and any(
        isinstance(small, (cst.Global, cst.Nonlocal)) for small in node.body)


def check_escapes(c: Classifier) -> None:
    """Per-run values read where no run provides them."""
    for st in c.scope.statements:
        if st.role not in (pm.KEEP, pm.RUN):
            continue
        if st.kind == "nested-scope":  # its own session cannot run this scope's graph, which moves away
            outer = _outer_values(c.scope, st.node)
            if outer:
                c.block(st.node, f"`{pm.nested_scope_name(st.node)}` (a scope of its own: it makes a session or "
                                     f"placeholders) uses {', '.join(f'`{k}`' for k in outer)} from the graph "
                                     "built outside it")
            continue
        found = finder(st.node, st.run_sites, _view_at(c.scope, st))
        for node_id, (key, attribute) in found.static.items():
            why = static_read_problem(c.scope, key, st.index)
            if why is None:
                c.scope.static_reads[node_id] = (key, attribute, st.index)
            elif describe_problem(c.scope, c.names, key, st.index) is None:
                c.scope.described[node_id] = (key, st.index, attribute)  # the static shape TF1 inferred: the trace's
            else:
                c.block(st.node, f"`{key}.{attribute}` outside sess.run: {why}")
        for key in sorted(found.keys):
            kind = c.scope.kind(key)
            if st.kind == pm.VARIABLE or st.kind == pm.OPTIMIZER:
                continue
            printed = printed_only(st.node, key, st.run_sites) if kind in (pm.PLACEHOLDER, pm.TENSOR) else []
            if printed and describe_problem(c.scope, c.names, key, st.index) is None:
                c.scope.described.update((id(name), (key, st.index, "")) for name in printed)
                continue
            c.block(st.node, f"`{key}` ({kind}) is used outside sess.run; its value only exists in a run")


_TENSOR_VALUES = {pm.PLACEHOLDER, pm.TENSOR, pm.EAGER, pm.VARIABLE}


def check_tensor_equality(c: Classifier) -> None:
    """``t == x`` on a tensor: TF1 compared graph tensors by identity (``out == ""`` is False), TF2
    compares values elementwise (and fails on ``""``), so the eager program would take other branches."""
    for st in c.scope.statements:
        if st.role not in (pm.KEEP, pm.RUN) or isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
            continue
        for comparison, left, right in _equality_tests(st.node):
            for operand, other in ((left, right), (right, left)):
                key = symbol_key(operand)
                if key is None or c.scope.kind(key) not in _TENSOR_VALUES or (
                        isinstance(other, cst.Name) and other.value == "None"):
                    continue
                if len(comparison.comparisons) == 1 and isinstance(other, _LITERALS):
                    # `out == ""`, with `out` a tensor or a string: TF1's answer, whichever it is
                    c.scope.replacements[id(comparison)] = _identity_compare(comparison, operand, c.names.tf_alias)
                else:
                    c.block(st.node, f"`{key}` (a tensor) is compared with `==`/`!=`: TF1 compared tensors by "
                                     "identity, TF2 compares their values")
                break


_LITERALS = (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)


def _identity_compare(comparison: cst.Comparison, tensor: cst.BaseExpression, tf_alias) -> cst.BaseExpression:
    """``t == lit`` -> ``not tf.is_tensor(t) and t == lit`` (a tensor was never equal to a literal in TF1)."""
    equal = isinstance(comparison.comparisons[0].operator, cst.Equal)
    test = f"{tf_alias or 'tf'}.is_tensor({code(tensor)})"
    text = f"(not {test} and {code(comparison)})" if equal else f"({test} or {code(comparison)})"
    return cst.parse_expression(text)


def _equality_tests(node: cst.CSTNode):
    tests = _EqualityTests()
    visit(node, tests)
    return tests.found


class _EqualityTests(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = []

    def visit_Comparison(self, comparison: cst.Comparison) -> None:
        left = comparison.left
        for target in comparison.comparisons:
            if isinstance(target.operator, (cst.Equal, cst.NotEqual)):
                self.found.append((comparison, left, target.comparator))
            left = target.comparator

    def visit_FunctionDef(self, _) -> bool:
        return False

    visit_ClassDef = visit_Lambda = visit_FunctionDef


def check_global_bindings(c: Classifier) -> None:
    """A function that builds graph values into the module's names (``global x`` then ``x = tf...``): the
    module's analysis does not see those bindings, so runs elsewhere would read names it cannot follow."""
    for st in c.scope.statements:
        if _declares_outer_names(st.node):  # in the function's own scope: `global sess, x, y`, then x = tf...
            graph = sorted(k for k in _declared_outer(st.node) if c.scope.kind(k) not in (None, pm.PYTHON))
            if graph:
                c.block(st.node, f"graph values bound to module names ({', '.join(f'`{k}`' for k in graph)} "
                                 "via `global`), which the analysis does not follow")
        if not isinstance(st.node, cst.FunctionDef):
            continue
        declared = _declared_outer(st.node)
        bound = declared & set(writes(st.node.body))
        if bound and any((c.names.call_name(call) or "").startswith("tf.") for call in all_calls(st.node.body)):
            c.block(st.node, f"`{st.node.name.value}` binds graph values to module names "
                             f"({', '.join(f'`{k}`' for k in sorted(bound))} via `global`), which the analysis "
                             "does not follow")


def _declared_outer(node: cst.CSTNode) -> Set[str]:
    """Names ``global``/``nonlocal`` declare in ``node`` (a function's own body, not nested ones)."""
    found: Set[str] = set()

    class _Walk(cst.CSTVisitor):
        def visit_Global(self, declaration: cst.Global) -> None:
            found.update(item.name.value for item in declaration.names)

        visit_Nonlocal = visit_Global

        def visit_FunctionDef(self, inner) -> bool:
            return inner is node

    visit(node, _Walk())
    return found

