"""``h = tf.hessians(f, x)`` -> the gradient, then the Jacobian of the gradient, as two statements.

    hess = tf.hessians(energy, x)

becomes (eager output only)::

    denergy_dx = tf.gradients(energy, [x])[0]
    hess = [jacobian(denergy_dx, x)]

which is what ``tf.hessians`` computes (the Jacobian of ``tf.gradients(ys, xs)[i]`` with
respect to ``xs[i]``: ``x.shape + x.shape``). Two statements are two derivative orders, so
the generated run function differentiates them with nested tapes, the TF2 form of a Hessian
(:mod:`tf_migrate.codegen.nested_tapes`)::

    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.GradientTape() as inner_tape:
            inner_tape.watch(x)
            energy = ...
        denergy_dx = inner_tape.gradient(energy, [x])[0]
    hess = [tape.jacobian(denergy_dx, x)]

A call that is not the whole value of an assignment to a name (or that value indexed by a
literal), or whose ``xs`` is neither one tensor nor a list literal, keeps its one-statement
form: a Jacobian of the gradient on one persistent tape.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from tf_migrate.cst.arguments import bind_known
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import EAGER, Rule, RuleContext
from tf_migrate.rules import _edits as ed
from tf_migrate.rules import _jacobian as jac
from tf_migrate.traversal import visit

RULE_ID = "hessians-as-gradients"


class HessiansAsGradients(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("h = tf.hessians(f, x) -> the gradients of f, then the Jacobian of each gradient, as two "
                   "statements: nested tapes in the eager output")
    ORDER = 7
    TRIGGERS = ("hessians",)
    MODES = (EAGER,)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        layout = ed.Layout()
        visit(module, layout)
        kinds = jac.Kinds(module, ctx.names)
        taken = all_names(module)
        edits = ed.Edits()
        jacobian: Optional[Tuple[str, Optional[str]]] = None
        for stmt, target, call, index in _assignments(module, ctx):
            bound = bind_known(call, ["ys", "xs"])
            if set(bound) != {"ys", "xs"} or len(call.args) != 2:
                continue  # TF1's other arguments (gate_gradients, ...) change how it differentiates: keep it whole
            xs = _sources(bound["xs"], kinds, layout.function_of(stmt) if id(stmt) in layout.where else None)
            if xs is None or (index is not None and index >= len(xs)):
                continue
            if jacobian is None:
                found = jac.jacobian_name(module, ctx, taken)
                if isinstance(found, str):
                    return module
                jacobian = found
            stem = code(bound["ys"]) if isinstance(bound["ys"], cst.Name) else target
            names = [fresh(f"d{stem}_d{x.value}" if isinstance(x, cst.Name) else f"d{stem}_d{i}", taken)
                     for i, x in enumerate(xs)]
            parts = [f"{jacobian[0]}({name}, {code(x)})" for name, x in zip(names, xs)]
            value = f"[{', '.join(parts)}]" if index is None else parts[index]
            call_text = f"{ctx.tf}.gradients({code(bound['ys'])}, [{', '.join(map(code, xs))}])"
            first = f"{names[0]} = {call_text}[0]" if len(names) == 1 else f"{', '.join(names)} = {call_text}"
            edits.statements[id(stmt)] = [
                ed.statement(first, stmt.leading_lines),
                ed.statement(f"{target} = {value}").with_changes(trailing_whitespace=stmt.trailing_whitespace)]
            ctx.report(stmt, RULE_ID, INFO, f"tf.hessians -> {', '.join(names)} = tf.gradients(...), then the "
                                            f"Jacobian of each gradient: a tape per derivative order")
        if not edits:
            return module
        module = visit(module, edits)
        return jac.add_import(module, ctx, jacobian[1]) if jacobian[1] else module


def _assignments(module: cst.Module, ctx: RuleContext):
    """(statement, target name, hessians call, literal index or None) for ``name = tf.hessians(...)[i]``."""
    found: List = []

    class _Find(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, stmt: cst.SimpleStatementLine) -> None:
            if len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign):
                return
            assign = stmt.body[0]
            if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
                return
            value, index = assign.value, None
            if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(
                    value.slice[0].slice, cst.Index):
                index = ed.int_literal(value.slice[0].slice.value)
                if index is None or index < 0:
                    return
                value = value.value
            if isinstance(value, cst.Call) and ctx.names.call_name(value) == "tf.hessians":
                found.append((stmt, assign.targets[0].target.value, value, index))

    visit(module, _Find())
    return found


def _sources(xs: cst.BaseExpression, kinds: "jac.Kinds", function) -> Optional[List[cst.BaseExpression]]:
    """The tensors differentiated against: a list literal's elements, or one tensor; None when unknown."""
    if isinstance(xs, (cst.List, cst.Tuple)):
        elements = [element.value for element in xs.elements]
        if any(isinstance(element, cst.StarredElement) for element in xs.elements) or not elements:
            return None
        return elements
    return [xs] if kinds.is_one_tensor(xs, function) else None
