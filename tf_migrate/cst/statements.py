"""Shapes of single statements that several rules and analyses recognise."""
from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from tf_migrate.cst.text import code


def plain_assignment(statement: cst.CSTNode) -> Optional[Tuple[str, cst.BaseExpression]]:
    """``(name, value)`` of a line that is only ``name = value`` (one plain-name target), else None."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            and isinstance(statement.body[0], cst.Assign):
        assign = statement.body[0]
        if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name):
            return assign.targets[0].target.value, assign.value
    return None


def only_pass(body: List[cst.BaseStatement]) -> bool:
    """A block that holds nothing but ``pass``."""
    return (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
            and all(isinstance(small, cst.Pass) for small in body[0].body))


def returns_value(function: cst.FunctionDef) -> bool:
    """A function whose last line is a ``return``."""
    last = function.body.body[-1]
    return isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Return)


def bare_none(statement: cst.CSTNode) -> bool:
    """A line that is only the expression ``None`` (what a run of an op alone became), with no comment after it."""
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.Name)
            and statement.body[0].value.value == "None" and statement.trailing_whitespace.comment is None)


class DropBareNones(cst.CSTTransformer):
    """Blocks without their :func:`bare_none` lines; their comment lines go to the next line, ``pass`` where a
    block is left empty, and no ``else:`` where that was all it held (``else: sess.run(init)``)."""

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        orelse = original.orelse
        if isinstance(orelse, cst.Else) and isinstance(orelse.body, cst.IndentedBlock) and all(
                bare_none(line) and not any(e.comment for e in line.leading_lines) for line in orelse.body.body):
            return updated.with_changes(orelse=None)
        return updated

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if not any(bare_none(line) for line in updated.body):
            return updated
        body, pending = [], []
        for line in updated.body:
            if bare_none(line):
                pending.extend(empty for empty in line.leading_lines if empty.comment is not None)
                continue
            body.append(line.with_changes(leading_lines=[*pending, *line.leading_lines]) if pending else line)
            pending = []
        if not body:
            body = [cst.SimpleStatementLine([cst.Pass()], leading_lines=pending)]
        elif pending:
            body.append(cst.SimpleStatementLine([cst.Pass()], leading_lines=pending))
        return updated.with_changes(body=body)


def split_call_lists(body: List[cst.BaseStatement]) -> List[cst.BaseStatement]:
    """``[t1.assign(w1), t2.assign(w2)]`` as a line of its own (a list made and dropped, what a run of ops alone
    became) -> one line per call, in the list's order."""
    out: List[cst.BaseStatement] = []
    for line in body:
        value = line.body[0].value if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 \
            and isinstance(line.body[0], cst.Expr) else None
        if isinstance(value, (cst.List, cst.Tuple)) and value.elements and all(
                isinstance(e, cst.Element) and isinstance(e.value, cst.Call) for e in value.elements):
            calls = [cst.SimpleStatementLine([cst.Expr(e.value.with_changes(lpar=[], rpar=[]))])
                     for e in value.elements]
            calls[0] = calls[0].with_changes(leading_lines=line.leading_lines)
            calls[-1] = calls[-1].with_changes(trailing_whitespace=line.trailing_whitespace)
            out.extend(calls)
        else:
            out.append(line)
    return out


class DiscardedConversions(cst.CSTTransformer):
    """``convert(call(...))`` or ``f(...).numpy()`` as a line of its own -> the call: a conversion of a value
    nothing reads (what a run whose result was dropped became, ``to_numpy(call_compiled(run_train_step, x=x))``);
    a list of calls made and dropped, ``[W.assign(0.3).numpy(), b.assign(-0.3).numpy()]``, one call a line,
    unconverted."""

    def __init__(self, convert: str, shown=frozenset(), wrappers=frozenset()) -> None:
        self.convert = convert
        self.shown = shown  # ids of expression statements whose value a notebook shows: kept as they are
        # Calls wrapped around a conversion, whose first argument is the value (`as_fed_arrays(to_numpy(...), (1,))`,
        # `np.asarray(to_numpy(...))`, codegen/fed_fetches): dropped with it.
        self.wrappers = wrappers

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if original.body and id(original.body[-1]) in self.shown:
            return updated
        value = updated.body[0].value if len(updated.body) == 1 and isinstance(updated.body[0], cst.Expr) else None
        if not isinstance(value, (cst.List, cst.Tuple)) or not value.elements:
            return updated
        calls = [_unconverted(e.value) if isinstance(e, cst.Element) else None for e in value.elements]
        if any(call is None for call in calls):
            return updated
        return cst.FlattenSentinel(split_call_lists([updated.with_changes(
            body=[updated.body[0].with_changes(value=value.with_changes(elements=[
                e.with_changes(value=call) for e, call in zip(value.elements, calls)]))])]))

    def leave_Expr(self, original: cst.Expr, updated: cst.Expr) -> cst.Expr:
        value = updated.value
        if id(original) in self.shown:
            return updated
        while isinstance(value, cst.Call) and value.args and value.args[0].keyword is None \
                and not value.args[0].star and code(value.func) in self.wrappers:
            value = value.args[0].value
        if value is not updated.value and not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)):
            return updated  # (`np.asarray(x)` of no call: left alone)
        updated = updated.with_changes(value=value)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == self.convert \
                and len(value.args) == 1 and value.args[0].keyword is None and not value.args[0].star \
                and isinstance(value.args[0].value, cst.Call):
            return updated.with_changes(value=value.args[0].value)
        call = _unconverted(value)
        if call is not value and call is not None and isinstance(call.func, cst.Name):  # run_loss(x=x).numpy()
            return updated.with_changes(value=call)
        return updated


def _unconverted(expr: cst.BaseExpression) -> Optional[cst.Call]:
    """``call`` for ``call.numpy()`` or ``call`` itself (a call), else None."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "numpy" \
            and not expr.args and isinstance(expr.func.value, cst.Call):
        return expr.func.value
    return expr if isinstance(expr, cst.Call) else None


def statement_lines(node: cst.CSTNode) -> List[cst.SimpleStatementLine]:
    """Every simple statement line in ``node``, in the text's order (those of nested blocks too)."""
    found: List[cst.SimpleStatementLine] = []

    class _Lines(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, line: cst.SimpleStatementLine) -> bool:
            found.append(line)
            return False

    node.visit(_Lines())
    return found
