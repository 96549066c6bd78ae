"""The variables an object of a class of the module made, with their TF1 names, as code outside it reaches them.

    class Model:                                          model = Model(config)
        def __init__(self, config):                       saver = tf.train.Saver()
            with tf.variable_scope("hidden"):
                w = tf.get_variable("w", [4, 16])    ->   {"hidden/w": model.w, "global_step": model.global_step}
            self.global_step = tf.Variable(0, name="global_step")

A Saver's default list holds every variable made before it, those the object's ``__init__`` made too. Their TF1
names come from the class's text as for the module's own variables (``analysis/variable_names``); code outside the
class reaches them through the object: an attribute ``__init__`` binds (``model.global_step``), or the attribute
the converted class keeps a local of ``__init__`` in (``model.w``; the class keeps it there even where no generated
method reads it: :attr:`ObjectVariables.kept_locals`).

Only objects of a class every program builds once, built outside any name or variable scope (their names would
carry its prefix), are listed; any other object of a class that makes variables leaves the list unknown.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.class_scope import analyze_class
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.variable_names import TF1Names, Variable
from tf_migrate.tfnames import ANSWER_OBJECT, VARIABLES_REQUEST, dotted_name


@dataclass
class ObjectVariables:
    """What :func:`object_variables` found (``why``: why the list is not known; "" when it is)."""

    variables: List[Variable] = field(default_factory=list)
    constructors: int = 0  # variable constructor calls of the classes' __init__ (TF1Names.constructors_seen)
    kept_locals: Dict[str, Set[str]] = field(default_factory=dict)  # class -> locals of __init__ reached outside
    classes: List[cst.ClassDef] = field(default_factory=list)  # the classes of those objects
    why: str = ""


def object_variables(scope: "pm.Scope", module_scope: "pm.Scope", names, before: int,
                     layer_scopes=None) -> ObjectVariables:
    """The variables the objects of the module's classes (those ``module_scope``, the module's model, defines)
    built in ``scope`` before statement ``before`` made."""
    found = ObjectVariables()
    tree = names.tree_helpers
    for st in scope.statements[:before]:
        targets, value = single(st.node)
        cls = dotted_name(value.func) if isinstance(value, cst.Call) else None
        local = isinstance(value.func, cst.Name) and cls in module_scope.variable_classes and cls not in scope.params \
            if cls else False
        if not local and cls not in tree.graph_classes:
            continue
        if len(st.defines) != 1 or "." in st.defines[0] or targets is None:
            return ObjectVariables(why=f"an object of `{cls}`, which makes variables, is not bound to a plain name")
        if local and cls not in names.single_instances:
            return ObjectVariables(why=f"`{cls}`, which makes variables, may be built more than once")
        stack, var_scopes = TF1Names(names).stacks(st)
        if stack or var_scopes or stack is None:
            return ObjectVariables(why=f"the `{cls}` object is built in a name or variable scope")
        why = _add_class(found, module_scope.class_defs[cls], st.defines[0], names, layer_scopes) if local else \
            _add_imported(found, cls, st.defines[0], tree)
        if why:
            return ObjectVariables(why=why)
    return found


def _add_imported(found: ObjectVariables, cls: str, instance: str, tree) -> str:
    """The variables of an object of another module's class, as that module listed them (asked here, answered by
    :func:`answer_variables` there, through the project pass)."""
    tree.runs_requested.setdefault(cls, {})[VARIABLES_REQUEST.key] = VARIABLES_REQUEST
    provider, name, _ = tree.graph_classes[cls]
    listed = tree.runs_given.get(cls, {}).get(VARIABLES_REQUEST.key)
    if listed is None:
        why = tree.runs_refused.get(cls, "has not listed them (the project pass asks it when migrating a tree)")
        return f"the variables of `{name}` of {provider}: it {why}"
    found.variables.extend(Variable(f"{instance}.{attribute}", tf_name, trainable)
                           for tf_name, attribute, trainable in json.loads(listed))
    return ""


def answer_variables(module_scope: "pm.Scope", names, layer_scopes=None) -> ObjectVariables:
    """The answers to other modules' requests for the variables of this module's classes: each class every program
    builds once answers with the JSON list of [TF1 name, attribute of the object, trainable]
    (``TreeHelpers.runs_answered``); ``kept_locals`` of the result: the locals of ``__init__`` those attributes
    keep."""
    tree, kept = names.tree_helpers, ObjectVariables()
    for cls, requests in tree.runs_asked.items():
        if VARIABLES_REQUEST not in requests or cls not in names.single_instances or cls not in module_scope.class_defs:
            continue
        found = ObjectVariables()
        if _add_class(found, module_scope.class_defs[cls], ANSWER_OBJECT, names, layer_scopes):
            continue  # no answer: its importers stay compat
        tree.runs_answered.setdefault(cls, {})[VARIABLES_REQUEST.key] = json.dumps(
            [[v.tf_name, v.expr.split(".", 1)[1], v.trainable] for v in found.variables])
        kept.kept_locals.update(found.kept_locals)
    return kept


def _add_class(found: ObjectVariables, cls: cst.ClassDef, instance: str, names, layer_scopes) -> str:
    found.classes.append(cls)
    analysis = analyze_class(cls, names, layer_scopes)  # (what keeps the class from converting is reported later)
    tf1 = TF1Names(names)
    made, why = tf1.variables(analysis.scope, len(analysis.scope.statements))
    if why:
        return f"the variables of `{cls.name.value}`: {why}"
    found.constructors += tf1.constructors_seen
    exprs = [variable.expr for variable in made]
    for variable in made:
        if exprs.count(variable.expr) > 1:
            return f"`{variable.expr}` of `{cls.name.value}` names two variables"
        if variable.expr.startswith("self.") and variable.expr.count(".") == 1:
            reached = variable.expr[len("self."):]
        elif variable.expr in analysis.init_locals:
            reached = analysis.attribute_for(variable.expr)[len("self."):]
            found.kept_locals.setdefault(cls.name.value, set()).add(variable.expr)
        else:
            return f"`{variable.expr}` of `{cls.name.value}` is not reached through the object"
        found.variables.append(Variable(f"{instance}.{reached}", variable.tf_name, variable.trainable))
    return ""


def object_trainable_parts(cls: cst.ClassDef, instance: str, names, layer_scopes=None) -> Tuple[List[str], str]:
    """The trainable variables an object (``instance``) of a class made, as parts of a list in creation order
    (``instance.w``, ``*instance.dense.trainable_variables``), as the converted class keeps them; or ([], why).
    The locals of ``__init__`` they are kept in are recorded for the class (``names.kept_locals``)."""
    analysis = analyze_class(cls, names, layer_scopes)
    scope, parts, kept = analysis.scope, [], set()
    for key in scope.trainable_order:
        symbol = scope.kept_symbol_at(key, len(scope.statements))
        if symbol is None:
            continue
        if key.startswith("self.") and key.count(".") == 1:
            reached = key[len("self."):]
        elif key in analysis.init_locals:
            reached = analysis.attribute_for(key)[len("self."):]
            kept.add(key)
        else:
            return [], f"`{key}` of `{cls.name.value}` is not reached through the object"
        if symbol.kind == pm.VARIABLE:
            parts.append(f"{instance}.{reached}")
        elif symbol.kind == pm.LAYER and not symbol.members and not symbol.weightless:
            parts.append(f"*{instance}.{reached}.trainable_variables")
        elif not (symbol.kind == pm.LAYER and symbol.weightless):
            return [], f"`{key}` of `{cls.name.value}` holds variables the analysis does not list one by one"
    names.kept_locals.setdefault(cls.name.value, set()).update(kept)
    return parts, ""
