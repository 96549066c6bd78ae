"""Runs that need part of what one line builds, where the line builds several updates or effects.

TF1 ran only the ops a run fetched (and what they depend on)::

    ups = [tf.assign_add(v, 1.0) for v in vs]        sess.run(ups[0])    # updates the first variable alone
    a, b = tf.assign_add(v1, 1.0), tf.assign_add(v2, 1.0)   sess.run(a)   # updates v1 alone
    ops = {"a": v1.assign_add(1.0), "b": v2.assign_add(1.0)}   sess.run(ops["a"])

The same holds for ops that act outside the graph at each run: ``fs = [tf.py_func(f0, ...), tf.py_func(f1, ...)]``
then ``sess.run(fs[1])`` called ``f1`` alone. A run's generated function computes whole lines (the slice is over
bindings, see :mod:`slicing`): it would make every update of the line, and call every function, each time it runs.
Such a run keeps the file compat, with the reason at the run.

An update or effect is found by the name of the called method or function (``assign*``, ``scatter_*``,
``minimize``, ``apply_gradients``, a queue's ``enqueue`` / ``dequeue``, ``py_func``, ``Print``...): a user helper
of such a name counts too, which only keeps a file compat where it would not need to be. Those made inside a
function the line calls are not seen here.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.flatten import makes_ops
from tf_migrate.analysis.symbols import all_calls, reads, symbol_key, target_keys, writes
from tf_migrate.cst.text import code
from tf_migrate.traversal import visit

UPDATE_METHODS = api.VARIABLE_WRITE_METHODS | {"minimize", "apply_gradients"} | api.QUEUE_OP_METHODS \
    | {"dequeue", "dequeue_many", "dequeue_up_to"}  # (a queue's state changes too)
UPDATE_FUNCTION_PREFIXES = ("assign", "scatter_")  # tf.assign, tf.assign_add, tf.scatter_update ...
# The ops of api.PER_RUN_EFFECT_OPS that act outside the graph (a clock read does not), by their last name.
EFFECT_NAMES = {"py_func", "numpy_function", "py_function", "Print", "write_file"}

_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def update_calls(node: cst.CSTNode) -> List[cst.Call]:
    """The calls in ``node`` that build an op updating a variable (an assignment, an optimizer step) or a queue."""
    found = []
    for call in all_calls(node):
        func = call.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) \
            else ""
        if name in UPDATE_METHODS or name.startswith(UPDATE_FUNCTION_PREFIXES):
            found.append(call)
    return found


def effect_calls(node: cst.CSTNode) -> List[cst.Call]:
    """:func:`update_calls`, and the calls building an op that acts outside the graph at each run (``tf.py_func``,
    ``tf.Print``, ``tf.print``)."""
    found = update_calls(node)
    for call in all_calls(node):
        func = call.func
        if isinstance(func, cst.Attribute) and (func.attr.value in EFFECT_NAMES or func.attr.value == "print") \
                or isinstance(func, cst.Name) and func.value in EFFECT_NAMES:
            found.append(call)
    return found


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
        held = None if updates else _held_update(st, chosen, fetch, hits_of, updating)
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
        part = _read_in_part(st, chosen, fetch, hits_of)
        if part and _several(st.node, updates):
            return [f"the run reads part of `{part}`, which holds several ops that change state or act at each "
                    f"run (`{code(updates[0].func)}`): TF1 ran the ones it fetched, the run's function would "
                    "compute the whole line and run them all"]
    return []


def _held_update(st: "pm.Statement", chosen: List["pm.Statement"], fetch: cst.BaseExpression,
                 hits_of: Dict[int, Set[str]], updating: Dict[str, cst.Call]) -> Optional[Tuple[str, str, cst.Call]]:
    """(collection, key, call) where ``st`` binds a list, tuple or dict literal of which the run reads items only
    (``fetches[0]``, ``ops["loss"]``), and an item it does not read is an update or effect of the slice that the
    items it reads do not need (``fetches = [loss, train_op]`` then ``sess.run(fetches[0])``)."""
    if not updating or not (isinstance(st.node, cst.SimpleStatementLine) and len(st.node.body) == 1):
        return None
    assign = st.node.body[0]
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1
            and isinstance(assign.value, (cst.List, cst.Tuple, cst.Dict))):
        return None
    whole = symbol_key(assign.targets[0].target)
    items = _literal_items(assign.value)
    if whole is None or items is None or _read_in_part(st, chosen, fetch, hits_of) != whole:
        return None
    read = _items_read([fetch] + [other.node for other in chosen if other.index > st.index], whole)
    kept: Set[str] = set()
    for index, value in items:
        if read is not None and index in read:
            kept |= reads(value)
    for index, value in items:
        if read is not None and index in read:
            continue
        for key in sorted(reads(value) - kept):
            if key in updating:
                return whole, key, updating[key]
    return None


def _literal_items(value: cst.BaseExpression) -> Optional[List[Tuple[object, cst.BaseExpression]]]:
    """(index or dict key, value) of each item of a list, tuple or dict literal; None if one is starred or a key
    is not a literal."""
    if isinstance(value, cst.Dict):
        found = []
        for element in value.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, (cst.SimpleString, cst.Integer)):
                return None
            found.append((element.key.evaluated_value, element.value))
        return found
    if not isinstance(value, (cst.List, cst.Tuple)) or any(isinstance(e, cst.StarredElement) for e in value.elements):
        return None
    return [(index, element.value) for index, element in enumerate(value.elements)]


def _items_read(nodes: List[cst.CSTNode], whole: str) -> Optional[Set[object]]:
    """The literal indices or keys of ``whole`` that ``nodes`` read (``whole[0]``, ``whole["a"]``); None if a read
    is of another kind (a computed index, a slice, a field, unpacking)."""
    found: Set[object] = set()
    unknown: List[cst.CSTNode] = []

    class _Items(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> Optional[bool]:
            if symbol_key(sub.value) != whole:
                return None
            index = sub.slice[0].slice if len(sub.slice) == 1 else None
            value = index.value if isinstance(index, cst.Index) else None
            if isinstance(value, (cst.SimpleString, cst.Integer)):
                found.add(value.evaluated_value)
            else:
                unknown.append(sub)
            return False

        def visit_Attribute(self, attribute: cst.Attribute) -> Optional[bool]:
            if symbol_key(attribute.value) == whole:
                unknown.append(attribute)
                return False
            return None

        def visit_Name(self, name: cst.Name) -> None:
            if name.value == whole:
                unknown.append(name)  # (read whole, or unpacked: every item)

    for node in nodes:
        if whole in reads(node):
            visit(node, _Items())
    return None if unknown else found


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


def _several(node: cst.CSTNode, updates: List[cst.Call]) -> bool:
    """Whether ``node`` builds more than one update op (two calls, or one in a comprehension or loop)."""
    if len(updates) > 1:
        return True
    inside = set()

    class _Repeated(cst.CSTVisitor):
        def on_visit(self, visited: cst.CSTNode) -> bool:
            if isinstance(visited, _COMPREHENSIONS + (cst.For, cst.While)):
                inside.update(id(call) for call in all_calls(visited))
                return False
            return True

    visit(node, _Repeated())
    return any(id(call) in inside for call in updates)


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
    return (unneeded[0], calls[0]) if _several(small, calls) else None


def inner_lines(node: cst.CSTNode) -> List[cst.SimpleStatementLine]:
    """The simple lines inside a block, not those of functions, classes or lambdas defined there."""
    found: List[cst.SimpleStatementLine] = []

    class _Lines(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, line: cst.SimpleStatementLine) -> bool:
            found.append(line)
            return False

        def visit_FunctionDef(self, definition: cst.FunctionDef) -> bool:
            return False

        visit_ClassDef = visit_Lambda = visit_FunctionDef

    visit(node, _Lines())
    return found


def _read_in_part(st: "pm.Statement", chosen: List["pm.Statement"], fetch: cst.BaseExpression,
                  hits_of: Dict[int, Set[str]]) -> str:
    """The key of what ``st`` binds that the run's fetch and the lines of its slice read only in part: each read
    takes an item or a field of it (``ups[0]``, ``ops["a"]``, ``ups[:2]``, ``ops.a``) or unpacks it into names
    the run does not all need (``first, second = ups``). Empty: none."""
    for key in st.defines:
        readers: List[cst.CSTNode] = [fetch] if key in reads(fetch) else []
        unpacked = False
        for other in chosen:
            if other.index <= st.index or key not in other.reads:
                continue
            if _unpacks(other.node, key) and set(other.defines) - hits_of.get(other.index, set()):
                unpacked = True
            else:
                readers.append(other.node)
        if (readers or unpacked) and all(_only_items_read(reader, {key}) for reader in readers):
            return key
    return ""


def _unpacks(node: cst.BaseStatement, key: str) -> bool:
    """Whether the line is ``a, b = key``."""
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Assign)
            and len(node.body[0].targets) == 1):
        return False
    assign = node.body[0]
    return isinstance(assign.targets[0].target, (cst.Tuple, cst.List)) and symbol_key(assign.value) == key


def _only_items_read(node: cst.CSTNode, keys: Set[str]) -> bool:
    whole: List[str] = []
    items: List[str] = []

    class _Uses(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> bool:
            if symbol_key(sub.value) in keys:
                items.append(symbol_key(sub.value))
                for element in sub.slice:
                    visit(element, self)
                return False
            return True

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            if symbol_key(attribute) in keys:
                whole.append(symbol_key(attribute))
            elif symbol_key(attribute.value) in keys:
                items.append(symbol_key(attribute.value))  # a field of a namedtuple of updates (``ops.a``)
            else:
                visit(attribute.value, self)
            return False

        def visit_Name(self, name: cst.Name) -> None:
            if name.value in keys:
                whole.append(name.value)

    visit(node, _Uses())
    return bool(items) and not whole
