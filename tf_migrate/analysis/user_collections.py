"""Collections of the program's own keys -> the explicit list of the variables made into them.

    c_names = ['eval_net_params', tf.GraphKeys.GLOBAL_VARIABLES]
    w1 = tf.get_variable('w1', [4, 10], collections=c_names)
    b1 = tf.get_variable('b1', [1, 10], collections=c_names)
    e_params = tf.get_collection('eval_net_params')          ->   e_params = [w1, b1]

TF1 lists a collection in the order its values were added; the variables a block makes with
``collections=`` naming the key are its members, in creation order. The ``collections=`` value
must be read from the text: a list literal of strings and ``tf.GraphKeys`` names, or a name bound
to one (``c_names, n_l1 = [...], 10`` counts). The list is given only where the analysis sees every
way a value could have entered the collection before the read; it refuses (the file stays compat,
with the reason) when:

- ``tf.add_to_collection(s)`` is called in the block;
- a variable is made with a ``collections=`` it cannot read, or outside a plain ``name = ...``;
- a function or class of the program that makes variables is called first (its variables'
  collections are not seen);
- (in a class, the rule also needs every program to build it once: ``rules/user_collections``);
- nothing of the block is made into the key (what fills it is elsewhere).
"""
from __future__ import annotations

from typing import List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import all_calls, callee_name, symbol_key
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames

_ADDERS = {"tf.add_to_collection", "tf.add_to_collections"}
_GRAPH_KEYS = "tf.GraphKeys."


def user_collection_members(key: str, scope: "pm.Scope", names: TFNames,
                            before: int) -> Tuple[Optional[List[Tuple[str, int]]], str]:
    """([(name, index of the statement that made it)...], "") of the variables ``tf.get_collection(key)`` read at
    statement ``before`` lists, in creation order, or (None, why not). A name may be bound again before the
    read: the caller names the value (``codegen/binding_renames``) or refuses."""
    members: List[Tuple[str, int]] = []
    makers = scope.variable_functions | scope.variable_classes
    for st in scope.statements[:before]:
        for call in all_calls(st.node):
            qualname = names.call_name(call)
            if qualname in _ADDERS:
                return None, f"`{qualname}` fills collections the analysis does not list"
            if qualname is None and callee_name(call) in makers:
                return None, (f"`{callee_name(call)}` makes variables before `tf.get_collection({key!r})`, into "
                              "collections the analysis does not see")
            given = argument(call, "collections") if qualname in api.VARIABLE_CONSTRUCTORS else None
            if given is None:
                continue
            keys = collection_keys(given, scope, st.index, names)
            if keys is None:
                return None, "a variable is made into collections the analysis cannot read"
            if key not in keys:
                continue
            targets, value = single(st.node)
            target = symbol_key(targets) if value is call and targets is not None else None
            if target is None:
                return None, f"a variable of collection {key!r} is made without a name of its own"
            members.append((target, st.index))
    if not members:
        return None, f"tf.get_collection({key!r}): nothing of this block is made into it"
    return members, ""


def left_out_of_global(scope: "pm.Scope", names: TFNames, before: int) -> Optional[str]:
    """Why ``tf.global_variables()`` read at ``before`` may not list every variable of the block: one made
    with ``collections=`` that does not name GLOBAL_VARIABLES (None: every one is in it)."""
    for st in scope.statements[:before]:
        for call in all_calls(st.node):
            given = argument(call, "collections") if names.call_name(call) in api.VARIABLE_CONSTRUCTORS else None
            if given is None:
                continue
            keys = collection_keys(given, scope, st.index, names)
            if keys is None or not keys & {"tf.GraphKeys.GLOBAL_VARIABLES", "tf.GraphKeys.VARIABLES", "variables"}:
                return "a variable made into other collections than GLOBAL_VARIABLES is not in TF1's variable list"
    return None


def collection_keys(value: cst.BaseExpression, scope: "pm.Scope", index: int, names: TFNames) -> Optional[Set[str]]:
    """The keys a ``collections=`` value names (``tf.GraphKeys.X`` as ``"tf.GraphKeys.X"``), or None."""
    if isinstance(value, cst.Name):
        value = _bound_value(value.value, scope, index)
    if not isinstance(value, (cst.List, cst.Tuple)):
        return None
    keys: Set[str] = set()
    for element in value.elements:
        item = element.value
        qualname = names.qualname(item)
        if isinstance(item, cst.SimpleString):
            keys.add(item.evaluated_value)
        elif qualname is not None and qualname.startswith(_GRAPH_KEYS):
            keys.add(qualname)
        else:
            return None
    return keys


def _bound_value(name: str, scope: "pm.Scope", index: int) -> Optional[cst.BaseExpression]:
    """The expression ``name`` was last bound to before statement ``index`` (``a, b = x, y`` counts)."""
    symbol = scope.symbol_at(name, index)
    if symbol is None or not 0 <= symbol.index < len(scope.statements):
        return None
    targets, value = single(scope.statements[symbol.index].node)
    if isinstance(targets, cst.Name) and targets.value == name:
        return value
    if isinstance(targets, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
            and len(targets.elements) == len(value.elements):
        for target, element in zip(targets.elements, value.elements):
            if isinstance(target.value, cst.Name) and target.value.value == name:
                return element.value
    return None


def resolve_user_collection(key: str, scope: "pm.Scope", names: TFNames, before: int) -> Tuple[Optional[str], str]:
    """(list source code, "") of ``tf.get_collection(key)`` read at statement ``before``, or (None, why not),
    where no member's name is bound again before the read."""
    members, why = user_collection_members(key, scope, names, before)
    if members is None:
        return None, why
    for target, index in members:
        visible = scope.symbol_at(target, before)
        if visible is None or visible.index != index:
            return None, (f"`{target}` is bound again after the variable of collection {key!r} it named, which "
                          "no name reaches here")
    return "[" + ", ".join(target for target, _ in members) + "]", ""
