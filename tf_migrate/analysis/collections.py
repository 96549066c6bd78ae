"""TF1 variable collections -> the explicit list of variables they held.

``tf.trainable_variables(scope="actor")`` and
``tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=...)`` become
``[self.w, self.b]``: the variables the program created before that point, in
creation order (optimizer slots and printed outputs depend on it), filtered
as TF1 filters (``re.match`` of the scope on the variable's scoped name).
``UPDATE_OPS`` is empty: eager code has no deferred update ops to collect. Collections of the
program's own keys (``get_variable(..., collections=c_names)``) are listed by
:mod:`tf_migrate.analysis.user_collections`.

Regularization losses (``tf.losses.get_regularization_loss()``,
``get_regularization_losses()``, ``get_collection(REGULARIZATION_LOSSES)``)
become the Keras layers' ``losses``, which compute each regularizer on the
current weights when read, as TF1's graph did at each run; the total is their
``tf.add_n`` (``0.0`` when there are none). An eager program has no collections:
left as they were, these calls would read nothing and drop the term silently.
"""
from __future__ import annotations

import re
from typing import List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.covered_variables import appended_value, grows_in_place
from tf_migrate.analysis.modules import KERAS_LAYER, keras_variables, member_list
from tf_migrate.analysis.optimizer_slots import slot_step, zip_stops_before_slots
from tf_migrate.analysis.scoped_objects import scoped_objects_list
from tf_migrate.analysis.statement_facts import reads_names, string_literals
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.analysis.user_collections import left_out_of_global, resolve_user_collection
from tf_migrate.cst.text import code
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames, dotted_name

_TRAINABLE_KEYS = {"tf.GraphKeys.TRAINABLE_VARIABLES"}
_GLOBAL_KEYS = {"tf.GraphKeys.GLOBAL_VARIABLES", "tf.GraphKeys.VARIABLES"}
_EMPTY_KEYS = {"tf.GraphKeys.UPDATE_OPS"}
_STRING_KEYS = {"trainable_variables": "trainable", "variables": "all", "update_ops": "empty",
                "regularization_losses": "regularization"}
_REGULARIZATION_KEYS = {"tf.GraphKeys.REGULARIZATION_LOSSES"}
REGULARIZATION_READS = {"tf.losses.get_regularization_loss", "tf.losses.get_regularization_losses"}
_LAYER_REGULARIZERS = ("kernel_regularizer", "bias_regularizer", "depthwise_regularizer", "pointwise_regularizer",
                       "beta_regularizer", "gamma_regularizer")


def reads_regularization(call: cst.Call, qualname: str, names: TFNames) -> bool:
    """Whether ``call`` reads TF1's regularization losses."""
    if qualname in REGULARIZATION_READS:
        return True
    key = argument(call, "key", 0) if qualname == "tf.get_collection" else None
    return key is not None and (names.qualname(key) in _REGULARIZATION_KEYS or (
        isinstance(key, cst.SimpleString) and key.evaluated_value == "regularization_losses"))


def resolve_regularization(call: cst.Call, qualname: str, scope: "pm.Scope", tf: str,
                           before: int) -> Tuple[Optional[str], str, List[str]]:
    """(code of the losses or their total, "", the layers it reads) or (None, why not, [])."""
    filter_arg = argument(call, "scope", 1 if qualname == "tf.get_collection" else 0)
    if filter_arg is not None and not isinstance(filter_arg, cst.SimpleString):
        return None, "regularization losses filtered by a computed scope", []
    pattern = filter_arg.evaluated_value if filter_arg is not None else None
    layers = []
    for key in scope.trainable_order:
        symbol = scope.kept_symbol_at(key, before)
        if symbol is None or symbol.kind not in (pm.LAYER, pm.VARIABLE) or symbol.call is None \
                or not scope.same_graph(symbol.index, before):
            continue
        given = {a.keyword.value for a in symbol.call.args if a.keyword is not None}
        if "activity_regularizer" in given:
            return None, f"`{key}` has an activity regularizer, whose loss TF1 collected at each call", []
        if symbol.kind == pm.VARIABLE or not given & set(_LAYER_REGULARIZERS):
            continue
        if pattern is None or re.match(pattern, symbol.tf_name):
            if not symbol.built:
                return None, f"the regularization losses of `{key}`, a layer whose variables do not exist yet", []
            layers.append(key)
    losses = ", ".join(f"*{key}.losses" for key in dict.fromkeys(layers))
    if qualname == "tf.losses.get_regularization_loss":
        return (f"{tf}.add_n([{losses}])" if layers else f"{tf}.constant(0.0)"), "", layers
    return f"[{losses}]", "", layers


def resolve(call: cst.Call, qualname: str, scope: "pm.Scope", names: TFNames,
            before: int, statements: Sequence[cst.CSTNode] = ()) -> Tuple[Optional[str], str]:
    """(list source code, "") or (None, why not). ``statements``: the scope's, to follow the list's uses where TF1's
    also held optimizer slots (:func:`tf_migrate.analysis.optimizer_slots.zip_stops_before_slots`)."""
    if qualname == "tf.get_collection":
        key = argument(call, "key", 0)
        which = None
        if key is not None:
            key_name = names.qualname(key)
            if key_name in _TRAINABLE_KEYS:
                which = "trainable"
            elif key_name in _GLOBAL_KEYS:
                which = "all"
            elif key_name in _EMPTY_KEYS:
                which = "empty"
            elif isinstance(key, cst.SimpleString):
                which = _STRING_KEYS.get(key.evaluated_value)
                if which is None and argument(call, "scope", 1) is None:
                    return resolve_user_collection(key.evaluated_value, scope, names, before)
        if which is None or which == "regularization":
            return None, "tf.get_collection of a collection other than variables or UPDATE_OPS"
        filter_arg = argument(call, "scope", 1)
    else:
        which = "trainable" if qualname == "tf.trainable_variables" else "all"
        filter_arg = argument(call, "scope", 0)
    if which == "empty":
        return "[]", ""
    pattern = None
    if filter_arg is not None and isinstance(filter_arg, cst.SimpleString):
        pattern = filter_arg.evaluated_value
    maker = _unlisted_class(scope, names, before)
    if maker is not None:
        makers = scope.variable_classes | scope.variable_functions | tree_variable_classes(names)
        own = _listed(scope, before, which, pattern) if pattern is not None else (None, "")
        objects = scoped_objects_list(scope, names, before, which, pattern, own, makers)
        return objects if objects is not None else (None, (
            f"`{maker}` is built or called before this read: TF1's list also holds the variables it made, which the "
            "analysis does not list here"))
    if filter_arg is not None and pattern is None:
        return None, "a variable collection filtered by a computed scope"
    outside = left_out_of_global(scope, names, before) if which == "all" else None
    if outside is not None:
        return None, outside
    step = slot_step(scope, names, before, pattern) if which == "all" else None
    listed, why = _listed(scope, before, which, pattern)
    if step is None or listed is None:
        return (listed, why) if step is None else (None, step[1])
    if statements and zip_stops_before_slots(scope, names, before, statements, listed, step[0], lambda c, at: resolve(
            c, names.call_name(c) or "", scope, names, at)[0]):
        return listed, ""
    return None, step[1]


def _listed(scope: "pm.Scope", before: int, which: str, pattern: Optional[str]) -> Tuple[Optional[str], str]:
    """The variables made before statement ``before`` that TF1's collection ``which`` ("trainable" or "all")
    filtered by ``pattern`` listed, by the names that hold them: (list source code, "") or (None, why not)."""
    if scope.is_class and pattern is None:
        return None, "an unfiltered variable collection inside a class also holds other objects' variables"
    parts = []
    for key in scope.creation_order:  # TF1 lists a collection in creation order, trainable or not
        symbol = scope.kept_symbol_at(key, before)
        if symbol is None or symbol.covered_by:  # (appended to a list named here too: analysis/covered_variables)
            continue
        if not scope.same_graph(symbol.index, before):  # another graph's (tf.reset_default_graph() between)
            continue
        shadowed = [s for s in scope.bindings.get(key, ()) if s.index < before and s is not symbol
                    and s.kind in (pm.VARIABLE, pm.VARIABLES, pm.LAYER) and not _grown(scope, key, s, symbol)
                    and scope.same_graph(s.index, before)]
        # The collection also held the variable `key` named first, which no name reaches now.
        if any(s.kind != pm.VARIABLE or ((s.trainable or which != "trainable")
                                         and (pattern is None or re.match(pattern, s.tf_name))) for s in shadowed):
            return None, (f"`{key}` is bound to another variable after the one it named first, which TF1's "
                          "collection also holds and no name reaches here")
        if symbol.kind == pm.VARIABLE:
            if not symbol.trainable and which == "trainable":
                continue
            if pattern is not None and not re.match(pattern, symbol.tf_name):
                continue
            parts.append(key)
        elif symbol.kind == pm.LAYER and symbol.members:
            if pattern is not None:
                return None, f"the variables of `{key}` (a tf.Module) have no scoped names to filter on"
            parts.extend(member_list(key, symbol, trainable_only=which == "trainable"))
        elif symbol.kind == pm.LAYER and not symbol.weightless:
            if pattern is not None and not re.match(pattern, symbol.tf_name):
                continue
            parts.append(f"*{key}.{'trainable_variables' if which == 'trainable' else 'variables'}")
        elif symbol.kind == pm.VARIABLES:
            if pattern is not None:
                return None, f"variables in `{key}` have no scoped names to filter on"
            lists = _loop_lists(scope, symbol, before)
            if len(lists) > 1:
                together = _interleaved(scope, symbol, lists, which == "trainable")
                if together is None:
                    return None, (f"`{key}` is one of the lists a loop keeps its variables in: TF1 listed them "
                                  "by iteration, across the lists")
                parts.append(together)  # (once: the loop's other lists give the same part, which dict.fromkeys drops)
                continue
            parts.append(container_part(key, symbol, trainable_only=which == "trainable"))
    return "[" + ", ".join(dict.fromkeys(parts)) + "]", ""


def _grown(scope: "pm.Scope", key: str, earlier: "pm.Symbol", later: "pm.Symbol") -> bool:
    """Whether the list ``key`` bound as ``later`` is the one bound as ``earlier``, grown in place since
    (``Ws.append(W)`` after the loop that filled ``Ws``): its variables are listed through it."""
    between = [s for s in scope.bindings.get(key, ()) if earlier.index < s.index <= later.index]
    return earlier.kind == later.kind == pm.VARIABLES and bool(between) and all(
        0 <= s.index < len(scope.statements) and (grows_in_place(scope.statements[s.index].node, key) or s.nested or s.filled)
        for s in between)


def container_part(key: str, symbol: "pm.Symbol", trainable_only: bool = True) -> str:
    """The variables a list or dict of them (``symbol``, bound to ``key``) holds, starred into a list: ``*key``, or
    ``*key.values()`` for a dict (its literal made them in the order it lists them); for a list of objects holding
    variables (analysis/held_objects), each object's, in creation order."""
    if symbol.nested:
        return f"*(v for inner in {key}.values() for v in inner.values())"
    if symbol.members == KERAS_LAYER:
        return f"*(v for layer in {key} for v in {keras_variables('layer', trainable_only)[1:]})"
    if symbol.members:
        each = [f"obj.{attr}" if loop == 0 else f'*([obj.{attr}] if hasattr(obj, "{attr}") else [])'
                for attr, trainable, loop in symbol.members if trainable or not trainable_only]
        return f"*(v for obj in {key} for v in ({', '.join(each)}{',' if len(each) == 1 else ''}))"
    return f"*{key}.values()" if symbol.mapping else f"*{key}"


def _loop_lists(scope: "pm.Scope", symbol: "pm.Symbol", before: int) -> List[str]:
    """The lists the loop that bound ``symbol`` keeps its variables in, in creation order (none: not a loop's)."""
    if not (0 <= symbol.index < len(scope.statements)) or \
            not isinstance(scope.statements[symbol.index].node, (cst.For, cst.While)):
        return []
    return [k for k in scope.creation_order if getattr(scope.kept_symbol_at(k, before), "index", None) == symbol.index
            and scope.kept_symbol_at(k, before).kind == pm.VARIABLES]


def _interleaved(scope: "pm.Scope", symbol: "pm.Symbol", lists: List[str], trainable_only: bool) -> Optional[str]:
    """The variables of a loop's lists of Keras layers or of variables, iteration by iteration, as TF1 made them
    (``*(v for layers in zip(convs, norms) for layer in layers for v in layer.trainable_variables)``): where each
    list is grown by one ``append`` line of the loop's body, at each iteration, in the order the lists are made in;
    None otherwise."""
    loop = scope.statements[symbol.index].node
    if not isinstance(loop, cst.For) or not isinstance(loop.body, cst.IndentedBlock):
        return None
    lines = [line.body[0] for line in loop.body.body if isinstance(line, cst.SimpleStatementLine)]
    appends = [small.value for small in lines if isinstance(small, cst.Expr) and appended_value(small.value) is not None]
    appended = [symbol_key(call.func.value) for call in appends]
    made_at = {symbol_key(t.target): i for i, small in enumerate(lines) if isinstance(small, cst.Assign)
               for t in small.targets}  # (the last line binding each name)
    order = [made_at.get(symbol_key(appended_value(call)), -1) for call in appends]
    kinds = {scope.symbols[k].members or None for k in lists}
    if sorted(appended) != sorted(lists) or len(set(appended)) != len(appended) or -1 in order \
            or order != sorted(order) or len(kinds) != 1 or not kinds <= {None, KERAS_LAYER}:
        return None  # (appended in another order than made: TF1's order is the making one)
    together = ", ".join(appended)
    if kinds == {KERAS_LAYER}:
        each = keras_variables("layer", trainable_only)[1:]
        return f"*(v for layers in zip({together}) for layer in layers for v in {each})"
    return f"*(v for made in zip({together}) for v in made)"


def name_filter_breaks(node: cst.CSTNode, code: str, scope: "pm.Scope") -> bool:
    """A ``.name`` filter over the variables ``code`` lists that eager code names otherwise: TF1's scoped
    names ("generator/w:0") are not kept (scopes are unwrapped; Keras names a layer's variables "kernel")."""
    if not reads_names(node):
        return False
    scoped = any(scope.symbols[k].tf_name.count("/") and not _named_in_full(scope.symbols[k])
                 for k in re.findall(r"[\w.]+", code) if k in scope.symbols)
    return scoped or any("/" in text for text in string_literals(node))


def _named_in_full(symbol: "pm.Symbol") -> bool:
    """A ``tf.Variable`` given its whole TF1 name (``name='siamese/w'``, as variable-store builds a scoped
    ``get_variable`` outside its scope; ``name='g_1/W'``, as tf1-variable-names names the variables of scope blocks
    with TF1's unique scope names): eager code names it so too."""
    name = argument(symbol.call, "name") if symbol.kind == pm.VARIABLE and symbol.call is not None else None
    given = name.evaluated_value if isinstance(name, cst.SimpleString) else None
    return isinstance(given, str) and (given == symbol.tf_name or (
        "/" in given and given.rsplit("/", 1)[1] == symbol.tf_name.rsplit("/", 1)[-1]))


def resolve_statement(st, calls, scope, names, block, statements: Sequence[cst.CSTNode] = ()) -> None:
    """The variable collections a statement reads become explicit lists (``scope.replacements``), or block.
    ``statements``: every statement of the scope (see :func:`resolve`)."""
    for call in calls:
        qualname = names.call_name(call)
        if qualname is not None and reads_regularization(call, qualname, names):
            code, why, layers = resolve_regularization(
                call, qualname, scope, names.tf_alias or "tf", st.index)
            if code is None:
                block(call, why)
            else:
                scope.replacements[id(call)] = cst.parse_expression(code)
                st.reads |= set(layers)  # computed from the layers' weights at each run, as TF1 did
        elif qualname in api.VARIABLE_COLLECTIONS:
            code, why = resolve(call, qualname, scope, names, st.index, statements)
            if code is not None and name_filter_breaks(st.node, code, scope):
                code, why = None, ("variables filtered by their TF1 names (`.name`): eager variables are "
                                   "named by Keras layers and lose their scopes")
            if code is None:
                block(call, why)
            else:
                scope.replacements[id(call)] = cst.parse_expression(code)
                layers = re.findall(r"\*([\w.]+)\.(?:trainable_)?variables", code)
                if any(not scope.symbols[k].built for k in layers if k in scope.symbols):
                    scope.lazy_collections.add(id(call))


def _unlisted_class(scope: "pm.Scope", names: TFNames, before: int) -> Optional[str]:
    """A class or function that makes variables, built or called in the scope before statement ``before`` where the
    variables it made have no name here: one of the program's classes or functions, or a class of another module of
    the tree (:func:`tree_variable_classes`). A tf.Module helper's instance (a LAYER with its members) is listed by its
    members, a helper's variable bound to a name by that name."""
    makers = scope.variable_classes | scope.variable_functions | tree_variable_classes(names)
    if not makers:
        return None
    for st in scope.statements[:before]:
        if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)) or st.kind in (pm.LAYER, pm.VARIABLE, pm.VARIABLES):
            continue  # (a helper's variable bound here is listed by its name)
        for call in all_calls(st.node):
            if dotted_name(call.func) in makers:
                return dotted_name(call.func)
    return None


def tree_variable_classes(names: TFNames) -> Set[str]:
    """Classes of other modules of the tree that may make variables, by their local names: those whose session
    parameter the project pass dropped (``TreeHelpers.sessions_given``) and those whose graph the module runs
    (``TreeHelpers.graph_classes``)."""
    return set(names.tree_helpers.sessions_given) | set(names.tree_helpers.graph_classes)


def imported_variable_class(module: cst.Module, names: TFNames, listed=frozenset()) -> Optional[str]:
    """The first class of another module of the tree that ``module`` builds and that may make variables whose TF1
    names are not known here (:func:`tree_variable_classes`), but those in ``listed`` (whose modules are asked)."""
    makers = tree_variable_classes(names) - set(listed)
    return next((dotted_name(call.func) for call in all_calls(module) if dotted_name(call.func) in makers), None) \
        if makers else None


def unbuilt_layer_read(scope: "pm.Scope", plan) -> Optional[str]:
    """Why a run would read the variables of a Keras layer that may not exist yet (None: it would not).

    A collection of layer variables is resolved where the layers are not built (their input width is not
    known before their first call) as a list computed in the run. A run that reads it without calling
    those layers first (a target network's soft update, before any forward pass) would see no variables,
    and a compiled function keeps what its first trace saw."""
    called: set = set()
    for st in plan.statements:
        for call in all_calls(st.node):
            if id(call) in scope.lazy_collections and id(call) in scope.replacements:
                listed = re.findall(r"\*([\w.]+)\.(?:trainable_)?variables", code(scope.replacements[id(call)]))
                missing = [k for k in listed if k in scope.symbols and not scope.symbols[k].built and k not in called]
                if missing:
                    return (f"this run reads the variables of `{missing[0]}`, a Keras layer whose variables exist "
                            "once it has been called, and it does not call it first (its input width is not known "
                            "where it is built)")
        called.update(k for call in all_calls(st.node) if (k := symbol_key(call.func)) is not None)
    return None
