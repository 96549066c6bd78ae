"""Optimizer slots in TF1's lists of global variables, and the programs that never reach them.

A TF1 optimizer step (``minimize``, ``apply_gradients``) made slot variables for the variables it trained
(RMSProp's ``ms`` and ``mom``, Adam's ``m`` and ``v``, named ``<variable scopes>/<variable>/<optimizer>``) and
Adam its beta powers. ``tf.global_variables()`` or ``get_collection(GLOBAL_VARIABLES, scope=...)`` read after
the step listed them, after the variables made before it. An eager Keras optimizer keeps them to itself, so such
a list has no eager form in general (:func:`slot_step` says why).

One use never reaches them: a target network's hard update zips the list with a list that has no slots and is
no longer than the variables before the slots::

    t_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='target_net')
    e_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='eval_net')   # + eval_net's slots
    replace = [tf.assign(t, e) for t, e in zip(t_params, e_params)]                  # the slots are cut off

:func:`zip_stops_before_slots` proves that, and the list converts without its slots.
"""
from __future__ import annotations

import re
from typing import Callable, Optional, Sequence, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.names import name_mentions
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames

# Optimizers that make no variables of their own (SGD only without momentum).
_SLOTLESS_OPTIMIZERS = {"tf.train.GradientDescentOptimizer", "tf.train.ProximalGradientDescentOptimizer",
                        "tf.keras.optimizers.SGD"}
_TRAINABLE_KEYS = {"tf.GraphKeys.TRAINABLE_VARIABLES"}
_GLOBAL_KEYS = {"tf.GraphKeys.GLOBAL_VARIABLES"}
# Layers that make a kernel and, unless use_bias=False, a bias: their variable count is known from the call.
_KERNEL_AND_BIAS = {"dense", "conv1d", "conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose", "separable_conv2d",
                    "Dense", "Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose"}


def slot_step(scope: "pm.Scope", names: TFNames, before: int, pattern: Optional[str]) -> Optional[Tuple[int, str]]:
    """(statement index, why) of the first optimizer step before statement ``before`` whose slots (or beta powers,
    or an ``ExponentialMovingAverage``'s shadows) TF1's list of global variables filtered by ``pattern`` holds at
    ``before``; None when there is none: no such step, plain gradient descent, or slots no filter match."""
    for st in scope.statements[:before]:
        for call in all_calls(st.node):
            func = call.func
            if not (isinstance(func, cst.Attribute) and func.attr.value in ("minimize", "apply_gradients", "apply")):
                continue
            made = func.value
            if not isinstance(made, cst.Call):
                key = symbol_key(made)
                symbol = scope.symbol_at(key, st.index) if key is not None else None
                made = symbol.call if symbol is not None else None
            qualname = names.call_name(made) if isinstance(made, cst.Call) else None
            if func.attr.value == "apply":
                if qualname == "tf.train.ExponentialMovingAverage":
                    return st.index, ("TF1's list of global variables also holds the shadow variables of the "
                                      "`ExponentialMovingAverage` applied before it, which eager code keeps in the "
                                      "average")
                continue
            if qualname in _SLOTLESS_OPTIMIZERS and argument(made, "momentum") is None:
                continue
            if pattern is not None and not _slots_may_match(scope, names, st, call, pattern):
                continue
            optimizer = f"`{qualname}`" if qualname else f"`{code(func.value)}`"
            return st.index, (f"TF1's list of global variables also holds the slot variables of the step of "
                              f"{optimizer} built before it, which an eager optimizer keeps to itself")
    return None


def _slots_may_match(scope: "pm.Scope", names: TFNames, st: "pm.Statement", step: cst.Call, pattern: str) -> bool:
    """Whether a slot made by the optimizer ``step`` in ``st`` may pass the scope filter ``pattern``. TF1 named a
    slot ``<variable scopes around the step>/<variable's name>/<optimizer>`` and a beta power
    ``<variable and name scopes around the step>/beta1_power``; a scope named by a computed value may
    be anything. The step trains its ``var_list`` (a collection of trainable or of global variables filtered by a
    literal scope is read here) or every trainable variable made before it."""
    variable_path, full_path = [], []
    for with_node in st.flat.unwrapped_from:
        for item in with_node.items:
            if not isinstance(item.item, cst.Call):
                continue
            kind = names.qualname(item.item.func)
            if kind not in ("tf.variable_scope", "tf.name_scope"):
                continue
            first = item.item.args[0].value if item.item.args and item.item.args[0].keyword is None else None
            if not isinstance(first, cst.SimpleString):
                return True
            full_path.append(first.evaluated_value)
            if kind == "tf.variable_scope":
                variable_path.append(first.evaluated_value)
    trained = trained_filter(scope, names, st, step)
    listed = trained_filter(scope, names, st, step, collections=frozenset(_GLOBAL_KEYS)) if trained is None else None
    owned = []
    for key in scope.creation_order:
        symbol = scope.kept_symbol_at(key, st.index)
        if symbol is None or not symbol.tf_name:
            continue
        if trained is not None and (not symbol.trainable or symbol.index > st.index
                                    or not re.match(trained, symbol.tf_name)):
            continue
        if listed is not None and (symbol.index > st.index or not re.match(listed, symbol.tf_name)):
            continue  # a var_list of global variables by scope (a GAN's): trainable or not, those it names
        owned += [symbol.tf_name] if symbol.kind == pm.VARIABLE else [symbol.tf_name + "/kernel"]
    slots = ["/".join(variable_path + [name]) for name in owned]
    return any(re.match(pattern, name) for name in slots + ["/".join(full_path + ["beta1_power"])])


def trained_filter(scope: "pm.Scope", names: TFNames, st: "pm.Statement", step: cst.Call,
                   collections=frozenset(_TRAINABLE_KEYS)) -> Optional[str]:
    """The scope filter that selects the variables ``step`` (a ``minimize`` or ``compute_gradients`` call) trains
    ("" for all trainable ones), or None when the text does not say. Its ``var_list`` is the default, or
    ``tf.trainable_variables(scope)``, or a ``get_collection`` of one of ``collections`` filtered by a literal
    scope. (The slot question asks of ``minimize`` alone: ``compute_gradients`` makes no slots.)"""
    if step.func.attr.value not in ("minimize", "compute_gradients"):
        return None
    var_list = argument(step, "var_list")
    if var_list is None:
        return ""
    if not isinstance(var_list, cst.Call):
        key = symbol_key(var_list)
        symbol = scope.symbol_at(key, st.index) if key is not None else None
        var_list = symbol.call if symbol is not None else None
        if symbol is not None and var_list is None and 0 <= symbol.index < len(scope.statements):
            node = scope.statements[symbol.index].node  # params = tf.get_collection(...)
            small = node.body[0] if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 else None
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and symbol_key(small.targets[0].target) == key:
                var_list = small.value
    qualname = names.call_name(var_list) if isinstance(var_list, cst.Call) else None
    if qualname == "tf.trainable_variables":
        filter_arg = argument(var_list, "scope", 0)
    elif qualname == "tf.get_collection" and names.qualname(argument(var_list, "key", 0)) in collections:
        filter_arg = argument(var_list, "scope", 1)
    else:
        return None
    if filter_arg is None:
        return ""
    return filter_arg.evaluated_value if isinstance(filter_arg, cst.SimpleString) else None


def zip_stops_before_slots(scope: "pm.Scope", names: TFNames, before: int, statements: Sequence[cst.CSTNode],
                           listed: str, slots_from: int, list_at: Callable[[cst.Call, int], Optional[str]]) -> bool:
    """Whether the list of global variables statement ``before`` binds (``listed``: its variables, without the
    slots of the step at ``slots_from``) is only ever zipped with a list that has no slots and is no longer than
    ``listed``, every variable of which TF1 made before those slots: the zip stops before it reaches them.
    ``list_at(call, index)`` resolves another collection read (None: it cannot, or holds slots itself)."""
    target = _bound_name(statements[before]) if before < len(statements) else None
    if target is None:
        return False
    own = _count(listed, scope, before, slots_from)
    if own is None:
        return False
    later = statements[before + 1:]
    zips = [c for node in later for c in all_calls(node) if _zips(c, target)]
    if not zips or sum(name_mentions(node, target) for node in later) != len(zips):
        return False  # read otherwise than in a zip, or bound again
    for call in zips:
        partner = next(a.value.value for a in call.args if a.value.value != target)
        partner_list = _partner_list(partner, statements, before, names, list_at)
        length = _count(partner_list, scope, before, None) if partner_list is not None else None
        if length is None or length > own:
            return False
    return True


def _bound_name(node: cst.CSTNode) -> Optional[str]:
    """``name`` for a statement ``name = <one call>``."""
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Assign)):
        return None
    assign = node.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name) or \
            not isinstance(assign.value, cst.Call):
        return None
    return assign.targets[0].target.value


def _zips(call: cst.Call, target: str) -> bool:
    """``zip(a, b)`` of two names, one of them ``target``."""
    return (isinstance(call.func, cst.Name) and call.func.value == "zip" and len(call.args) == 2
            and all(a.keyword is None and not a.star and isinstance(a.value, cst.Name) for a in call.args)
            and [a.value.value for a in call.args].count(target) == 1)


def _partner_list(partner: str, statements: Sequence[cst.CSTNode], before: int, names: TFNames,
                  list_at: Callable[[cst.Call, int], Optional[str]]) -> Optional[str]:
    """The variables the one binding of ``partner`` lists, a collection read next to statement ``before`` (only
    collection reads between the two, so both see the same variables)."""
    bindings = [i for i, node in enumerate(statements) if _bound_name(node) == partner]
    if len(bindings) != 1 or sum(name_mentions(node, partner) for node in statements[:bindings[0] + 1]) != 1:
        return None
    at = bindings[0]
    call = statements[at].body[0].value
    if names.call_name(call) not in api.VARIABLE_COLLECTIONS:
        return None
    between = statements[min(at, before) + 1:max(at, before)]
    if any(_bound_name(node) is None or names.call_name(node.body[0].value) not in api.VARIABLE_COLLECTIONS
           for node in between):
        return None
    return list_at(call, min(at, before))


def _count(listed: str, scope: "pm.Scope", before: int, made_before: Optional[int]) -> Optional[int]:
    """How many variables ``listed`` (``[w, *layer.variables]``) holds, each made before statement ``made_before``
    (None: any); None when a count is not known."""
    expression = cst.parse_expression(listed)
    if not isinstance(expression, cst.List):
        return None
    total = 0
    for element in expression.elements:
        value = element.value
        if isinstance(element, cst.StarredElement) and isinstance(value, cst.Attribute) and \
                value.attr.value in ("variables", "trainable_variables"):
            key, count = symbol_key(value.value) or code(value.value), _layer_count
        else:
            key, count = symbol_key(value), lambda symbol: 1 if symbol.kind == pm.VARIABLE else None
        symbol = scope.kept_symbol_at(key, before) if key is not None else None
        number = count(symbol) if symbol is not None else None
        if number is None or (made_before is not None and symbol.index >= made_before):
            return None
        total += number
    return total


def _layer_count(symbol: "pm.Symbol") -> Optional[int]:
    """A kernel-and-bias layer's variable count, from its call."""
    if symbol.kind != pm.LAYER or symbol.call is None:
        return None
    func = symbol.call.func
    last = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    if last not in _KERNEL_AND_BIAS:
        return None
    use_bias = argument(symbol.call, "use_bias")
    if use_bias is None:
        return 2
    return {"True": 2, "False": 1}.get(code(use_bias))

