"""A loop that makes variables and computes on them -> a loop that makes them, and a loop that computes.

    Y_pred = tf.Variable(tf.random_normal([1]))             Y_pred = tf.Variable(tf.random_normal([1]))
    for pow_i in range(1, 5):                               Ws = []
        W = tf.Variable(tf.random_normal([1]))       ->     for pow_i in range(1, 5):
        Y_pred = tf.add(tf.pow(X, pow_i) * W, Y_pred)           W = tf.Variable(tf.random_normal([1]))
                                                                Ws.append(W)
                                                            for pow_i, W_i in zip(range(1, 5), Ws):
                                                                Y_pred = tf.add(tf.pow(X, pow_i) * W_i, Y_pred)

A line may also build an instance of one of the module's ``tf.Module`` classes (``layer = AddLayer(n_in, n_out)``,
what ``helper-modules`` makes of a helper called in the loop): the first loop builds them, kept in a list, and the
second calls them. The second loop iterates over the lists alone where its lines do not read the loop's target
(``for layer_i in layers:``, ``for W_i, b_i in zip(Ws, bs):``).

TF1 ran such a loop once, at build time: each iteration made its variables and
built ops that every run recomputed. The first loop makes the variables, once,
in TF1's order, and keeps each iteration's in a list; the second is graph code
like any other, which the session rule moves into the run functions (it reads
each iteration's variables from the lists). The result means the same under
TF1, so the rule can run before the analysis that decides the file's mode.

Only where the split is the same program: a ``for`` loop over an expression
that the loop does not change (names it does not bind, calls of ``range``,
``enumerate``, ``zip`` and the like), a body of one-statement lines with no
``break`` or ``continue``, variables made by plain ``name = tf.Variable(...)``
lines that read nothing the computing lines bind, computing lines that bind
none of the names the variable lines read or bind, and no random op among the
computing lines (TF1 numbered random ops in the order it built them).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.modules import CELL, CELL_LIST, module_members, variable_makers
from tf_migrate.analysis.symbols import all_calls, reads, symbol_key, target_keys, value_reads, writes
from tf_migrate.codegen.replace import rename_keys
from tf_migrate.cst.names import all_names, attribute_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._loop_shapes import (after_loop_shape_lines, carried_shape, declared_shape, is_static_read,
                                            keras_shape_lines, static_shape_reads, value_reads_besides_shapes)
from tf_migrate.rules._program_scopes import graph_and_class_scopes
from tf_migrate.traversal import visit

RULE_ID = "split-build-loops"
# Calls an iterable may make and still give the same items when evaluated again.
_PURE_ITERATION = {"range", "enumerate", "zip", "reversed", "len", "list", "tuple", "sorted", "min", "max"}
# Calls a Python line of the loop may make and still be copied into both loops.
_PURE_PYTHON = _PURE_ITERATION | {"int", "float", "str", "abs", "round"}


class SplitBuildLoops(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("a loop that makes variables and computes on them -> a loop that makes them (kept in lists) "
                   "and a loop that computes (graph code)")
    ORDER = 440  # after the TF1 idioms are rewritten, before rebound-names and the session rule
    TRIGGERS = ("for ",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        taken = all_names(module)
        modules = module_classes(module, ctx)
        splits: Dict[int, List[cst.BaseStatement]] = {}
        before: Dict[int, List[str]] = {}  # statement id -> lines building the layers it calls first (after a loop)
        for scope, cls in graph_and_class_scopes(module, ctx):
            if not scope.is_graph_program and cls is None:
                continue
            for st in scope.statements:
                made = _instances_made(st.node, modules, ctx) if isinstance(st.node, cst.For) else None
                split = None
                if isinstance(st.node, cst.For) and (st.role == pm.KEEP or made):
                    initial = lambda key, at=st.index: declared_shape(scope, key, at, ctx.names, ctx.tf)  # noqa: E731
                    split = _split(st.node, ctx, taken, initial, modules)
                    if split is not None:
                        split, carried = split
                        splits[id(st.node)] = split
                        if carried and cls is None:
                            later = [s.node for s in scope.statements if s.index > st.index]
                            before.update(after_loop_shape_lines(later, carried, ctx.names, taken))
                        ctx.report(st.node, RULE_ID, INFO, "loop split: its variables are made once by a first "
                                                           "loop, the graph code it built runs in a second")
                if made and split is None:  # made per iteration (helper-modules, layers-to-keras), as TF1 made them
                    ctx.block(st.node, f"`{made}` instances are made in a loop that also computes, and the loop does "
                                       "not split into one making them and one computing (each line one statement, "
                                       "no break, no random op among the computing lines, no name both bind)")
        if not splits:
            return module
        return visit(module, _Replace(splits, before))


class _Replace(cst.CSTTransformer):
    def __init__(self, splits: Dict[int, List[cst.BaseStatement]], before: Dict[int, List[str]]) -> None:
        self.splits, self.before = splits, before

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if id(original) not in self.before:
            return updated
        lines = [_line(text) for text in self.before[id(original)]]
        lines[0] = lines[0].with_changes(leading_lines=updated.leading_lines)
        return cst.FlattenSentinel([*lines, updated.with_changes(leading_lines=[])])

    def leave_For(self, original: cst.For, updated: cst.For):
        if id(original) not in self.splits:
            return updated
        return cst.FlattenSentinel(self.splits[id(original)])


def _split(loop: cst.For, ctx: RuleContext, taken: Set[str], initial_shape, modules: Set[str]
           ) -> Optional[Tuple[List[cst.BaseStatement], Dict[str, str]]]:
    """The statements replacing ``loop``, and the names whose shapes the making loop carries for Keras layers (name
    -> shape variable); None: it is not a loop this rule splits."""
    if loop.orelse is not None or loop.asynchronous is not None or not isinstance(loop.body, cst.IndentedBlock):
        return None
    scoped = _name_scoped(loop.body.body, ctx)  # `with tf.name_scope(...):` around the whole body
    if scoped is not None:
        loop = loop.with_changes(body=scoped.body)
    lines = list(loop.body.body)
    if not lines or not all(isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 for line in lines):
        return None
    if any(isinstance(line.body[0], (cst.Break, cst.Continue, cst.Return)) for line in lines):
        return None
    bound_in_loop = {key for line in lines for key in writes(line)} | _appended(lines, ctx)
    if not _stable_iterable(loop.iter, bound_in_loop):
        return None
    makers = [i for i, line in enumerate(lines) if _makes_variable(line, ctx, modules)]
    if not makers:
        return None
    build = _build_lines(lines, makers, ctx)
    if build is None:
        return None
    computing = [i for i in range(len(lines)) if i not in build]
    computing_bound_names = {key for i in computing for key in writes(lines[i])}
    tracked = sorted({key for i in build for key in static_shape_reads(lines[i])} & computing_bound_names)
    if any(key in writes(lines[j]) for i in build for key in static_shape_reads(lines[i]) if key in tracked
           for j in computing if j < i):
        return None  # a shape read after this iteration computed the value: the carried shape is the one before
    made = {lines[i].body[0].targets[0].target.value: lines[i].body[0].value for i in makers}
    carried = {key: carried_shape(key, [lines[i] for i in computing], made, ctx.names) for key in tracked}
    if any(last is None or reads(cst.parse_expression(last or "0")) & computing_bound_names
           for last in carried.values()):
        return None  # a shape the algebra does not know, or one only the computing lines could give
    if not any(_calls_tf(lines[i], ctx) or _calls_made(lines[i], made) for i in computing):
        return None  # nothing per run: the loop is build code as it stands
    if any(api.is_random_op(q) or q in api.PER_RUN_EFFECT_OPS
           for q in (ctx.names.call_name(call) for i in computing for call in all_calls(lines[i]))):
        return None
    keras = {key: (ctx.names.call_name(value) or "").rsplit(".", 1)[-1] for key, value in made.items()
             if _is_keras_layer(value, ctx)}
    in_place, keras_carried = {}, {}  # the Keras layers' build lines, by the computing line they stand for
    if keras:
        if tracked:
            return None  # (shapes carried by the tf.Variable algebra and by Keras at once: not both)
        shaped = keras_shape_lines({i: lines[i] for i in computing}, keras, ctx.names, taken)
        if shaped is None:
            return None
        in_place, keras_carried = shaped
    build_bound = {key for i in build for key in writes(lines[i])}
    computing_bound = computing_bound_names | _appended([lines[i] for i in computing], ctx)
    computing_reads = {key for i in computing for key in value_reads(lines[i])}
    if build_bound & computing_bound or _appended([lines[i] for i in build], ctx) & computing_reads:
        return None  # a name both loops bind, or a list the first fills and the second reads as it grows
    copied = [i for i in build if not _makes_variable(lines[i], ctx, modules) and _is_assignment(lines[i])
              and set(writes(lines[i])) & computing_reads]
    variables = [key for i in makers for key in writes(lines[i])]
    needed = [key for key in dict.fromkeys(variables)
              if any(key in value_reads(lines[j]) for j in computing)]
    if not needed:
        return None
    lists = {key: fresh(f"{key}s", taken) for key in needed}
    items = {key: fresh(f"{key}_i", taken) for key in needed}
    shapes = {key: fresh(f"{key}_shape", taken) for key in tracked}
    taken |= set(lists.values()) | set(items.values()) | set(shapes.values())
    build_lines = [_shapes_read(lines[i], shapes) if i in build else _line(text)
                   for i in range(len(lines)) if i in build or i in in_place
                   for text in ([None] if i in build else in_place[i])]
    build_lines += [_line(f"{lists[key]}.append({key})") for key in needed]
    build_lines += [_line(f"{shapes[key]} = {shapes[key]}[:-1].concatenate([{last}])")
                    for key, last in carried.items() if last]
    if scoped is not None:  # the variables keep their TF1 names; the ops' names are not read (see _name_scoped)
        build_lines = [scoped.with_changes(body=scoped.body.with_changes(body=build_lines))]
    build_loop = loop.with_changes(body=loop.body.with_changes(body=build_lines))
    forward_lines = [rename_keys(lines[i], items) for i in sorted(set(computing) | set(copied))]
    target = code(loop.target)
    if isinstance(loop.target, cst.Tuple) and not loop.target.lpar:
        target = f"({target})"
    if set(target_keys(loop.target)) & {key for line in forward_lines for key in value_reads(line)}:
        header = (f"for {target}, {', '.join(items[k] for k in needed)} in "
                  f"zip({code(loop.iter)}, {', '.join(lists[k] for k in needed)}):\n    pass\n")
    elif len(needed) == 1:  # the second loop reads the first's lists only
        header = f"for {items[needed[0]]} in {lists[needed[0]]}:\n    pass\n"
    else:
        header = (f"for {', '.join(items[k] for k in needed)} in zip({', '.join(lists[k] for k in needed)}):"
                  "\n    pass\n")
    forward_loop = cst.parse_statement(header)
    forward_loop = forward_loop.with_changes(body=forward_loop.body.with_changes(body=forward_lines))
    starts = [_line(f"{lists[key]} = []") for key in needed]
    starts += [_line(f"{shapes[key]} = {initial_shape(key)}  # carried through the loop that makes the variables")
               for key in tracked]
    starts += [_line(f"{shape} = {initial_shape(key)}  # carried through the loop that makes the layers")
               for key, shape in keras_carried.items()]
    starts[0] = starts[0].with_changes(leading_lines=loop.leading_lines)
    return [*starts, build_loop.with_changes(leading_lines=[]), forward_loop], keras_carried


def _name_scoped(body: Sequence[cst.BaseStatement], ctx: RuleContext) -> Optional[cst.With]:
    """The loop's body when it is one ``with tf.name_scope(name):`` block of lines that read no op's or tensor's
    name (``.name``, a summary): the first loop makes the variables under it, as TF1 named them; the second
    computes outside it (op names no code reads)."""
    if len(body) != 1 or not isinstance(body[0], cst.With) or not isinstance(body[0].body, cst.IndentedBlock):
        return None
    block = body[0]
    if not all(item.asname is None and isinstance(item.item, cst.Call)
               and ctx.names.call_name(item.item) in ("tf.name_scope", "tf.compat.v1.name_scope")
               and not reads(item.item) & set(writes(block.body)) for item in block.items):
        return None
    if "name" in attribute_names(block.body, strings=False) or any(
            (ctx.names.call_name(call) or "").startswith("tf.summary.") for call in all_calls(block.body)):
        return None
    return block


def _build_lines(lines: Sequence[cst.SimpleStatementLine], makers: List[int], ctx: RuleContext) -> Optional[Set[int]]:
    """The lines the first loop keeps: the variable makers, appends of what they made, and Python lines they
    need; None where a maker reads what a computing line binds."""
    build = set(makers)
    for i, line in enumerate(lines):
        if i not in build and (_appends_only(line) or (_is_assignment(line) and _pure_python(line, ctx))):
            build.add(i)
    while True:
        computing_bound = {key for i, line in enumerate(lines) if i not in build for key in writes(line)}
        moved = {i for i in build if value_reads_besides_shapes(lines[i]) & computing_bound}
        if not moved:
            return build
        if moved & set(makers):
            return None
        build -= moved


def _makes_variable(line: cst.SimpleStatementLine, ctx: RuleContext, modules: Set[str]) -> bool:
    """``W = tf.Variable(...)``, or ``layer = AddLayer(...)`` of a ``tf.Module`` class of the module (helper-modules
    built one per call of a helper in the loop: its variables are made in ``__init__``)."""
    small = line.body[0]
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name) and isinstance(small.value, cst.Call)):
        return False
    func = small.value.func
    return ctx.names.call_name(small.value) in api.VARIABLE_CONSTRUCTORS or _is_keras_layer(small.value, ctx) or (
        isinstance(func, cst.Name) and func.value in modules)


def _is_keras_layer(call: cst.Call, ctx: RuleContext) -> bool:
    """``tf.keras.layers.Dense(...)`` and the like (layers-to-keras builds a ``tf.layers`` call's layer so in
    a loop)."""
    return (ctx.names.call_name(call) or "").startswith("tf.keras.layers.")


def module_classes(module: cst.Module, ctx: RuleContext) -> Set[str]:
    """The module's ``tf.Module`` classes whose variables exist once an instance is built (analysis/modules knows
    them: made in ``__init__``, not at a first call by a ``build`` method or a Keras layer)."""
    makers = variable_makers(module, ctx.names)
    found = set()
    for statement in module.body:
        if not (isinstance(statement, cst.ClassDef)
                and any(ctx.names.qualname(base.value) == "tf.Module" for base in statement.bases)):
            continue
        members = module_members(statement, ctx.names, makers)
        lazy = any(isinstance(m, cst.FunctionDef) and m.name.value == "build" for m in statement.body.body)
        if members and not lazy and all(loop not in (CELL, CELL_LIST) for _, _, loop in members):
            found.add(statement.name.value)
    return found


def _instances_made(loop: cst.For, modules: Set[str], ctx: RuleContext) -> Optional[str]:
    """The tf.Module class of the module, or the Keras layer class, whose instance a line of the loop's body makes,
    if one does."""
    for line in loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ():
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) else None
        value = small.value if isinstance(small, cst.Assign) else None
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in modules:
            return value.func.value
        if isinstance(value, cst.Call) and _is_keras_layer(value, ctx):
            return ctx.names.call_name(value)
    return None


def _calls_made(line: cst.SimpleStatementLine, made: Dict[str, cst.BaseExpression]) -> bool:
    """Whether the line calls what a maker line made (an instance of a tf.Module class)."""
    return any(isinstance(call.func, cst.Name) and call.func.value in made for call in all_calls(line))


def _is_assignment(line: cst.SimpleStatementLine) -> bool:
    small = line.body[0]
    return isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) for t in small.targets)


def _pure_python(line: cst.SimpleStatementLine, ctx: RuleContext) -> bool:
    """Builtins of :data:`_PURE_PYTHON`, static shape reads (``h.get_shape()``) and ``.as_list()`` only."""
    return all((isinstance(call.func, cst.Name) and call.func.value in _PURE_PYTHON
                and ctx.names.call_name(call) is None)
               or is_static_read(call) or (isinstance(call.func, cst.Attribute) and not call.args
                                           and call.func.attr.value == "as_list"
                                           and isinstance(call.func.value, cst.Call) and is_static_read(call.func.value))
               for call in all_calls(line))


def _shapes_read(line: cst.SimpleStatementLine, shapes: Dict[str, str]) -> cst.SimpleStatementLine:
    """``line`` reading the carried shapes: ``h.get_shape()`` and ``h.shape`` become ``h_shape``."""
    if not shapes:
        return line

    class _Swap(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            func = original.func
            if isinstance(func, cst.Attribute) and func.attr.value == "get_shape" and not original.args \
                    and isinstance(func.value, cst.Name) and func.value.value in shapes:
                return cst.Name(shapes[func.value.value])
            return updated

        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
            if original.attr.value == "shape" and isinstance(original.value, cst.Name) \
                    and original.value.value in shapes:
                return cst.Name(shapes[original.value.value])
            return updated

    return line.visit(_Swap())


def _appends_only(line: cst.SimpleStatementLine) -> bool:
    """``items.append(name)``."""
    small = line.body[0]
    value = small.value if isinstance(small, cst.Expr) else None
    return (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "append" and symbol_key(value.func.value) is not None
            and len(value.args) == 1 and isinstance(value.args[0].value, cst.Name))


def _appended(lines, ctx: RuleContext) -> Set[str]:
    """The lists the lines append to (or change in place by a method call; not calls of modules' functions)."""
    found = set()
    for line in lines:
        for call in all_calls(line):
            if isinstance(call.func, cst.Attribute) and symbol_key(call.func.value) is not None \
                    and ctx.names.call_name(call) is None and symbol_key(call.func.value) not in ctx.names.aliases \
                    and not is_static_read(call):
                found.add(symbol_key(call.func.value).split(".")[0])
    return found


def _calls_tf(line: cst.SimpleStatementLine, ctx: RuleContext) -> bool:
    return any((ctx.names.call_name(call) or "").startswith("tf.") for call in all_calls(line))


def _stable_iterable(iterable: cst.BaseExpression, bound_in_loop: Set[str]) -> bool:
    """Whether evaluating ``iterable`` again after the loop gives the same items."""
    if reads(iterable) & bound_in_loop:
        return False
    return all(isinstance(call.func, cst.Name) and call.func.value in _PURE_ITERATION for call in all_calls(iterable))


def _line(text: str) -> cst.SimpleStatementLine:
    return cst.parse_statement(text + "\n")
