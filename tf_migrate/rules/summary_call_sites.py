"""A summary a function registers of its argument or of what it returns -> registered where it is called.

    def loss(y, t):                                     def loss(y, t):
        cross_entropy = ...                                 cross_entropy = ...
        tf.summary.scalar('cross_entropy', ce)   ->        return cross_entropy
        return cross_entropy
                                                        loss = loss(y, t)
    loss = loss(y, t)                                   tf.summary.scalar('cross_entropy', loss)

TF1 registered the summary when the function ran, under the caller's name scopes: registering
it right after the one call, on the value the call returned (or the argument it was given), is
the same registration. Then the summaries rule sees a module-level summary and converts it
with the rest (a summary inside a function it cannot trace keeps the file compat). Only
summaries at the top of the function's body move (not under its own scopes, loops or branches),
with a literal tag that no op the function makes before it takes (TF1 would have made the tag
unique), and only for a function called once, at module level, as a statement or as ``name = f(...)``;
a summarized argument must be a plain name at the call.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls, writes
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._summary_helpers import KINDS, op_names
from tf_migrate.traversal import visit

RULE_ID = "summary-call-sites"


class SummaryCallSites(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("a summary a function registers of its argument or of its return value -> registered after "
                   "the function's one call, on that value")
    ORDER = 55  # before the summaries rule (60), which converts module-level summaries
    TRIGGERS = ("summary",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        calls = _call_sites(module)
        moves: Dict[int, List[cst.SimpleStatementLine]] = {}  # id(call statement) -> summaries to register after it
        new_defs: Dict[int, cst.FunctionDef] = {}
        for statement in module.body:
            if not isinstance(statement, cst.FunctionDef) or statement.name.value not in calls:
                continue
            site_statement, target, call = calls[statement.name.value]
            moved = _movable_summaries(statement, target, call, ctx)
            if not moved:
                continue
            keep = [s for s in statement.body.body if not any(s is line for line, _ in moved)]
            new_defs[id(statement)] = statement.with_changes(body=statement.body.with_changes(body=keep))
            moves[id(site_statement)] = [line.with_changes(body=[line.body[0].with_changes(
                value=_with_value(line.body[0].value, value))], leading_lines=[]) for line, value in moved]
            ctx.report(statement, RULE_ID, INFO, f"{len(moved)} summar{'y' if len(moved) == 1 else 'ies'} of "
                                                 f"`{statement.name.value}` registered after its call, on the value "
                                                 "the call gives or returns")
        if not moves:
            return module
        return module.with_changes(body=_placed(module.body, new_defs, moves))


def _call_sites(module: cst.Module) -> Dict[str, Tuple[cst.SimpleStatementLine, Optional[cst.Name], cst.Call]]:
    """Functions the module calls exactly once, by a module-level statement ``f(...)`` or ``name = f(...)``
    (also inside a main guard), and reaches no other way while the name is the function: name -> (statement,
    target, call). ``loss = loss(y, t)`` rebinds the name: later reads of ``loss`` are the tensor's."""
    found = {}
    statements = _module_level(module.body)
    for position, definition in enumerate(statements):
        if not isinstance(definition, cst.FunctionDef):
            continue
        name, references, site = definition.name.value, 0, None
        for statement in statements[position + 1:]:
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                shadowed = isinstance(statement, cst.FunctionDef) and (
                    name in {p.name.value for p in statement.params.params} or name in writes(statement.body))
                references += 0 if shadowed else _mentions(statement, name)
                continue
            if isinstance(statement, cst.If):
                continue  # its body is in the list too; its test reads no function of the program
            mentions = _mentions(statement, name)
            if mentions:
                references += mentions
                site = statement if mentions == 1 else None
            if name in writes(statement):
                break  # rebound: later reads are of the new value
        if references == 1 and site is not None:
            small = site.body[0] if isinstance(site, cst.SimpleStatementLine) and len(site.body) == 1 else None
            call = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == name:
                if isinstance(small, cst.Expr):
                    found[name] = (site, None, call)
                elif len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                    found[name] = (site, small.targets[0].target, call)
    return found


def _mentions(node: cst.CSTNode, name: str) -> int:
    """How many times ``name`` is read in ``node`` (assignment targets left out)."""
    count = 0

    class _Names(cst.CSTVisitor):
        def visit_AssignTarget(self, _) -> bool:
            return False

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            visit(attribute.value, self)
            return False

        def visit_Arg(self, arg: cst.Arg) -> bool:
            visit(arg.value, self)
            return False

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal count
            count += node.value == name

    visit(node, _Names())
    return count


def _module_level(body) -> List[cst.BaseStatement]:
    """Module statements and those of ``if __name__ == '__main__':`` and other top-level ``if`` blocks."""
    found = []
    for statement in body:
        found.append(statement)
        if isinstance(statement, cst.If):
            found.extend(statement.body.body)
    return found


def _movable_summaries(func: cst.FunctionDef, target: Optional[cst.Name], call: cst.Call, ctx: RuleContext):
    """(summary statement, the caller's expression for its value) for each summary that can move; [] if any
    summary of the function cannot."""
    params = [p.name.value for p in func.params.params]
    if func.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or func.params.kwonly_params \
            or func.params.star_kwarg is not None or func.decorators:
        return []
    arguments = _arguments(call, params)
    body = list(func.body.body)
    returned = _returned_name(body)
    bound = writes(func.body)
    moved, ops_before = [], []
    for index, line in enumerate(body):
        call_in_line = _summary_statement(line, ctx)
        if call_in_line is None:
            ops_before += [name.lower() for name in op_names(line, ctx.names)]
            continue
        tag, value = call_in_line
        if tag is None or tag.lower() in ops_before or not isinstance(value, cst.Name):
            return []
        if value.value in params and value.value not in bound and isinstance(arguments.get(value.value), cst.Name):
            moved.append((line, arguments[value.value]))
        elif value.value == returned and target is not None and value.value not in params and not any(
                returned in writes(later) for later in body[index + 1:]):
            moved.append((line, target))  # the value the function goes on to return
        else:
            return []
    nested = [c for c in all_calls(func.body) if ctx.names.call_name(c) in KINDS]
    return moved if len(nested) == len(moved) else []


def _summary_statement(line: cst.BaseStatement, ctx: RuleContext):
    """(literal tag or None, value) of ``tf.summary.scalar(tag, value)`` as a whole statement."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)):
        return None
    call = line.body[0].value
    if not (isinstance(call, cst.Call) and ctx.names.call_name(call) in KINDS):
        return None
    positional = [a for a in call.args if a.keyword is None]
    if len(positional) < 2 or any(a.keyword is not None and a.keyword.value not in ("max_outputs",) for a in call.args):
        return None, None
    tag = positional[0].value
    return (tag.evaluated_value if isinstance(tag, cst.SimpleString) else None), positional[1].value


def _returned_name(body) -> Optional[str]:
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return) \
            and isinstance(last.body[0].value, cst.Name):
        return last.body[0].value.value
    return None


def _arguments(call: cst.Call, params: List[str]) -> Dict[str, cst.BaseExpression]:
    bound = {}
    for position, arg in enumerate(call.args):
        if arg.star:
            return {}
        name = arg.keyword.value if arg.keyword is not None else (params[position] if position < len(params) else None)
        if name is not None:
            bound[name] = arg.value
    return bound


def _with_value(call: cst.Call, value: cst.BaseExpression) -> cst.Call:
    positional = [i for i, a in enumerate(call.args) if a.keyword is None]
    args = list(call.args)
    args[positional[1]] = args[positional[1]].with_changes(value=value.deep_clone())
    return call.with_changes(args=args)


def _placed(body, new_defs: Dict[int, cst.FunctionDef], moves: Dict[int, List[cst.SimpleStatementLine]]):
    out = []
    for statement in body:
        if id(statement) in new_defs:
            out.append(new_defs[id(statement)])
        elif isinstance(statement, cst.If) and any(id(s) in moves for s in statement.body.body):
            inner = _placed(list(statement.body.body), new_defs, moves)
            out.append(statement.with_changes(body=statement.body.with_changes(body=inner)))
        else:
            out.append(statement)
            out.extend(moves.get(id(statement), []))
    return out
