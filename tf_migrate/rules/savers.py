"""tf.train.Saver -> tf.compat.v1.train.Saver(var_list={TF1 name: variable}), saving and restoring with sess=None.

An eager Saver needs an explicit ``var_list``. Keyed by the names the TF1
graph gave the variables (``"W"``, ``"Variable_1"``, ``"layer1/W"``), it reads
and writes the same checkpoint keys, so a checkpoint the legacy program wrote
restores into the migrated one, and the other way round.
``saver.save(sess, path)`` / ``saver.restore(sess, path)`` get ``None`` for
the session.

Names are worked out as TF1 gave them: the literal ``name=`` (else
``"Variable"``) under the enclosing ``name_scope`` / ``variable_scope``, made
unique in creation order as TF1's graph does (case-insensitively, ``_1``,
``_2``...); ``get_variable`` names sit under the variable scope as they are.
A Saver of all variables holds those created before it, as TF1's did.

Variables a layer helper makes at each call are listed under the names TF1 gave
them, reached through the helper's tf.Module instances (``analysis/layer_helper_variables``).

Left as it was (the file stays in compat mode), with the reason: variables
made by other helper functions, in loops or with computed names or scopes; a
``var_list`` that is not a literal list or dict of variables (or an unfiltered
``tf.trainable_variables()`` / ``tf.global_variables()``); a saver used other
than through save / restore / last_checkpoints.

The checkpoint holds the program's variables, not the optimizer's slots
(TF1's ``Saver()`` also saved Adam's moments): after a restore the slots keep
their values, and a warning says so where the optimizer has slots. Where the
program trains after a restore (also one that runs only when a checkpoint
exists: a resumed run), that would change its numbers: saver-slots then lists
the slots too, by their TF1 names, or keeps the file compat.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.collections import imported_variable_class
from tf_migrate.analysis.layer_helper_variables import MARKER as HELPER_MARKER
from tf_migrate.analysis.object_variables import answer_variables, object_variables
from tf_migrate.analysis.saver_restores import trains_after_restore
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.analysis.variable_names import HIDDEN_VARIABLES, TF1Names, Variable, constructor_count
from tf_migrate.cst.arguments import find_argument, keyword
from tf_migrate.cst.names import attribute_mentions, attribute_names
from tf_migrate.cst.text import code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._program_scopes import graph_and_class_scopes, statement_value
from tf_migrate.rules._layer_variable_markers import named_as_tf1
from tf_migrate.rules._saver_layers import layer_saver_variables
from tf_migrate.traversal import visit

RULE_ID = "saver-var-list"
_SAVER = "tf.train.Saver"
_SAVER_USES = {"save", "restore", "last_checkpoints", "recover_last_checkpoints", "set_last_checkpoints",
               "set_last_checkpoints_with_time"}
_SLOTLESS = ("GradientDescentOptimizer", ".SGD")


class SaverVarList(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.train.Saver -> tf.compat.v1.train.Saver(var_list={TF1 name: variable}); save/restore with "
                   "sess=None read and write the legacy program's checkpoint keys")
    ORDER = 4  # before get-variable and variable-store: TF1's own calls say how TF1 named the variables
    TRIGGERS = ("Saver",)
    TREE_WORK = True  # the variables of this module's classes, listed for other modules' Savers

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        plans: Dict[cst.Call, "_SaverPlan"] = {}
        module_scope = None
        for scope, cls in graph_and_class_scopes(module, ctx):
            if module_scope is None:  # the first: the module's own
                module_scope = scope
                for name, kept in answer_variables(scope, ctx.names, ctx.layer_scopes).kept_locals.items():
                    ctx.kept_for_savers.setdefault(name, set()).update(kept)  # for other modules' Savers
            found = _plan_savers(scope, module_scope, module, ctx) if cls is None else \
                plan_class_savers(scope, cls, module_scope, module, ctx)
            for plan in found:
                if plan.problem:
                    ctx.report(plan.call, RULE_ID, WARNING, f"tf.train.Saver kept: {plan.problem}")
                    continue
                plans[plan.call] = plan
                ctx.report(plan.call, RULE_ID, INFO, "Saver -> an explicit var_list keyed by TF1 names")
                if plan.slots_warning and cls is None and trains_after_restore(scope, plan.name):
                    # compat, unless saver-slots lists the slots too (it lifts this blocker)
                    ctx.slot_savers[plan.name] = (plan.call, "the program restores a checkpoint and then trains "
                                                  "with an optimizer that has slots: TF1's Saver() restored them too "
                                                  "(Adam's moments), the eager Saver lists the model's variables only")
                    ctx.block(*ctx.slot_savers[plan.name])
                elif plan.slots_warning:
                    ctx.report(plan.call, RULE_ID, WARNING, plan.slots_warning)
        # Where the program model cannot keep the saver, the decision after the local rules keeps compat mode.
        return visit(module, _Rewrite(plans, ctx)) if plans else module


@dataclass
class _SaverPlan:
    call: cst.Call
    name: str = ""
    owner: str = ""  # the class whose ``__init__`` builds it (``self.saver``), else ""
    outside_calls: Set[int] = field(default_factory=set)  # ids of ``model.saver.save(...)`` calls outside its class
    entries: List[Tuple[str, str]] = field(default_factory=list)  # (TF1 name, expression)
    problem: str = ""
    slots_warning: str = ""
    layer_names: Dict[int, str] = field(default_factory=dict)  # id(tf.layers call) -> TF1's name for its layer


def _plan_savers(scope: "pm.Scope", module_scope: "pm.Scope", module: cst.Module,
                 ctx: RuleContext) -> List[_SaverPlan]:
    plans = []
    for st in scope.statements:
        value = statement_value(st.node)
        if not (isinstance(value, cst.Call) and ctx.names.call_name(value) == _SAVER):
            continue
        plan = _SaverPlan(value)
        plans.append(plan)
        if len(st.defines) != 1 or "." in st.defines[0] or not isinstance(st.node.body[0], cst.Assign):
            plan.problem = "a Saver that is not bound to a plain name"
            continue
        plan.name = st.defines[0]
        names = TF1Names(ctx.names, layer_helpers=True)  # (helper-modules keeps their variables on its instances)
        variables, why = names.variables(scope, before=st.index)
        if any(other.kind in (pm.VARIABLE, pm.VARIABLES, pm.LAYER) and not scope.same_graph(other.index, st.index)
               for other in scope.statements[:st.index]):
            why = "variables made in another graph before it (TF1 named each graph's variables afresh)"
        if why:
            plan.problem = why
            continue
        hidden = _hidden_variables(module, ctx) or imported_variable_class(module, ctx.names,
                                                                           set(ctx.names.tree_helpers.graph_classes))
        aliases: Dict[str, Variable] = {}
        if hidden and not variables:  # a program of tf.layers calls: their variables by their TF1 names
            layered, aliases, plan.layer_names = layer_saver_variables(module, ctx, value)
            variables, hidden = (layered, None) if layered is not None else (variables, hidden)
        if hidden:
            plan.problem = f"`{hidden}` creates variables whose TF1 names are not known here"
            continue
        objects = object_variables(scope, module_scope, ctx.names, st.index, ctx.layer_scopes)  # of local classes
        taken = {v.tf_name for v in variables}
        clash = next((v.tf_name for v in objects.variables if v.tf_name in taken), None)
        plan.problem = objects.why or (f"two variables named {clash!r}" if clash else "")
        if plan.problem:
            continue
        variables = variables + objects.variables
        if constructor_count(module, ctx.names) != names.constructors_seen + objects.constructors:
            plan.problem = "variables are created outside the block that builds the Saver (helpers, other scopes)"
            continue
        plan.entries, plan.problem = _entries(value, variables, ctx, aliases, scope, st.index)
        if not plan.problem:
            plan.problem = _other_uses(scope, plan.name)
        ctx.layer_markers |= bool(aliases) and not plan.problem
        ctx.helper_markers |= not plan.problem and any(v.expr.startswith(HELPER_MARKER) for v in variables)
        if not plan.problem:  # the converted classes keep these locals of __init__ on the object
            for cls, kept in objects.kept_locals.items():
                ctx.kept_for_savers.setdefault(cls, set()).update(kept)
        plan.slots_warning = _slots_warning(scope, ctx, objects.classes) if _lists_slots(value, ctx) else ""
    return plans


def plan_class_savers(scope: "pm.Scope", cls: str, module_scope: "pm.Scope", module: cst.Module,
                      ctx: RuleContext) -> List[_SaverPlan]:
    """The Savers a class's ``__init__`` builds (``self.saver = tf.train.Saver()`` after its graph): TF1 listed every
    variable of the graph made so far, which are the class's own where this module builds its one object and makes
    no variable elsewhere. Saved and restored through ``self.saver`` in the class's methods."""
    plans = []
    for st in scope.statements:
        value = statement_value(st.node)
        if not (isinstance(value, cst.Call) and ctx.names.call_name(value) == _SAVER):
            continue
        plan = _SaverPlan(value, owner=cls)
        plans.append(plan)
        if len(st.defines) != 1 or not st.defines[0].startswith("self.") or st.defines[0].count(".") != 1:
            plan.problem = "a Saver in __init__ not bound to an attribute of the object"
            continue
        plan.name = st.defines[0]
        if cls not in ctx.names.single_instances or cls not in module_scope.instances.values():
            plan.problem = (f"a Saver built by `{cls}`, which this module does not build exactly once: TF1's list also "
                            "held the variables the code around it made")
            continue
        names = TF1Names(ctx.names)
        variables, why = names.variables(scope, before=st.index)
        hidden = why or _hidden_variables(module, ctx)
        if hidden or constructor_count(module, ctx.names) != names.constructors_seen:
            plan.problem = why or (f"`{hidden}` creates variables whose TF1 names are not known here" if hidden else
                                   f"variables are created outside `{cls}.__init__`, which TF1's list may hold")
            continue
        plan.entries, plan.problem = _entries(value, variables, ctx)
        attribute = plan.name.split(".")[1]
        objects = {name for name, owner in module_scope.instances.items() if owner == cls}
        outside = [other for other in module.body if not (isinstance(other, cst.ClassDef) and other.name.value == cls)]
        saves = [call for other in outside for call in _object_saves(other, objects, attribute)]
        if not plan.problem and any(attribute in attribute_names(other, strings=True) for other in outside) and \
                sum(attribute_mentions(other).get(attribute, 0) for other in outside) != len(saves):
            plan.problem = f"`{attribute}` is read outside `{cls}` other than to save or restore"
        plan.outside_calls = {id(call) for call in saves}  # model.saver.save(sess, path): without the session too
        plan.slots_warning = _slots_warning(scope, ctx) if _lists_slots(value, ctx) else ""
        class_defs = [other for other in module.body if isinstance(other, cst.ClassDef) and other.name.value == cls]
        restores = [call for node in class_defs + saves for call in all_calls(node)
                    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "restore"
                    and isinstance(call.func.value, cst.Attribute) and call.func.value.attr.value == attribute]
        if not plan.problem and plan.slots_warning and restores:
            plan.problem = (f"`{cls}` restores a checkpoint and has an optimizer with slots, which TF1's Saver() "
                            "restored too (Adam's moments): the eager Saver lists the model's variables only")
    return plans


def _entries(call: cst.Call, variables: List[Variable], ctx: RuleContext, aliases: Optional[Dict[str, Variable]] = None,
             scope: Optional["pm.Scope"] = None, index: int = 0):
    """(TF1 name, expression) for each variable the Saver holds. ``aliases``: other texts of variables (the markers
    of tf.layers variables); a var_list may be a name ``scope`` binds once, before ``index``, to a list."""
    arg = find_argument(call, "var_list", 0)
    if arg is None:
        return [(v.tf_name, v.expr) for v in variables], ""
    value = arg.value
    if isinstance(value, cst.Name) and scope is not None:
        bound = [b for b in scope.bindings.get(value.value, ()) if b.index < index]
        listed = statement_value(scope.statements[bound[0].index].node) if len(bound) == 1 and len(
            scope.bindings.get(value.value, ())) == 1 else None
        value = listed if isinstance(listed, (cst.List, cst.Tuple)) else value
    if isinstance(value, cst.Dict):
        return [], ""  # the program's own names: kept as written
    qualname = ctx.names.call_name(value)
    if qualname in ("tf.trainable_variables", "tf.global_variables") and not value.args:
        # rnn-to-keras' mirrors hold trainable TF1 weights; they are kept out of the gradient lists only
        mirrors = {m for c in ctx.rnn_checkpoints for m in getattr(c, "mirrors", ())}
        chosen = [v for v in variables if v.trainable or qualname == "tf.global_variables" or v.expr in mirrors]
        return [(v.tf_name, v.expr) for v in chosen], ""
    if isinstance(value, (cst.List, cst.Tuple)):
        by_expr = {**{v.expr: v for v in variables}, **(aliases or {})}
        entries = []
        for element in value.elements:
            variable = by_expr.get(code(element.value))
            if variable is None:
                return [], f"`{code(element.value)}` in var_list is not a variable with a known TF1 name"
            entries.append((variable.tf_name, variable.expr))
        return entries, ""
    return [], "a var_list other than a literal list or dict of variables"


def _other_uses(scope: "pm.Scope", name: str) -> str:
    for st in scope.statements:
        finder = _SaverUses(name)
        visit(st.node, finder)
        if finder.other:
            return f"`{name}` is used other than by save / restore / last_checkpoints"
    return ""


class _SaverUses(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name, self.other = name, False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if isinstance(node.value, cst.Name) and node.value.value == self.name:
            self.other = self.other or node.attr.value not in _SAVER_USES
            return False
        return True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.other = self.other or node.value == self.name


def _lists_slots(saver: cst.Call, ctx: RuleContext) -> bool:
    """Whether TF1's Saver listed the optimizers' slots: every variable (no var_list, or ``tf.global_variables()``,
    which holds them too)."""
    given = find_argument(saver, "var_list", 0)
    return given is None or (isinstance(given.value, cst.Call) and not given.value.args
                             and ctx.names.call_name(given.value) in ("tf.global_variables", "tf.all_variables"))


def _slots_warning(scope: "pm.Scope", ctx: RuleContext, classes=()) -> str:
    """A warning where an optimizer with slots is built in the scope, or in the classes whose objects it builds."""
    made = [call for symbol in scope.symbols.values() if symbol.kind == pm.OPTIMIZER
            for call in ([symbol.call] if symbol.call is not None else symbol.choices)]
    made += [call for node in [*classes, *(st.node for st in scope.statements)] for call in all_calls(node)
             if (ctx.names.call_name(call) or "").startswith("tf.train.")
             and (ctx.names.call_name(call) or "").endswith("Optimizer")]  # (also one built inline: `...minimize`)
    if any(not (ctx.names.call_name(call) or "").endswith(_SLOTLESS) for call in made):
        return ("the checkpoint holds the model's variables, not the optimizer's slots that TF1's Saver() also "
                "saved: after a restore they keep their current values")
    return ""


def _hidden_variables(module: cst.Module, ctx: RuleContext) -> Optional[str]:
    # rnn layers from rnn-to-keras: their weights are saved through TF1-named mirror variables
    mirrored = {getattr(c, "constructor", None) for c in ctx.rnn_checkpoints}
    for call in all_calls(module):
        qualname = ctx.names.call_name(call) or ""
        if qualname.startswith(HIDDEN_VARIABLES) and code(call) not in mirrored:
            return qualname
    return None


class _Rewrite(cst.CSTTransformer):
    def __init__(self, plans: Dict[cst.Call, _SaverPlan], ctx: RuleContext) -> None:
        self.plans, self.ctx = plans, ctx
        self.names = {p.name for p in plans.values() if not p.owner}
        self.attributes: Dict[str, set] = {}  # class -> its Saver attributes (``self.saver``)
        for plan in plans.values():
            if plan.owner:
                self.attributes.setdefault(plan.owner, set()).add(plan.name)
        self.classes: List[str] = []
        self.outside_calls = {call for plan in plans.values() for call in plan.outside_calls}
        self.layer_names = {k: v for plan in plans.values() for k, v in plan.layer_names.items()}

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        updated = named_as_tf1(original, updated, self.layer_names)
        plan = self.plans.get(original)
        if id(original) in self.outside_calls:
            return _without_session(updated)  # model.saver.save(sess, path), the saver its class built
        if plan is None and isinstance(original.func, cst.Attribute) and original.func.attr.value in ("save", "restore") \
                and self.classes and code(original.func.value) in self.attributes.get(self.classes[-1], ()):
            return _without_session(updated)  # self.saver.save(sess, ...) in the class whose __init__ built it
        if plan is not None:
            self.ctx.report(original, RULE_ID, WARNING, "kept as tf.compat.v1.train.Saver (it runs eagerly with a "
                            "var_list) so checkpoints keep TF1's variable names")
            return self._saver(plan, updated)
        func = updated.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("save", "restore") \
                and isinstance(func.value, cst.Name) and func.value.value in self.names:
            return _without_session(updated)
        return updated

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node.name.value)

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.classes.pop()
        return updated

    def _saver(self, plan: _SaverPlan, updated: cst.Call) -> cst.Call:
        tf = self.ctx.tf
        func = cst.parse_expression(f"{tf}.compat.v1.train.Saver")
        given = find_argument(updated, "var_list", 0)
        if given is not None and isinstance(given.value, cst.Dict):
            var_list = given.value
        else:
            var_list = cst.parse_expression("{" + ", ".join(f"{json.dumps(n)}: {e}" for n, e in plan.entries) + "}")
        rest = [a for a in updated.args if a is not given]
        if rest:
            rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        var_arg = keyword("var_list", var_list)
        if rest:
            var_arg = var_arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated.with_changes(func=func, args=[var_arg] + rest)


def _without_session(call: cst.Call) -> cst.Call:
    """``saver.save(sess, path)`` -> ``saver.save(None, path)``: an eager Saver runs without a session."""
    args = list(call.args)
    for index, arg in enumerate(args):
        if (arg.keyword is None and index == 0) or (arg.keyword is not None and arg.keyword.value == "sess"):
            args[index] = arg.with_changes(value=cst.Name("None"))
            break
    return call.with_changes(args=args)


def _object_saves(node: cst.CSTNode, objects: Set[str], attribute: str) -> List[cst.Call]:
    """``model.saver.save(...)`` / ``model.saver.restore(...)`` calls in ``node``, ``model`` one of ``objects``."""
    return [call for call in all_calls(node) if isinstance(call.func, cst.Attribute)
            and call.func.attr.value in ("save", "restore") and isinstance(call.func.value, cst.Attribute)
            and call.func.value.attr.value == attribute and isinstance(call.func.value.value, cst.Name)
            and call.func.value.value.value in objects]
