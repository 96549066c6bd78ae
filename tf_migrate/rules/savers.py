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

Left as it was (the file stays in compat mode), with the reason: variables
made by helper functions, in loops or with computed names or scopes; a
``var_list`` that is not a literal list or dict of variables (or an unfiltered
``tf.trainable_variables()`` / ``tf.global_variables()``); a saver used other
than through save / restore / last_checkpoints.

The checkpoint holds the program's variables, not the optimizer's slots
(TF1's ``Saver()`` also saved Adam's moments): after a restore the slots keep
their values, and a warning says so where the optimizer has slots.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.arguments import argument, find_argument, keyword
from tf_migrate.cst.text import code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._program_scopes import graph_scopes, statement_value
from tf_migrate.traversal import visit

RULE_ID = "saver-var-list"
_SAVER = "tf.train.Saver"
_CONSTRUCTORS = {"tf.Variable", "tf.get_variable"}
_SCOPES = {"tf.name_scope", "tf.variable_scope"}
_SAVER_USES = {"save", "restore", "last_checkpoints", "recover_last_checkpoints", "set_last_checkpoints",
               "set_last_checkpoints_with_time"}
_SLOTLESS = ("GradientDescentOptimizer", ".SGD")
# APIs that create variables without a tf.Variable / tf.get_variable call in the program.
_HIDDEN_VARIABLES = ("tf.layers.", "tf.keras.layers.", "tf.nn.rnn_cell.", "tf.nn.dynamic_rnn",
                     "tf.nn.bidirectional_dynamic_rnn", "tf.contrib.", "tf.train.ExponentialMovingAverage",
                     "tf.train.get_or_create_global_step", "tf.train.create_global_step")


class SaverVarList(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.train.Saver -> tf.compat.v1.train.Saver(var_list={TF1 name: variable}); save/restore with "
                   "sess=None read and write the legacy program's checkpoint keys")
    ORDER = 4  # before get-variable and variable-store: TF1's own calls say how TF1 named the variables
    TRIGGERS = ("Saver",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        plans: Dict[cst.Call, "_SaverPlan"] = {}
        for scope in graph_scopes(module, ctx):
            for plan in _plan_savers(scope, module, ctx):
                if plan.problem:
                    ctx.report(plan.call, RULE_ID, WARNING, f"tf.train.Saver kept: {plan.problem}")
                    continue
                plans[plan.call] = plan
                ctx.report(plan.call, RULE_ID, INFO, "Saver -> an explicit var_list keyed by TF1 names")
                if plan.slots_warning:
                    ctx.report(plan.call, RULE_ID, WARNING, plan.slots_warning)
        # Where the program model cannot keep the saver, the decision after the local rules keeps compat mode.
        return visit(module, _Rewrite(plans, ctx)) if plans else module


@dataclass
class _Variable:
    expr: str  # how the program reaches it: "W", "weights['h1']"
    tf_name: str
    trainable: bool


@dataclass
class _SaverPlan:
    call: cst.Call
    name: str = ""
    entries: List[Tuple[str, str]] = field(default_factory=list)  # (TF1 name, expression)
    problem: str = ""
    slots_warning: str = ""


def _plan_savers(scope: "pm.Scope", module: cst.Module, ctx: RuleContext) -> List[_SaverPlan]:
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
        names = _TF1Names(ctx)
        variables, why = names.variables(scope, before=st.index)
        if why:
            plan.problem = why
            continue
        hidden = _hidden_variables(module, ctx)
        if hidden:
            plan.problem = f"`{hidden}` creates variables whose TF1 names are not known here"
            continue
        if _constructor_count(module, ctx) != names.constructors_seen:
            plan.problem = "variables are created outside the block that builds the Saver (helpers, other scopes)"
            continue
        plan.entries, plan.problem = _entries(value, variables, ctx)
        if not plan.problem:
            plan.problem = _other_uses(scope, plan.name)
        plan.slots_warning = _slots_warning(scope, ctx) if find_argument(value, "var_list", 0) is None else ""
    return plans


def _entries(call: cst.Call, variables: List[_Variable], ctx: RuleContext):
    arg = find_argument(call, "var_list", 0)
    if arg is None:
        return [(v.tf_name, v.expr) for v in variables], ""
    value = arg.value
    if isinstance(value, cst.Dict):
        return [], ""  # the program's own names: kept as written
    qualname = ctx.names.call_name(value)
    if qualname in ("tf.trainable_variables", "tf.global_variables") and not value.args:
        chosen = [v for v in variables if v.trainable or qualname == "tf.global_variables"]
        return [(v.tf_name, v.expr) for v in chosen], ""
    if isinstance(value, (cst.List, cst.Tuple)):
        by_expr = {v.expr: v for v in variables}
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


def _slots_warning(scope: "pm.Scope", ctx: RuleContext) -> str:
    for symbol in scope.symbols.values():
        if symbol.kind == pm.OPTIMIZER and symbol.call is not None:
            qualname = ctx.names.call_name(symbol.call) or ""
            if not qualname.endswith(_SLOTLESS):
                return ("the checkpoint holds the model's variables, not the optimizer's slots that TF1's Saver() "
                        "also saved: after a restore they keep their current values")
    return ""


def _hidden_variables(module: cst.Module, ctx: RuleContext) -> Optional[str]:
    # rnn layers from rnn-to-keras: their weights are saved through TF1-named mirror variables
    mirrored = {getattr(c, "constructor", None) for c in ctx.rnn_checkpoints}
    for call in all_calls(module):
        qualname = ctx.names.call_name(call) or ""
        if qualname.startswith(_HIDDEN_VARIABLES) and code(call) not in mirrored:
            return qualname
    return None


def _constructor_count(module: cst.Module, ctx: RuleContext) -> int:
    return sum(1 for call in all_calls(module) if ctx.names.call_name(call) in _CONSTRUCTORS)


class _TF1Names:
    """The names TF1's graph gave the variables of one block, in creation order."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.in_use: Dict[str, int] = {}
        self.scopes: Dict[int, Tuple[Optional[str], Optional[str]]] = {}  # id(with item) -> (name scope, var scope)
        self.constructors_seen = 0

    def unique(self, name: str) -> str:
        """TF1's ``Graph.unique_name``."""
        key = name.lower()
        i = self.in_use.get(key, 0)
        self.in_use[key] = i + 1
        if i == 0:
            return name
        base = key
        while key in self.in_use:
            key = f"{base}_{i}"
            i += 1
        self.in_use[key] = 1
        return f"{name}_{i - 1}"

    def _stacks(self, st: "pm.Statement") -> Tuple[Optional[List[str]], List[str]]:
        """(name stack, variable-scope stack) around a statement; name stack None when not literal."""
        names: Optional[List[str]] = []
        var_scopes: List[str] = []
        for with_node in st.flat.unwrapped_from:
            for item in with_node.items:
                if id(item) not in self.scopes:
                    self.scopes[id(item)] = self._enter(item, names)
                name_scope, var_scope = self.scopes[id(item)]
                if name_scope == "":
                    continue
                if name_scope is None or names is None:
                    names = None
                else:
                    names = name_scope.split("/")
                if var_scope is not None:
                    var_scopes.append(var_scope)
        return names, var_scopes

    def _enter(self, item: cst.WithItem, names: Optional[List[str]]):
        expr = item.item
        qualname = self.ctx.names.call_name(expr) if isinstance(expr, cst.Call) else None
        if qualname not in _SCOPES:
            return "", None  # control_dependencies, device, Session, Graph: no name
        first = expr.args[0].value if expr.args and expr.args[0].keyword is None else None
        if not isinstance(first, cst.SimpleString) or names is None or first.evaluated_value.endswith("/"):
            return None, None
        scope = self.unique("/".join(names + [first.evaluated_value]))
        return scope, (first.evaluated_value if qualname == "tf.variable_scope" else None)

    def variables(self, scope: "pm.Scope", before: int) -> Tuple[List[_Variable], str]:
        found: List[_Variable] = []
        for st in scope.statements:
            if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
                continue  # variables a function makes are not this block's: the counts will differ
            calls = [c for c in all_calls(st.node) if self.ctx.names.call_name(c) in _CONSTRUCTORS]
            self.constructors_seen += len(calls)
            if st.index >= before:
                continue
            if st.kind in (pm.VARIABLE, pm.VARIABLES) and not calls:
                return [], "a variable made by a helper function: its TF1 name is not known here"
            if not calls and not isinstance(st.node, cst.SimpleStatementLine):
                continue
            names, var_scopes = self._stacks(st)
            if calls and not isinstance(st.node, cst.SimpleStatementLine):
                return [], "variables made in a loop or another compound statement"
            targets = _bound_expressions(st.node, calls)
            if calls and targets is None:
                return [], "variables that are not bound to names, dict entries or list items"
            for call in _evaluation_order(st.node):
                if self.ctx.names.call_name(call) in _CONSTRUCTORS:
                    variable = self._variable(call, names, var_scopes, targets[id(call)])
                    if isinstance(variable, str):
                        return [], variable
                    found.append(variable)
                elif names is not None and _literal_name(call) is not None and \
                        (self.ctx.names.call_name(call) or "").startswith("tf."):
                    self.unique("/".join(names + [_literal_name(call)]))
        return found, ""

    def _variable(self, call: cst.Call, names, var_scopes, expr: str):
        qualname = self.ctx.names.call_name(call)
        trainable = argument(call, "trainable")
        is_trainable = not (isinstance(trainable, cst.Name) and trainable.value == "False")
        if qualname == "tf.get_variable":
            first = call.args[0].value if call.args and call.args[0].keyword is None else argument(call, "name")
            if not isinstance(first, cst.SimpleString):
                return "a get_variable name that is not a literal string"
            full = "/".join(var_scopes + [first.evaluated_value])
            self.in_use[full.lower()] = self.in_use.get(full.lower(), 0) + 1
            return _Variable(expr, full, is_trainable)
        if names is None:
            return "variables under a name scope that is not a literal string"
        name = argument(call, "name")
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) > 5 or (name is not None and not isinstance(name, cst.SimpleString)):
            return "a variable name that is not a literal string"
        base = name.evaluated_value if name is not None else "Variable"
        return _Variable(expr, self.unique("/".join(names + [base])), is_trainable)


def _literal_name(call: cst.Call) -> Optional[str]:
    name = argument(call, "name")
    return name.evaluated_value if isinstance(name, cst.SimpleString) else None


def _evaluation_order(node: cst.CSTNode) -> List[cst.Call]:
    """Calls in the order Python runs them: arguments before the call that takes them."""
    order: List[cst.Call] = []

    class _Post(cst.CSTVisitor):
        def leave_Call(self, call: cst.Call) -> None:
            order.append(call)

    visit(node, _Post())
    return order


def _bound_expressions(line: cst.BaseStatement, calls: List[cst.Call]) -> Optional[Dict[int, str]]:
    """id(constructor call) -> how the program reaches the variable, or None when it cannot."""
    if not calls:
        return {}
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
            and isinstance(line.body[0], cst.Assign) and len(line.body[0].targets) == 1):
        return None
    target, value = line.body[0].targets[0].target, line.body[0].value
    found: Dict[int, str] = {}
    key = symbol_key(target)
    if key is not None and value in calls:
        found[id(value)] = key
    elif key is not None and isinstance(value, cst.Dict):
        for element in value.elements:
            if isinstance(element, cst.DictElement) and element.value in calls \
                    and isinstance(element.key, cst.SimpleString):
                found[id(element.value)] = f"{key}[{code(element.key)}]"
    elif key is not None and isinstance(value, (cst.List, cst.Tuple)):
        for index, element in enumerate(value.elements):
            if element.value in calls:
                found[id(element.value)] = f"{key}[{index}]"
    elif isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements):
        for t, v in zip(target.elements, value.elements):
            if v.value in calls and symbol_key(t.value) is not None:
                found[id(v.value)] = symbol_key(t.value)
    return found if len(found) == len(calls) else None


class _Rewrite(cst.CSTTransformer):
    def __init__(self, plans: Dict[cst.Call, _SaverPlan], ctx: RuleContext) -> None:
        self.plans, self.ctx = plans, ctx
        self.names = {p.name for p in plans.values()}

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        plan = self.plans.get(original)
        if plan is not None:
            self.ctx.report(original, RULE_ID, WARNING, "kept as tf.compat.v1.train.Saver (it runs eagerly with a "
                            "var_list) so checkpoints keep TF1's variable names")
            return self._saver(plan, updated)
        func = updated.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("save", "restore") \
                and isinstance(func.value, cst.Name) and func.value.value in self.names:
            args = list(updated.args)
            for index, arg in enumerate(args):
                if (arg.keyword is None and index == 0) or (arg.keyword is not None and arg.keyword.value == "sess"):
                    args[index] = arg.with_changes(value=cst.Name("None"))
                    break
            return updated.with_changes(args=args)
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
