"""A summary helper called inside another function -> its lines in place of the call (TF's mnist_with_summaries).

    def variable_summaries(var):                        def nn_layer(input_tensor, dim, layer_name):
        with tf.name_scope('summaries'):                    with tf.name_scope(layer_name):
            mean = tf.reduce_mean(var)                          weights = weight_variable(...)
            tf.summary.scalar('mean', mean)       ->            with tf.name_scope('summaries'):
            tf.summary.histogram('histogram', var)                  weights_mean = tf.reduce_mean(weights)
            tf.summary.scalar('max', tf.reduce_max(var))            tf.summary.scalar('mean', weights_mean)
                                                                    tf.summary.histogram('histogram', weights)
    def nn_layer(input_tensor, dim, layer_name):                    weights_max = tf.reduce_max(weights)
        with tf.name_scope(layer_name):                             tf.summary.scalar('max', weights_max)
            weights = weight_variable(...)                      ...
            variable_summaries(weights)
            ...

A summary helper (``find_helpers``: a module function that only computes tensors and registers summaries, of one
parameter) called as a statement on a name inside another function registered its summaries there, under the
scopes open at the call: its lines in place of the call build the same ops, under the same scopes, in the same
order, so TF1 runs the program as before. Its locals get names of their own (the argument's name before theirs),
and a summary of a computed value summarizes a local bound to it just before, which TF1 computed at the same
point. The layer helper then registers its summaries itself, which the helper-summaries rule follows to each
call; a summary helper no longer called is removed (the summaries rule would find it unused).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import writes
from tf_migrate.codegen.replace import NameSubstitution
from tf_migrate.cst.names import all_names, fresh, name_mentions
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._summary_helpers import (KINDS, SCOPES, Unsupported, find_helpers, named_value,
                                               summary_arguments)
from tf_migrate.traversal import visit

RULE_ID = "nested-summary-helpers"


class NestedSummaryHelpers(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "a summary helper called inside another function (a layer helper) -> its lines in place of the call"
    ORDER = 56  # before helper-summaries (57), which follows the layer helper's summaries to its calls
    TRIGGERS = ("summary",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        try:
            helpers = find_helpers(module, ctx.names)
        except Unsupported:
            return module
        defs = {s.name.value: s for s in module.body
                if isinstance(s, cst.FunctionDef) and s.name.value in helpers and _inlinable(s, ctx)}
        if not defs:
            return module
        inline = _Inline(defs, ctx, all_names(module))
        module = visit(module, inline)
        unused = {name for name in inline.inlined if name_mentions(module, name) == 1}  # its def alone
        return module.with_changes(body=[s for s in module.body
                                         if not (isinstance(s, cst.FunctionDef) and s.name.value in unused)])


def _inlinable(function: cst.FunctionDef, ctx: RuleContext) -> bool:
    """One plain parameter; a body of scope blocks (a literal name each), single assignments to names and summary
    calls: what can stand in another function's body as it is."""
    params = function.params
    if len(params.params) != 1 or params.params[0].default is not None or function.decorators or params.kwonly_params \
            or params.posonly_params or isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None:
        return False
    return _plain_block(list(function.body.body), ctx)


def _plain_block(statements, ctx: RuleContext) -> bool:
    for statement in statements:
        if isinstance(statement, cst.With):
            if not all(isinstance(item.item, cst.Call) and ctx.names.call_name(item.item) in SCOPES
                       and item.asname is None and item.item.args and item.item.args[0].keyword is None
                       and isinstance(item.item.args[0].value, cst.SimpleString) for item in statement.items):
                return False
            if not _plain_block(list(statement.body.body), ctx):
                return False
        elif isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            assigns = isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(
                small.targets[0].target, cst.Name)
            summary = isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and _value_arg(
                small.value, ctx) is not None
            docstring = isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString)
            if not (assigns or summary or docstring):
                return False
        else:
            return False
    return True


def _value_arg(call: cst.Call, ctx: RuleContext) -> Optional[cst.Arg]:
    """The argument holding what a summary call summarizes (None: not a summary call of a known form)."""
    kind = KINDS.get(ctx.names.call_name(call) or "")
    if kind is None:
        return None
    positional, keywords = summary_arguments(call, kind)
    name, value = named_value(positional, keywords)
    return value if isinstance(name, cst.SimpleString) and len(positional) <= 2 else None


class _Inline(cst.CSTTransformer):
    def __init__(self, defs: Dict[str, cst.FunctionDef], ctx: RuleContext, taken: Set[str]) -> None:
        self.defs, self.ctx, self.taken = defs, ctx, taken
        self.depth = 0
        self.inlined: Set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> Optional[bool]:
        if self.depth == 0 and node.name.value in self.defs:
            return False  # (a helper calling another is left as it is)
        self.depth += 1
        return None

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not (self.depth == 0 and original.name.value in self.defs):
            self.depth -= 1
        return updated

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        call = small.value if isinstance(small, cst.Expr) else None
        if not (self.depth and isinstance(call, cst.Call) and isinstance(call.func, cst.Name)
                and call.func.value in self.defs and len(call.args) == 1 and call.args[0].keyword is None
                and not call.args[0].star and isinstance(call.args[0].value, cst.Name)):
            return updated
        helper = self.defs[call.func.value]
        self.inlined.add(call.func.value)
        self.ctx.report(original, RULE_ID, INFO, f"`{call.func.value}`'s summaries registered in place of the call")
        body = _inlined(helper, call.args[0].value.value, self.ctx, self.taken)
        body[0] = body[0].with_changes(leading_lines=[*original.leading_lines, *body[0].leading_lines])
        return cst.FlattenSentinel(body)


def _inlined(helper: cst.FunctionDef, argument: str, ctx: RuleContext, taken: Set[str]) -> List[cst.BaseStatement]:
    """``helper``'s lines for a call on ``argument``: the parameter read as the argument, its locals renamed."""
    mapping: Dict[str, cst.BaseExpression] = {helper.params.params[0].name.value: cst.Name(argument)}
    for local in dict.fromkeys(key for key in writes(helper.body) if "." not in key):
        name = fresh(f"{argument}_{local}", taken)
        taken.add(name)
        mapping[local] = cst.Name(name)
    substitute = NameSubstitution(mapping)
    return _lines(list(helper.body.body), argument, substitute, ctx, taken)


def _lines(statements, argument: str, substitute: NameSubstitution, ctx: RuleContext,
           taken: Set[str]) -> List[cst.BaseStatement]:
    out: List[cst.BaseStatement] = []
    for statement in statements:
        if isinstance(statement, cst.With):
            inner = _lines(list(statement.body.body), argument, substitute, ctx, taken)
            out.append(visit(statement, substitute).with_changes(body=statement.body.with_changes(body=inner)))
            continue
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            continue  # the helper's docstring
        value = _value_arg(small.value, ctx) if isinstance(small, cst.Expr) else None
        if value is not None and not isinstance(value.value, cst.Name):
            # `tf.summary.scalar('max', tf.reduce_max(var))`: the value computed just before, as TF1 did
            label = _value_arg_label(small.value)
            local = fresh(f"{argument}_{label}", taken)
            taken.add(local)
            out.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(local))],
                                                           visit(value.value, substitute))],
                                               leading_lines=statement.leading_lines))
            call = small.value.with_changes(args=[a.with_changes(value=cst.Name(local)) if a is value else a
                                                  for a in small.value.args])
            statement = statement.with_changes(body=[small.with_changes(value=call)], leading_lines=[])
        out.append(visit(statement, substitute))
    return out or [cst.SimpleStatementLine([cst.Pass()])]


def _value_arg_label(call: cst.Call) -> str:
    """A name for the value a summary summarizes: its own name where that is a word (``max``)."""
    first = call.args[0].value if call.args else None
    text = first.evaluated_value if isinstance(first, cst.SimpleString) else ""
    return text if text.isidentifier() else "summarized"
