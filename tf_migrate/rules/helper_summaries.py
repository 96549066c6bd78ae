"""Summaries a layer helper registers -> registered at each call, on the values the helper hands back.

    def fc_layer(x, num_units, name):                    def fc_layer(x, num_units, name):
        with tf.variable_scope(name):                        with tf.variable_scope(name):
            W = weight_variable(name, [in_dim, num_units])       W = weight_variable(name, [in_dim, num_units])
            tf.summary.histogram('W', W)             ->         layer = tf.matmul(x, W)
            layer = tf.matmul(x, W)                              return layer, {'W': W}
            return layer
                                                         fc1, fc1_summaries = fc_layer(x, 200, 'Hidden')
    fc1 = fc_layer(x, 200, 'Hidden')                     tf.summary.histogram('Hidden/W', fc1_summaries['W'])

TF1 registered the helper's summaries each time it ran, under the scopes it
opened: ``Hidden/W``. The helper now hands back what they summarized (a
variable it made, keyed by its local name; what it returns, or an argument, is
there already), and each call registers them, in the helper's order, with the
tag TF1 gave them relative to the call. The summaries rule then converts them
with the program's other summaries, and helper-modules makes the helper a
``tf.Module``. The program means the same under TF1: tags and values alike.

Only where the tags are known: scopes the helper opens (``tf.name_scope`` /
``tf.variable_scope``) and summary names made of literals and the call's
literal arguments (``'layer%s' % n_layer``); summaries at the top of the
helper's body or of its scope blocks, of a local name, a parameter or the
returned name; one ``return name`` at the end; every use of the helper a
statement ``t = helper(...)`` at module level (in ``with`` blocks and the
``if __name__ == "__main__":`` block too), or every one at the top of one
module-level function (a program written in ``def main():``, which the
summaries rule surveys as it does the module); and no two calls opening a
scope of the same name (TF1 made the second unique).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.main_guard import is_main_guard
from tf_migrate.analysis.modules import variable_makers
from tf_migrate.analysis.symbols import callee_name
from tf_migrate.cst.arguments import bind_with_defaults
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._helper_summary_tags import call_tags
from tf_migrate.rules._summary_helpers import (KINDS, SCOPES, Unsupported, find_helpers, named_value, op_names,
                                               scope_name, summary_arguments)
from tf_migrate.traversal import visit

RULE_ID = "helper-summaries"


class HelperSummaries(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("summaries a layer helper registers -> registered after each call, on the values the helper "
                   "hands back, with the tags TF1 gave them")
    ORDER = 57  # after summary-call-sites (55), before the summaries rule (60) and helper-modules (95)
    TRIGGERS = ("summary",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        try:
            pure_helpers = find_helpers(module, ctx.names)  # the summaries rule folds those itself
        except Unsupported:  # a summary the summaries rule keeps TF1's: so are this file's others
            return module
        taken = all_names(module)
        makers = variable_makers(module, ctx.names)
        new_defs: Dict[int, cst.FunctionDef] = {}
        new_sites: Dict[int, List[cst.BaseStatement]] = {}
        for definition in module.body:
            if not isinstance(definition, cst.FunctionDef) or definition.name.value in pure_helpers:
                continue
            plan = _plan(definition, module, ctx)
            if plan is None:
                continue
            sites = _sites(module, definition)
            if sites is None:
                continue
            rewritten = _rewrite_sites(plan, module, sites, ctx, taken)
            if rewritten is None:
                continue
            new_defs[id(definition)] = _rewrite_helper(definition, plan, _variables(plan, module, makers, ctx),
                                                       ctx.tf)
            new_sites.update(rewritten)
            ctx.report(definition, RULE_ID, INFO, f"{len(plan.summaries)} summar"
                                                  f"{'y' if len(plan.summaries) == 1 else 'ies'} of "
                                                  f"`{definition.name.value}` registered at each of its "
                                                  f"{len(sites)} call(s)")
        if not new_defs:
            return module
        return visit(module, _Replace(new_defs, new_sites))


@dataclass
class _Summary:
    line: cst.SimpleStatementLine
    kind: str
    name: cst.BaseExpression  # the name argument (evaluated per call)
    value: str  # the local name, parameter or returned name it summarizes
    extra: List[cst.Arg]


@dataclass
class _Plan:
    params: List[cst.Param]
    returned: str
    summaries: List[_Summary] = field(default_factory=list)
    # ("push", scope expr) / ("pop", None) / ("op", op name) / ("summary", index) / ("bind", Assign), in order
    events: List[Tuple[str, object]] = field(default_factory=list)

    @property
    def handed_back(self) -> List[str]:
        """The locals the helper must hand back (not its parameters, not what it returns)."""
        params = {p.name.value for p in self.params}
        return list(dict.fromkeys(s.value for s in self.summaries if s.value not in params | {self.returned}))


def _plan(function: cst.FunctionDef, module: cst.Module, ctx: RuleContext) -> Optional[_Plan]:
    params = function.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT and params.star_arg is not None or params.star_kwarg \
            or params.kwonly_params or params.posonly_params or function.decorators:
        return None
    body = list(function.body.body)
    returned = _final_return(body)
    if returned is None or _count_returns(function) != 1:
        return None
    plan = _Plan(list(params.params), returned)
    if not _read(body, plan, ctx) or not plan.summaries:
        return None
    return plan


def _final_return(body) -> Optional[str]:
    """What the helper's one return, its last statement (inside its scope blocks), returns: the name, or ""
    for another expression (None: it ends otherwise)."""
    last = body[-1] if body else None
    if isinstance(last, cst.With):
        return _final_return(list(last.body.body))
    if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return) \
            and last.body[0].value is not None:
        value = last.body[0].value
        return value.value if isinstance(value, cst.Name) else ""
    return None


def _count_returns(function: cst.FunctionDef) -> int:
    count = [0]

    class _Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            count[0] += 1

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

    visit(function, _Returns())
    return count[0]


def _read(statements, plan: _Plan, ctx: RuleContext) -> bool:
    """Reads the helper's statements into ``plan``; False where a summary or scope is not one it knows."""
    for statement in statements:
        if isinstance(statement, cst.With):
            items = [item.item for item in statement.items]
            if any(item.asname for item in statement.items) or not all(
                    isinstance(i, cst.Call) and ctx.names.call_name(i) in SCOPES and i.args
                    and i.args[0].keyword is None for i in items):
                return False
            plan.events += [("push", i.args[0].value) for i in items]
            if not _read(list(statement.body.body), plan, ctx):
                return False
            plan.events += [("pop", None)] * len(items)
        elif isinstance(statement, cst.SimpleStatementLine):
            if not _read_line(statement, plan, ctx):
                return False
        elif _has_summary(statement, ctx):  # a summary in a branch or a loop: registered or not, per call
            return False
        else:
            plan.events += [("op", name) for name in op_names(statement, ctx.names)]
    return True


def _read_line(line: cst.SimpleStatementLine, plan: _Plan, ctx: RuleContext) -> bool:
    small = line.body[0] if len(line.body) == 1 else None
    value = small.value if isinstance(small, cst.Expr) else None
    if isinstance(value, cst.Call) and ctx.names.call_name(value) in KINDS:
        positional, keywords = summary_arguments(value, KINDS[ctx.names.call_name(value)])
        if set(keywords) - {"name", "tensor", "values", "max_outputs"} or len(positional) > 2:
            return False
        name, summarized_arg = named_value(positional, keywords)
        summarized = summarized_arg.value if summarized_arg is not None else None
        if name is None or not isinstance(summarized, cst.Name):
            return False
        plan.events.append(("summary", len(plan.summaries)))
        plan.summaries.append(_Summary(line, KINDS[ctx.names.call_name(value)], name, summarized.value,
                                       [keywords["max_outputs"]] if "max_outputs" in keywords else []))
        return True
    if _has_summary(line, ctx):
        return False
    plan.events += [("op", name) for name in op_names(line, ctx.names)]
    if isinstance(small, cst.Assign):
        plan.events.append(("bind", small))
    return True


def _has_summary(node: cst.CSTNode, ctx: RuleContext) -> bool:
    found = [False]

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if (ctx.names.call_name(call) or "").startswith("tf.summary."):
                found[0] = True

    visit(node, _Calls())
    return found[0]


def _sites(module: cst.Module, function: cst.FunctionDef) -> Optional[List[Tuple[cst.SimpleStatementLine, cst.Call]]]:
    """Each ``t = helper(...)`` at module level (or inside module-level ``with`` blocks), or each at the top of
    one module-level function (the program written in ``def main():``, which the summaries rule surveys as the
    module: ``program_function``), when those are every use of the helper's name (None: it is used some other
    way, or in more than one of those places)."""
    name = function.name.value
    sites: List[Tuple[cst.SimpleStatementLine, cst.Call]] = []
    homes = set()
    uses = [0]

    class _Uses(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                uses[0] += 1

    def walk(statements, home) -> None:
        for statement in statements:
            if isinstance(statement, cst.With) or is_main_guard(statement):  # (`if __name__ == "__main__":`)
                walk(list(statement.body.body), home)
            elif isinstance(statement, cst.FunctionDef) and home is None and statement is not function:
                walk(list(statement.body.body), statement)
            elif isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
                    and isinstance(statement.body[0], cst.Assign) and len(statement.body[0].targets) == 1 \
                    and isinstance(statement.body[0].targets[0].target, cst.Name) \
                    and isinstance(statement.body[0].value, cst.Call) \
                    and isinstance(statement.body[0].value.func, cst.Name) \
                    and statement.body[0].value.func.value == name:
                sites.append((statement, statement.body[0].value))
                homes.add(id(home))

    walk(list(module.body), None)
    visit(module, _Uses())
    # every use: the def's own name, and each call site's function name
    if not sites or uses[0] != 1 + len(sites) or len(homes) != 1:  # a rebinding or another use is one more name
        return None
    return sites


def _module_scopes(module: cst.Module, ctx: RuleContext) -> set:
    """The literal names of the scopes module code opens, and the top of module-level functions (see ``_sites``)."""
    found = set()

    def walk(statements) -> None:
        for statement in statements:
            if isinstance(statement, cst.With):
                found.update(scope_name(item.item, ctx.names) or "" for item in statement.items)
                walk(list(statement.body.body))
            elif isinstance(statement, cst.FunctionDef) or is_main_guard(statement):
                walk(list(statement.body.body))

    walk(list(module.body))
    return found - {""}


def _rewrite_sites(plan: _Plan, module: cst.Module, sites, ctx: RuleContext, taken) \
        -> Optional[Dict[int, List[cst.BaseStatement]]]:
    """Each call statement -> the call unpacking what the helper hands back, and the summaries registered."""
    out: Dict[int, List[cst.BaseStatement]] = {}
    opened: List[str] = []
    module_scopes = _module_scopes(module, ctx)
    tf = ctx.tf
    for statement, call in sites:
        bound = bind_with_defaults(call, plan.params)
        if bound is None:
            return None
        tags = call_tags(plan.events, [summary.name for summary in plan.summaries], bound)
        if tags is None:
            return None
        top = tags[1]
        if set(top) & (set(opened) | module_scopes):
            return None  # TF1 gave the second scope of that name another name
        opened += top
        target = statement.body[0].targets[0].target.value
        handed = fresh(f"{target}_summaries", taken) if plan.handed_back else None
        if handed:
            taken.add(handed)
        lines = [statement.with_changes(body=[statement.body[0].with_changes(
            targets=[cst.AssignTarget(cst.parse_expression(f"{target}, {handed}") if handed else cst.Name(target))])])]
        for summary, tag in zip(plan.summaries, tags[0]):
            if summary.value == plan.returned:
                value = target
            elif summary.value in bound and summary.value not in plan.handed_back:
                argument = bound[summary.value]
                if not isinstance(argument, cst.Name):
                    return None  # an argument the call computes: registered where TF1 had its value
                value = argument.value
            else:
                value = f"{handed}[{summary.value!r}]"
            extra = "".join(f", max_outputs={code(a.value)}" for a in summary.extra)
            lines.append(cst.parse_statement(f"{tf}.summary.{summary.kind}({tag!r}, {value}{extra})\n"))
        out[id(statement)] = lines
    return out


def _variables(plan: _Plan, module: cst.Module, makers: Set[str], ctx: RuleContext) -> Set[str]:
    """The handed-back locals that may hold a variable: bound by a variable constructor, a function of the module
    that makes variables, or a call the analysis does not know (and names bound to those)."""
    functions = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef)}
    bound: Dict[str, bool] = {}
    for event, item in plan.events:
        if event != "bind":
            continue
        value = item.value
        if isinstance(value, cst.Name):
            holds = bound.get(value.value, False)
        elif isinstance(value, cst.Call):
            qualname = ctx.names.call_name(value)
            holds = qualname in api.VARIABLE_CONSTRUCTORS if qualname is not None else (
                callee_name(value) in makers or callee_name(value) not in functions)
        else:
            holds = False
        for target in item.targets:
            if isinstance(target.target, cst.Name):
                bound[target.target.value] = holds
    return {local for local in plan.handed_back if bound.get(local, False)}


def _rewrite_helper(function: cst.FunctionDef, plan: _Plan, variables: Set[str], tf: str) -> cst.FunctionDef:
    """The helper without its summaries, handing back the locals they summarized: a variable as the value read
    there (``tf.identity(w)``), as TF1's summary read it in the run, where the step's update had not run (the
    eager step returns what it summarized after the update)."""
    drop = {id(s.line) for s in plan.summaries}
    handed = plan.handed_back

    class _Edit(cst.CSTTransformer):
        def leave_SimpleStatementLine(self, original, updated):
            if id(original) in drop:
                return cst.RemoveFromParent()
            small = updated.body[0] if len(updated.body) == 1 else None
            if handed and isinstance(small, cst.Return):
                items = ", ".join(f"{key!r}: {tf}.identity({key})" if key in variables else f"{key!r}: {key}"
                                  for key in handed)
                return updated.with_changes(body=[small.with_changes(
                    value=cst.parse_expression(f"{code(small.value)}, {{{items}}}"))])
            return updated

    return function.visit(_Edit())


class _Replace(cst.CSTTransformer):
    def __init__(self, defs: Dict[int, cst.FunctionDef], sites: Dict[int, List[cst.BaseStatement]]) -> None:
        self.defs, self.sites = defs, sites

    def leave_FunctionDef(self, original, updated):
        return self.defs.get(id(original), updated)

    def leave_SimpleStatementLine(self, original, updated):
        if id(original) in self.sites:
            return cst.FlattenSentinel(self.sites[id(original)])
        return updated
