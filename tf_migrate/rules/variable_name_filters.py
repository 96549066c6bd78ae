"""Trainable variables selected by their TF1 names -> the explicit list of the variables selected.

    with tf.variable_scope('generator'):
        G_W1 = tf.Variable(...)
    ...
    tvar = tf.trainable_variables()
    gvar = [var for var in tvar if 'generator' in var.name]
becomes
    gvar = [G_W1, G_b1, G_W2, G_b2]

GAN code picks what each optimizer trains this way (solaris33 Ch11-GAN). Eager variables do not
carry TF1's scoped names (the rewrite unwraps the scopes), so the filter would select nothing.
The rule works out the name TF1 gave every variable made before the selection
(``analysis/variable_names``: ``generator/Variable_1:0``), evaluates the condition on each, and
writes the ones it keeps in creation order, as ``tf.trainable_variables()`` listed them.

Only where it knows every name: the comprehension is ``[v for v in SRC if COND]`` with ``SRC``
``tf.trainable_variables()`` (or a name bound once to it), ``COND`` reads only ``v.name`` with
string operations, and every variable of the module is made by a ``tf.Variable`` /
``tf.get_variable`` statement of this block whose name the text gives (no helpers, loops, layers
or other APIs that make variables). Otherwise the file keeps the scopes and compat mode
(``scoped-variable-names``).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.static_eval import Named, evaluate, name_expression
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.analysis.layer_names import layer_variables
from tf_migrate.analysis.variable_names import HIDDEN_VARIABLES, TF1Names, Variable, constructor_count
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._hoisting import first_calls
from tf_migrate.rules._layer_variable_markers import marker, named_as_tf1, tf1_layer_names
from tf_migrate.rules._program_scopes import graph_scopes, statement_value
from tf_migrate.traversal import visit

RULE_ID = "variable-name-filters"
_SOURCES = {"tf.trainable_variables"}
_STRING_METHODS = {"startswith", "endswith", "split", "strip", "lstrip", "rstrip", "lower", "upper", "find",
                   "partition", "rpartition", "replace"}
_NODES = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Compare, ast.Eq, ast.NotEq,
          ast.In, ast.NotIn, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Call, ast.Attribute, ast.Subscript, ast.Slice,
          ast.Constant, ast.Name, ast.Load, ast.Tuple, ast.USub)


class VariableNameFilters(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("[v for v in tf.trainable_variables() if 'generator' in v.name] -> the explicit list of the "
                   "variables whose TF1 names pass the test")
    ORDER = 3  # before saver-var-list (a var_list it selects), and the rules that rename or unwrap what made the names
    TRIGGERS = (".name",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        hidden = [c for c in all_calls(module) if (ctx.names.call_name(c) or "").startswith(HIDDEN_VARIABLES)]
        total = constructor_count(module, ctx.names)
        if hidden and not total and all(ctx.names.call_name(c).startswith("tf.layers.") for c in hidden):
            return _select_layer_variables(module, ctx)
        if hidden:
            return module
        replacements: Dict[int, cst.BaseExpression] = {}
        for scope in graph_scopes(module, ctx):
            for st, value in _selections(scope):
                chosen = self._selection(value, scope, st, total, ctx)
                if chosen is not None:
                    replacements[id(value)] = cst.List([cst.Element(cst.parse_expression(v.expr)) for v in chosen])
                    ctx.report(value, RULE_ID, INFO, f"`{code(value)}` selects "
                               f"{', '.join(v.expr for v in chosen) or 'no variable'} by the names TF1 gave them "
                               f"({', '.join(v.tf_name for v in chosen) or '-'}): the explicit list")
        return visit(module, _Replace(replacements)) if replacements else module

    def _selection(self, comprehension: cst.ListComp, scope: "pm.Scope", st, total: int,
                   ctx: RuleContext) -> Optional[List[Variable]]:
        loop = comprehension.for_in
        if loop.inner_for_in is not None or len(loop.ifs) != 1 or not isinstance(loop.target, cst.Name) \
                or not isinstance(comprehension.elt, cst.Name) or comprehension.elt.value != loop.target.value:
            return None
        if not self.lists_trainable_variables(loop.iter, scope, st, ctx):
            return None
        names = TF1Names(ctx.names)
        variables, why = names.variables(scope, before=st.index)
        if why or names.constructors_seen != total:
            return None  # a variable whose TF1 name the text does not give, or one made elsewhere
        test = condition(loop.ifs[0].test, loop.target.value)
        if test is None:
            return None
        chosen = []
        for variable in variables:
            if not scope.same_graph(variable.made_at, st.index):
                continue  # another graph's (TF1 listed the graph the selection is built in)
            kept = passes(test, loop.target.value, variable.tf_name + ":0")
            if kept is None:
                return None
            if kept and variable.trainable:
                chosen.append(variable)
        return chosen

    @staticmethod
    def lists_trainable_variables(source: cst.BaseExpression, scope, st, ctx: RuleContext) -> bool:
        if isinstance(source, cst.Call):
            return ctx.names.call_name(source) in _SOURCES and not source.args
        key = symbol_key(source)
        bindings = scope.bindings.get(key or "", [])
        if key is None or "." in key or len(bindings) != 1 or bindings[0].index >= st.index:
            return False
        bound = statement_value(scope.statements[bindings[0].index].node)
        return isinstance(bound, cst.Call) and ctx.names.call_name(bound) in _SOURCES and not bound.args


def _select_layer_variables(module: cst.Module, ctx: RuleContext) -> cst.Module:
    """The selections among variables that ``tf.layers`` calls make (and no other API): each layer named as TF1
    named it, each selected variable a marker layers-to-keras resolves (``_layer_variable_markers``)."""
    variables = layer_variables(module, ctx.names, first_calls(module))
    if not variables:
        return module
    scope = next(graph_scopes(module, ctx))  # module code: where GAN programs pick what each optimizer trains
    replacements: Dict[int, cst.BaseExpression] = {}
    for st, value in _selections(scope):
        loop = value.for_in
        if (loop.inner_for_in is not None or len(loop.ifs) != 1 or not isinstance(loop.target, cst.Name)
                or not (isinstance(value.elt, cst.Name) and value.elt.value == loop.target.value)
                or not VariableNameFilters.lists_trainable_variables(loop.iter, scope, st, ctx)):
            continue
        test = condition(loop.ifs[0].test, loop.target.value)
        kept = [passes(test, loop.target.value, v.tf_name) if test is not None else None
                for v in variables if v.trainable]
        if None in kept:
            continue
        chosen = [v for v, keep in zip([v for v in variables if v.trainable], kept) if keep]
        replacements[id(value)] = cst.List([cst.Element(marker(v.layer, v.attribute)) for v in chosen])
        ctx.report(value, RULE_ID, INFO, f"`{code(value)}` selects the variables TF1 named "
                   f"{', '.join(v.tf_name for v in chosen) or '(none)'}: the explicit list of their Keras layers' "
                   "variables")
    if not replacements:
        return module
    ctx.layer_markers = True
    return visit(module, _Replace(replacements, tf1_layer_names(variables)))


def _selections(scope: "pm.Scope") -> List[Tuple["pm.Statement", cst.ListComp]]:
    """The comprehensions that may select variables: a statement's value (``gvar = [v for v in ...]``), or a
    ``var_list=`` argument written in place (``minimize(loss, var_list=[v for v in ...])``)."""
    found = []
    for st in scope.statements:
        value = statement_value(st.node)
        if isinstance(value, cst.ListComp):
            found.append((st, value))
        elif isinstance(st.node, cst.SimpleStatementLine):
            found.extend((st, arg.value) for call in all_calls(st.node) for arg in call.args
                         if arg.keyword is not None and arg.keyword.value == "var_list"
                         and isinstance(arg.value, cst.ListComp))
    return found


def condition(test: cst.BaseExpression, variable: str) -> Optional[ast.Expression]:
    """The test as a Python expression that reads only ``variable.name`` and string operations (None: more)."""
    return name_expression(test, [variable], _NODES, _STRING_METHODS)


def passes(test: ast.Expression, variable: str, name: str) -> Optional[bool]:
    return evaluate(test, {variable: Named(name)})


class _Replace(cst.CSTTransformer):
    def __init__(self, replacements: Dict[int, cst.BaseExpression], layer_names: Optional[Dict[int, str]] = None
                 ) -> None:
        self.replacements = replacements
        self.layer_names = layer_names or {}  # id(tf.layers call) -> the name TF1 gave its layer

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        return named_as_tf1(original, updated, self.layer_names)

    def leave_ListComp(self, original: cst.ListComp, updated: cst.ListComp) -> cst.BaseExpression:
        return self.replacements.get(id(original), updated)
