"""A variable collection filtered by a scope that names whole objects: the target network's copy in a DQN.

    mainDQN = DQN(sess, 4, 2, name="main")                 mainDQN = DQN(4, 2, name="main")
    targetDQN = DQN(sess, 4, 2, name="target")             targetDQN = DQN(4, 2, name="target")
    src_vars = tf.get_collection(                    ->    src_vars = [*mainDQN.dense.trainable_variables,
        tf.GraphKeys.TRAINABLE_VARIABLES, scope="main")                *mainDQN.dense_2.trainable_variables]

Objects of a class that makes every variable under the variable scope its constructor names
(:mod:`tf_migrate.analysis.scoped_classes`) have TF1 names ``"main/..."``. TF1's filter is ``re.match(scope, name)``:
a scope ``s`` selects every variable of an object built with the name ``p`` when ``p + "/"`` starts with ``s``, and
none when neither starts with the other. The objects are listed in the order they were built (TF1 listed variables
in creation order), each by the variables the converted class keeps, in its own creation order
(:func:`tf_migrate.analysis.object_variables.object_trainable_parts`, which the engine gives as
``names.class_variables``: the class analysis depends on this module's callers).

Only trainable variables are listed (an optimizer's slots and a Keras optimizer's counters sit under the scope too,
in ``GLOBAL_VARIABLES``), for objects built as ``name = Class(...)`` statements of the scope with a literal scope name,
outside any name or variable scope, each name once; the scope's own variables may not match the filter too. A class
of another module of the tree is asked of its module (:data:`tf_migrate.tfnames.SCOPED_VARIABLES_REQUEST`, answered
by :func:`scoped_answer` there through the project pass), which lists the variables as its converted class keeps them.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.analysis.variable_names import TF1Names
from tf_migrate.cst.arguments import bind_with_defaults
from tf_migrate.cst.text import code
from tf_migrate.tfnames import ANSWER_OBJECT, SCOPED_VARIABLES_REQUEST, TFNames, dotted_name


@dataclass
class _Layout:
    """What a construction of a scoped class needs: its scope parameter, ``__init__``'s parameters to bind the call
    to, and the object's variables as list parts (``ANSWER_OBJECT`` for the object), or why not."""

    parameter: str = ""
    params: Sequence[cst.Param] = ()
    parts: Optional[Callable[[str], Tuple[List[str], str]]] = None
    why: str = ""


def scoped_objects_list(scope: "pm.Scope", names: TFNames, before: int, which: str, pattern: Optional[str],
                        own: Tuple[Optional[str], str], makers: Set[str]) -> Optional[Tuple[Optional[str], str]]:
    """(list source code, "") or (None, why not) for a collection read at statement ``before`` of objects of scoped
    classes; None where the objects the scope built before are not all of such classes (the caller refuses).
    ``own``: the scope's own variables the filter selects, as a list's code (or None, why not: ``collections``'
    ``_listed``); ``makers``: the classes and functions
    that make variables (a class of another module of the tree among them)."""
    if names.class_variables is None or pattern is None:
        return None  # (unfiltered: every object's variables, and the scope's, in an order not known here)
    objects: List[Tuple[str, str, str, _Layout]] = []  # (name, class, its scope name, layout)
    layouts: Dict[str, _Layout] = {}
    for st in scope.statements[:before]:
        if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
            continue
        made = [call for call in all_calls(st.node) if dotted_name(call.func) in makers]
        if not made:
            continue
        targets, value = single(st.node)
        cls = dotted_name(value.func) if isinstance(value, cst.Call) else None
        if cls is None or made != [value] or targets is None or len(st.defines) != 1 or "." in st.defines[0]:
            return None
        if cls not in layouts:
            layouts[cls] = _layout(cls, scope, names)
        layout = layouts[cls]
        if layout.parts is None and not layout.why:
            return None  # (not a scoped class)
        if layout.why:
            return None, layout.why
        stack, var_scopes = TF1Names(names).stacks(st)
        if stack or var_scopes or stack is None:
            return None, f"the `{cls}` object `{st.defines[0]}` is built in a name or variable scope"
        bound = bind_with_defaults(value, layout.params)
        named = bound.get(layout.parameter) if bound is not None else None
        if not isinstance(named, cst.SimpleString):
            return None, f"the `{cls}` object `{st.defines[0]}` is built with a scope name that is not a literal"
        objects.append((st.defines[0], cls, named.evaluated_value, layout))
    if not objects:
        return None
    if which != "trainable":
        return None, ("a collection of all variables under an object's scope also holds its optimizer's slots, "
                      "which the eager rewrite does not list")
    if re.escape(pattern) != pattern:
        return None, "a variable collection of objects filtered by a pattern that is not a plain scope name"
    prefixes = [prefix for _, _, prefix, _ in objects]
    if len(set(prefixes)) != len(prefixes):
        return None, "two objects built under the same variable scope name: TF1 named their variables together"
    parts: List[str] = []
    for instance, cls, prefix, layout in objects:
        if pattern.startswith(prefix + "/"):
            return None, f"the filter {pattern!r} selects part of the variables of `{instance}`"
        if not (prefix + "/").startswith(pattern):
            continue
        listed, why = layout.parts(instance)
        if why:
            return None, why
        parts.extend(listed)
    listed, why = own
    if listed is None:
        return None, why
    if listed != "[]" and parts:
        return None, "the filter selects variables of the scope and of objects built in it: their order is not known"
    return ("[" + ", ".join(parts) + "]" if parts else listed), ""


def _layout(cls: str, scope: "pm.Scope", names: TFNames) -> _Layout:
    """How objects of ``cls`` list their variables: a scoped class of the module, or of another module of the tree
    (asked of it through the project pass); an empty layout for any other class."""
    scoped = names.scoped_classes.get(cls) if cls in scope.class_defs else None
    if scoped is not None:
        def local_parts(instance: str) -> Tuple[List[str], str]:
            listed, why = names.class_variables(scope.class_defs[cls], instance, names, scope.layer_scopes)
            if not why and len(listed) != scoped.makers:
                why = f"the variables of `{cls}` as converted are not the ones its text makes"
            return listed, why
        return _Layout(scoped.parameter, scoped.params, local_parts)
    if cls not in names.tree_helpers.graph_classes:
        return _Layout()
    tree = names.tree_helpers
    tree.runs_requested.setdefault(cls, {})[SCOPED_VARIABLES_REQUEST.key] = SCOPED_VARIABLES_REQUEST
    answer = tree.runs_given.get(cls, {}).get(SCOPED_VARIABLES_REQUEST.key)
    if answer == "null":
        return _Layout()  # (not a scoped class: the caller's refusal stands)
    if answer is None:
        provider, name, _ = tree.graph_classes[cls]
        why = tree.runs_refused.get(cls, "has not listed them (the project pass asks it when migrating a tree)")
        return _Layout(why=f"the variables of the `{name}` objects of {provider}: it {why}")
    given = json.loads(answer)
    params = [cst.Param(cst.Name(name), default=cst.parse_expression(default) if default is not None else None)
              for name, default in given["params"]]
    return _Layout(given["parameter"], params, lambda instance: (
        [part.replace(ANSWER_OBJECT, instance) for part in given["parts"]], ""))


def scoped_answer(cls: cst.ClassDef, names: TFNames, layer_scopes) -> str:
    """This module's answer to :data:`SCOPED_VARIABLES_REQUEST` for its class ``cls``: the JSON an importer reads
    (:func:`_layout`), or ``null`` where the class is not scoped or its converted variables are not its text's."""
    scoped = names.scoped_classes.get(cls.name.value)
    if scoped is None or names.class_variables is None:
        return "null"
    parts, why = names.class_variables(cls, ANSWER_OBJECT, names, layer_scopes)
    if why or len(parts) != scoped.makers:
        return "null"
    params = [[p.name.value, code(p.default) if p.default is not None else None] for p in scoped.params]
    return json.dumps({"parameter": scoped.parameter, "params": params, "parts": parts})
