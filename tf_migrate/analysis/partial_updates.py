"""Runs that need part of what one line builds, where the line builds several updates or effects.

TF1 ran only the ops a run fetched (and what they depend on)::

    ups = [tf.assign_add(v, 1.0) for v in vs]        sess.run(ups[0])    # updates the first variable alone
    a, b = tf.assign_add(v1, 1.0), tf.assign_add(v2, 1.0)   sess.run(a)   # updates v1 alone
    ops = {"a": v1.assign_add(1.0), "b": v2.assign_add(1.0)}   sess.run(ops["a"])

The same holds for ops that act outside the graph at each run: ``fs = [tf.py_func(f0, ...), tf.py_func(f1, ...)]``
then ``sess.run(fs[1])`` called ``f1`` alone. A run's generated function computes whole lines (the slice is over
bindings, see :mod:`slicing`): it would make every update of the line, and call every function, each time it runs.
Such a run keeps the file compat, with the reason at the run.

Updates and effects are :mod:`update_ops`' (found by name; those made inside a function the line calls are not seen
here, see :mod:`dangling_updates`); collections and tuples read in part are :mod:`collection_updates`'.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.collection_updates import held_update, read_in_part
from tf_migrate.analysis.flatten import makes_ops
from tf_migrate.analysis.symbols import all_calls, reads, symbol_key, target_keys, writes
from tf_migrate.analysis.update_ops import effect_calls, inner_lines, several_updates
from tf_migrate.cst.text import code


def partial_update_conflicts(chosen: List["pm.Statement"], fetch: cst.BaseExpression,
                             hits_of: Dict[int, Set[str]]) -> List[str]:
    """Why the run whose slice is ``chosen`` (``hits_of``: statement index -> the keys of it the run needs)
    would make updates TF1 did not run: a statement of several updates of which it reads part (an item of a list
    or dict of updates, one target of a tuple assignment, one name a block binds)."""
    updating = {key: calls[0] for st in chosen for calls in [effect_calls(st.node)] if calls for key in st.defines}
    for st in chosen:
        needed = hits_of.get(st.index, set())
        through = _update_read_by_unneeded(st.node, needed, updating)
        if through is not None:
            key, call = through
            return [f"the run needs `{', '.join(sorted(needed))}` of a tuple assignment whose other element reads "
                    f"`{key}`, an op that changes state or acts at each run (`{code(call.func)}`): the run's "
                    "function would compute the whole assignment and run it, where TF1 did not"]
        alias = _alias_under_made_dependencies(st.node, needed)
        if alias is not None:
            key, call = alias
            return [f"the run needs `{key}`, bound to another name under `tf.control_dependencies` whose list makes "
                    f"`{code(call.func)}`: TF1 made no op for `{key}`, so its runs did not wait for that op, and the "
                    "run's function would make it"]
        updates = effect_calls(st.node)
        held = None if updates else held_update(st, chosen, fetch, hits_of, updating)
        if held is not None:
            whole, key, call = held
            return [f"the run reads part of `{whole}`, which also holds `{key}`, an op that changes state or acts at "
                    f"each run (`{code(call.func)}`): TF1 ran the items it fetched, the run's function would compute "
                    "the whole collection and run it"]
        if not updates:
            continue
        unneeded = {key for key in st.defines if key not in needed}
        bound = _update_bound_to(st.node, unneeded, needed)
        if bound is not None:
            key, call = bound
            what = f"binds `{key}`," if key else "makes, bound to no name,"
            return [f"the run needs `{', '.join(sorted(needed))}` of a statement that also {what} an op that changes "
                    f"state or acts at each run (`{code(call.func)}`): the run's function would compute the whole "
                    "statement and run it, where TF1 did not"]
        part = read_in_part(st, chosen, fetch, hits_of)
        if part and several_updates(st.node, updates):
            return [f"the run reads part of `{part}`, which holds several ops that change state or act at each "
                    f"run (`{code(updates[0].func)}`): TF1 ran the ones it fetched, the run's function would "
                    "compute the whole line and run them all"]
    return []


def _alias_under_made_dependencies(node: cst.BaseStatement,
                                   needed: Set[str]) -> Optional[Tuple[str, cst.Call]]:
    """(key, call) where ``node`` is ``with tf.control_dependencies([tf.assign_add(step, 1)]):`` (an op made in the
    list) and a line of its block binds a needed key to other names (``out = x``), which makes no op."""
    if not isinstance(node, cst.With):
        return None
    made = [call for item in node.items for call in effect_calls(item.item)
            if any(code(outer.func).endswith("control_dependencies") for outer in all_calls(item.item))]
    if not made:
        return None
    for line in inner_lines(node):
        if not makes_ops(line):
            for key in writes(line):
                if key in needed:
                    return key, made[0]
    return None


def _update_read_by_unneeded(node: cst.BaseStatement, needed: Set[str],
                             updating: Dict[str, cst.Call]) -> Optional[Tuple[str, cst.Call]]:
    """(key, call) where ``a, b = x, y`` binds a name the run does not need from a value that reads ``key``, an
    update or effect of the slice that no needed element reads (``pred, loss, train = p, l, train_op`` run for
    ``loss`` alone would compute ``train_op``: its step)."""
    if not updating or not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1):
        return None
    assign = node.body[0]
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1):
        return None
    pairs = _element_pairs(assign.targets[0].target, assign.value)
    if pairs is None:
        return None
    needed_reads: Set[str] = set()
    for target, value in pairs:
        if set(target_keys(target)) & needed:
            needed_reads |= reads(value)
    for target, value in pairs:
        if set(target_keys(target)) & needed:
            continue
        for key in sorted(reads(value) - needed_reads):
            if key in updating:
                return key, updating[key]
    return None


def _element_pairs(target: cst.BaseExpression, value: cst.BaseExpression):
    """[(element target, element value)] of ``a, b = x, y`` (same length, no starred element), else None."""
    if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))
            and len(target.elements) == len(value.elements)) \
            or any(isinstance(e, cst.StarredElement) for e in list(target.elements) + list(value.elements)):
        return None
    return [(t.value, v.value) for t, v in zip(target.elements, value.elements)]


def _update_bound_to(node: cst.BaseStatement, keys: Set[str],
                     needed: Set[str]) -> Optional[Tuple[Optional[str], cst.Call]]:
    """(key, call) where the statement binds an update to one of ``keys`` (names the run does not need), in a way
    computing the whole statement runs it: in ``a, b = x, y`` the element bound to the key; in a line binding
    several names from one value, several updates; in a block (``if``, ``for``, ``try``: the slice takes it
    whole) a line binding only such keys (``up2 = tf.assign_add(v2, 1.0)``) or filling one
    (``ops.append(v.assign(...))``), or an update bound to no name (key None), which TF1 never ran."""
    lines = [node] if isinstance(node, cst.SimpleStatementLine) else inner_lines(node)
    for line in lines:
        for small in line.body:
            found = _binds_update(small, keys, needed)
            if found is not None:
                return found
    return None


def _binds_update(small: cst.BaseSmallStatement, keys: Set[str],
                  needed: Set[str]) -> Optional[Tuple[Optional[str], cst.Call]]:
    if isinstance(small, cst.Expr):
        calls = effect_calls(small.value)
        call = small.value
        receiver = symbol_key(call.func.value) \
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) else None
        if not calls or receiver in needed:
            return None  # (``ops.append(v.assign(...))`` fills what the run reads)
        return (receiver if receiver in keys else None), calls[0]
    if not isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)) or small.value is None:
        return None
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
    bound = [key for target in targets for key in target_keys(target)]
    unneeded = [key for key in bound if key in keys]
    calls = effect_calls(small.value)
    if not unneeded or not calls:
        return None
    if len(unneeded) == len(bound):  # (in a block: the line binds nothing the run needs)
        return unneeded[0], calls[0]
    pairs = _element_pairs(targets[0], small.value) if len(targets) == 1 else None
    if pairs is not None:
        for element_target, element_value in pairs:
            element_keys = [key for key in target_keys(element_target) if key in keys]
            element_calls = effect_calls(element_value)
            if element_keys and element_calls:
                return element_keys[0], element_calls[0]
        return None
    # (``x, y = q.dequeue()``: one dequeue, whichever is read; ``a, b = [v.assign(1) for v in vs]``: several)
    return (unneeded[0], calls[0]) if several_updates(small, calls) else None


