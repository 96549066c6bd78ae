"""Summaries registered in a loop over the trainable variables, tagged by their names -> one summary per variable.

    for var in tf.trainable_variables():               tf.summary.histogram('W1:0', weights['w1'])
        tf.summary.histogram(var.name, var)      ->    tf.summary.histogram('b1:0', biases['b1'])
    for grad, var in grads:                            tf.summary.histogram('W1:0/gradient', grads[0][0])
        tf.summary.histogram(var.name + '/gradient', grad)      tf.summary.histogram('b1:0/gradient', grads[1][0])

TensorBoard tutorials (aymericdamien's ``tensorboard_advanced``) tag each variable's histogram with the name
TF1's graph gave it. The summaries rule needs tags it can read from the text; eager variables do not carry TF1's
unique, scoped names. This rule works out the name TF1 gave every trainable variable made before the loop
(``analysis/variable_names``), evaluates each tag on it, and writes the loop out: one summary per variable, in
the order TF1 registered them, each with its literal tag and the value the loop gave it then. The summaries rule
then converts them (cleaning ``:`` to ``_`` as TF1 did).

The loop iterates ``tf.trainable_variables()`` (or a name bound to it once), or a name bound to
``list(zip(GRADS, tf.trainable_variables()))`` where ``GRADS`` is ``tf.gradients(y, tf.trainable_variables())``
(read by index: ``grads[i][0]``). Its body is summary calls only, whose tags read nothing but the variable's
``.name`` with string operations, and whose values read only the loop's names and TF ops. Every variable must be
made by a ``tf.Variable`` / ``tf.get_variable`` statement whose name the text gives (no helpers, layers or loops).
Otherwise the loop stays, and the summaries rule keeps the file compat with its reason.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.static_eval import Named, name_expression, value_of
from tf_migrate.analysis.symbols import all_calls, reads
from tf_migrate.analysis.variable_names import HIDDEN_VARIABLES, TF1Names, Variable, constructor_count
from tf_migrate.codegen.replace import NameSubstitution
from tf_migrate.cst.arguments import find_argument
from tf_migrate.cst.names import name_mentions
from tf_migrate.cst.text import module_code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._program_scopes import graph_scopes, statement_value
from tf_migrate.rules._summary_helpers import KINDS
from tf_migrate.traversal import visit

RULE_ID = "summary-loops"
_TRAINABLE = "tf.trainable_variables"
_STRING_METHODS = {"format", "replace", "split", "strip", "lstrip", "rstrip", "lower", "upper"}
_NODES = (ast.Expression, ast.BinOp, ast.Add, ast.Mod, ast.Call, ast.Attribute, ast.Subscript, ast.Slice,
          ast.Constant, ast.Name, ast.Load, ast.Tuple, ast.JoinedStr, ast.FormattedValue, ast.USub, ast.UnaryOp)


class SummaryLoops(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("for var in tf.trainable_variables(): tf.summary.histogram(var.name, var) -> one summary per "
                   "variable, tagged with the name TF1 gave it")
    ORDER = 4  # beside variable-name-filters: before the rules that rename or unwrap what made the names
    TRIGGERS = (".name",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if "summary" not in module_code(module) or any(
                (ctx.names.call_name(c) or "").startswith(HIDDEN_VARIABLES) for c in all_calls(module)):
            return module
        total = constructor_count(module, ctx.names)
        unrolled: Dict[int, List[cst.BaseStatement]] = {}
        for scope in graph_scopes(module, ctx):
            for st in scope.statements:
                if isinstance(st.node, cst.For) and _registers_summaries(st.node, ctx):
                    lines = _unrolled(st, scope, total, ctx)
                    if lines is not None:
                        unrolled[id(st.node)] = lines
                        ctx.report(st.node, RULE_ID, INFO, f"a loop registering summaries tagged by TF1 variable "
                                                           f"names -> {len(lines)} summaries with literal tags")
        return visit(module, _WriteOut(unrolled)) if unrolled else module


def _registers_summaries(loop: cst.For, ctx: RuleContext) -> bool:
    return any(ctx.names.call_name(c) in KINDS for c in all_calls(loop))


def _unrolled(st: "pm.Statement", scope: "pm.Scope", total: int, ctx: RuleContext) -> Optional[List[cst.BaseStatement]]:
    """The loop's summaries, one set per variable (None: the loop is not one this rule knows)."""
    loop: cst.For = st.node
    if loop.orelse is not None or loop.asynchronous is not None:
        return None
    found = _items(loop, scope, st, ctx)
    if found is None:
        return None
    items, as_of, gradients_at = found
    trainable = _trainable(scope, as_of, total, ctx)  # the list the loop iterates was made at `as_of`
    if trainable is None or (gradients_at is not None and _trainable(scope, gradients_at, total, ctx) != trainable):
        return None  # a name the text does not give, or variables made between the gradients and their list
    loop_names = [e.value.value for e in loop.target.elements] if isinstance(loop.target, cst.Tuple) \
        else [loop.target.value]
    summaries = [_summary(line, loop_names, ctx) for line in loop.body.body]
    if not summaries or any(s is None for s in summaries) or \
            any(_read_after(name, scope.statements[st.index + 1:]) for name in loop_names):
        return None
    out: List[cst.BaseStatement] = []
    for position, variable in enumerate(trainable):
        bound = items(position, variable)
        for line, (tag, value) in zip(loop.body.body, summaries):
            text = value_of(tag, {bound["name_of"]: Named(variable.tf_name + ":0")})
            if not isinstance(text, str):
                return None
            call = statement_value(line)
            substituted = visit(call, NameSubstitution(bound["values"]))
            tag_arg = find_argument(call, "name", 0)
            args = [a.with_changes(value=cst.SimpleString(repr(text))) if a is tag_arg else new
                    for a, new in zip(call.args, substituted.args)]
            out.append(line.with_changes(body=[line.body[0].with_changes(value=substituted.with_changes(args=args))],
                                         leading_lines=loop.leading_lines if not out else []))
    return out


def _trainable(scope: "pm.Scope", before: int, total: int, ctx: RuleContext) -> Optional[List[Variable]]:
    """The trainable variables made before statement ``before``, with their TF1 names (None: one has no name the
    text gives, or the module makes variables elsewhere)."""
    names = TF1Names(ctx.names)
    variables, why = names.variables(scope, before=before)
    if why or names.constructors_seen != total:
        return None
    return [v for v in variables if v.trainable and scope.same_graph(v.made_at, before)]


def _read_after(name: str, statements: List["pm.Statement"]) -> bool:
    """Whether the statements read ``name`` (which Python leaves bound to the loop's last item) before another
    loop binds it again."""
    for later in statements:
        node = later.node
        if isinstance(node, cst.For) and name in reads(node.target) and not name_mentions(node.iter, name):
            return False
        if name_mentions(node, name):
            return True
    return False


def _items(loop: cst.For, scope: "pm.Scope", st: "pm.Statement", ctx: RuleContext):
    """(``items(position, variable)`` -> {"name_of": the loop name whose ``.name`` is the variable's, "values": loop
    name -> its value at that position}, the index of the statement that made the list it iterates, that of the
    gradients zipped into it or None); None when the loop iterates something else."""
    source = loop.iter
    if _lists_trainable(source, scope, st.index, ctx) and isinstance(loop.target, cst.Name):
        target = loop.target.value
        as_of = _binding_index(source.value, scope, st.index) if isinstance(source, cst.Name) else st.index
        return (lambda position, variable: {"name_of": target, "values": {
            target: cst.parse_expression(variable.expr)}}), as_of, None
    if not (isinstance(source, cst.Name) and isinstance(loop.target, cst.Tuple) and len(loop.target.elements) == 2
            and all(isinstance(e.value, cst.Name) for e in loop.target.elements)):
        return None
    pairs = _bound_value(source.value, scope, st.index)
    if not (isinstance(pairs, cst.Call) and isinstance(pairs.func, cst.Name) and pairs.func.value == "list"
            and len(pairs.args) == 1 and isinstance(pairs.args[0].value, cst.Call)):
        return None
    zipped, as_of = pairs.args[0].value, _binding_index(source.value, scope, st.index)
    gradients = zipped.args[0].value if len(zipped.args) == 2 else None
    if not (isinstance(zipped.func, cst.Name) and zipped.func.value == "zip" and len(zipped.args) == 2
            and _lists_gradients(gradients, scope, as_of, ctx)
            and _lists_trainable(zipped.args[1].value, scope, as_of, ctx)):
        return None
    grad, var = (e.value.value for e in loop.target.elements)
    pairs_name = source.value
    gradients_at = _binding_index(gradients.value, scope, as_of) if isinstance(gradients, cst.Name) else as_of
    return (lambda position, variable: {"name_of": var, "values": {
        grad: cst.parse_expression(f"{pairs_name}[{position}][0]"), var: cst.parse_expression(variable.expr)}}), \
        as_of, gradients_at


def _binding_index(key: str, scope: "pm.Scope", before: int) -> int:
    symbol = scope.symbol_at(key, before)
    return symbol.index if symbol is not None else -1


def _bound_value(key: str, scope: "pm.Scope", before: int) -> Optional[cst.BaseExpression]:
    """The value of the binding of ``key`` a statement at ``before`` sees, where one statement bound it alone."""
    at = _binding_index(key, scope, before)
    if at < 0:
        return None
    node = scope.statements[at].node
    value = statement_value(node)
    if value is None or not isinstance(node.body[0], cst.Assign) or len(node.body[0].targets) != 1 or \
            not isinstance(node.body[0].targets[0].target, cst.Name):
        return None
    return value


def _lists_trainable(source: cst.BaseExpression, scope: "pm.Scope", before: int, ctx: RuleContext) -> bool:
    """``tf.trainable_variables()``, or a name bound to it."""
    if isinstance(source, cst.Name):
        source = _bound_value(source.value, scope, before)
    return isinstance(source, cst.Call) and ctx.names.call_name(source) == _TRAINABLE and not source.args


def _lists_gradients(source: cst.BaseExpression, scope: "pm.Scope", before: int, ctx: RuleContext) -> bool:
    """``tf.gradients(y, tf.trainable_variables())``, or a name bound to it: one gradient per trainable variable."""
    if isinstance(source, cst.Name):
        source = _bound_value(source.value, scope, before)
    if not (isinstance(source, cst.Call) and ctx.names.call_name(source) == "tf.gradients"):
        return False
    xs = find_argument(source, "xs", 1)
    return xs is not None and len(source.args) == 2 and _lists_trainable(xs.value, scope, before, ctx)


def _summary(line: cst.BaseStatement, loop_names: List[str], ctx: RuleContext):
    """(tag as a Python expression, value) of a summary statement of the loop body; None for any other line."""
    call = statement_value(line)
    if not (isinstance(call, cst.Call) and isinstance(line.body[0], cst.Expr)
            and ctx.names.call_name(call) in KINDS):
        return None
    tag_arg = find_argument(call, "name", 0)
    value_arg = find_argument(call, "tensor", 1) or find_argument(call, "values", 1)
    if tag_arg is None or value_arg is None or any(a.keyword is not None and a.keyword.value not in (
            "name", "tensor", "values", "max_outputs") for a in call.args):
        return None
    tag = _tag(tag_arg.value, loop_names)
    read = set(reads(value_arg.value))
    if tag is None or not read <= set(loop_names) | set(ctx.names.aliases) or any(
            not (ctx.names.call_name(c) or "").startswith("tf.") for c in all_calls(value_arg.value)):
        return None
    return tag, value_arg.value


def _tag(expression: cst.BaseExpression, loop_names: List[str]) -> Optional[ast.Expression]:
    """The tag as a Python expression that reads only a loop name's ``.name`` and string operations."""
    return name_expression(expression, loop_names, _NODES, _STRING_METHODS)


class _WriteOut(cst.CSTTransformer):
    def __init__(self, unrolled: Dict[int, List[cst.BaseStatement]]) -> None:
        self.unrolled = unrolled

    def leave_For(self, original: cst.For, updated: cst.For):
        lines = self.unrolled.get(id(original))
        return updated if lines is None else cst.FlattenSentinel(lines)
