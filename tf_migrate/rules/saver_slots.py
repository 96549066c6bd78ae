"""A Saver whose program restores and trains on keeps the optimizers' slots, as TF1's ``Saver()`` did.

TF1's ``Saver()`` listed Adam's moments and beta powers with the model's variables, so a program
that restores a checkpoint and trains on (a resumed run) resumes them too. saver-var-list lists the
model's variables under their TF1 names; where such a program trains after a restore it asks this
rule, which names the optimizers TF1's list held, the ones stepped before the Saver was built:

    optimizer = tf.compat.v1.train.AdamOptimizer(0.1)
    train = optimizer.minimize(loss)
    saver = tf.compat.v1.train.Saver(var_list={"W": W, "b": b}, optimizers=[optimizer])

``optimizers=`` is this rule's note to saver-slot-class, which, on the finished eager code, makes
the call a ``SaverWithSlots`` (:mod:`tf_migrate.codegen.optimizer_slots`) that lists the slots by
their TF1 names at each save and restore.

saver-var-list keeps the file compat for such a Saver; this rule lifts that blocker where it knows
TF1's names for the slots, and otherwise gives the reason: an optimizer that is a Keras one in the
eager code (its slots are Keras variables), one stepped in a ``with`` block (scopes rename its beta
powers), in a loop, a function or after the Saver, or by an expression other than a name bound once
in the Saver's block; two optimizers of one name (``w/Adam`` and ``w/Adam_2``: the checkpoint does
not say which optimizer's slot is which, and a restore makes the slots by those names).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls
from tf_migrate.codegen.optimizer_slots import SLOTLESS, SLOTS
from tf_migrate.cst.arguments import argument, keyword
from tf_migrate.cst.statements import statement_lines
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import Layout
from tf_migrate.traversal import visit

RULE_ID = "saver-slots"
OPTIMIZERS_KEYWORD = "optimizers"  # the note saver-slot-class reads
_STEPS = ("minimize", "apply_gradients")  # the calls that made TF1's slots
_BLOCKED = ("the program restores a checkpoint and then trains with an optimizer that has slots: TF1's Saver() "
            "restored them too (Adam's moments), and {why}")


class SaverSlots(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("a Saver of a program that trains after a restore also keeps the slots of the optimizers stepped "
                   "before it (Adam's moments, beta powers), by their TF1 names")
    ORDER = 30  # after optimizers (the eager optimizer classes) and hoist-optimizers (each optimizer named)
    TRIGGERS = ("Saver",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if not ctx.slot_savers:
            return module
        layout = Layout()
        visit(module, layout)
        notes: Dict[int, List[str]] = {}
        for saver, blocker in sorted(ctx.slot_savers.items(), key=lambda item: item[0]):
            line = _saver_line(module, layout, saver, ctx)
            if line is None:
                continue  # (saver-var-list's blocker stays)
            optimizers, why = _stepped_before(module, layout, line, ctx)
            ctx.blockers.remove(blocker)
            if why:
                ctx.block(blocker[0], _BLOCKED.format(why=why))
                continue
            notes[id(line.body[0].value)] = optimizers
            ctx.report(line, RULE_ID, INFO, f"the Saver also keeps the slots of {', '.join(optimizers)} by their TF1 "
                                            "names, as TF1's Saver() did: the program trains on after a restore")
        return visit(module, _Note(notes)) if notes else module


def _saver_line(module: cst.Module, layout: Layout, saver: str,
                ctx: RuleContext) -> Optional[cst.SimpleStatementLine]:
    """The one line ``saver = ...Saver(var_list={...})`` saver-var-list wrote."""
    found = []
    for stmt_id, (body, index, _, _) in layout.where.items():
        stmt = body[index]
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
            assign = stmt.body[0]
            if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name) \
                    and assign.targets[0].target.value == saver and isinstance(assign.value, cst.Call) \
                    and ctx.names.call_name(assign.value) == "tf.train.Saver":
                found.append(stmt)
    return found[0] if len(found) == 1 else None


def _stepped_before(module: cst.Module, layout: Layout, line: cst.SimpleStatementLine,
                    ctx: RuleContext) -> Tuple[List[str], str]:
    """(the names of the optimizers with slots stepped before the Saver ``line``, in the order TF1 made their
    slots; why not, or "")."""
    body, at, _, _ = layout.where[id(line)]
    constructors = _bindings(body[:at], ctx)
    bindings = {name: ctx.names.call_name(call) or "" for name, call in constructors.items()}
    slotless = {name for name, call in _bindings(module.body, ctx, once=False).items()
                if (ctx.names.call_name(call) or "").rsplit(".", 1)[-1] in SLOTLESS}
    order: List[str] = []
    for call in all_calls(module):
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in _STEPS):
            continue
        receiver = call.func.value
        if isinstance(receiver, cst.Call):  # tf.train.GradientDescentOptimizer(0.5).minimize(loss)
            made = ctx.names.call_name(receiver) or ""
        elif isinstance(receiver, cst.Name) and receiver.value in bindings:
            made = bindings[receiver.value]
        elif isinstance(receiver, cst.Name) and receiver.value in slotless:
            continue
        else:
            return [], f"`{code(receiver)}` steps an optimizer the Saver's block does not make once before it"
        tf1_class = made.rsplit(".", 1)[-1]
        if tf1_class in SLOTLESS:
            continue
        if not made.startswith("tf.train.") or tf1_class not in SLOTS:
            return [], f"`{code(receiver)}` is `{made}` in the eager code, whose slots have no TF1 names"
        if not isinstance(receiver, cst.Name) or _top_level_index(body[:at], call) is None:
            return [], (f"`{code(call.func)}` stands in a block, a function or after the Saver, where TF1's "
                        "names for the slots it made are not known here")
        if receiver.value not in order:
            order.append(receiver.value)
    if not order:
        return [], "no optimizer with slots is stepped before the Saver in its block"
    named = [_tf1_name(constructors[name], ctx) for name in order]
    if None in named or len(set(named)) != len(named):  # slots of `w` by two optimizers named Adam: `w/Adam`,
        # `w/Adam_2`; the checkpoint does not say which optimizer trained which variable
        return [], "two optimizers share a name (or one has a computed name), so TF1's slot names do not say whose"
    return order, ""


def _tf1_name(constructor: cst.Call, ctx: RuleContext) -> Optional[str]:
    """The name TF1 gave the optimizer's slots (``w/Adam``): its ``name=`` string, else its class's default."""
    given = argument(constructor, "name")
    if given is None:
        tf1_class = (ctx.names.call_name(constructor) or "").rsplit(".", 1)[-1]
        return tf1_class[:-len("Optimizer")]
    return given.evaluated_value if isinstance(given, cst.SimpleString) else None


def _bindings(statements: Sequence[cst.BaseStatement], ctx: RuleContext, once: bool = True) -> Dict[str, cst.Call]:
    """name -> the optimizer's constructor, for names the statements bind (once), to an optimizer made there
    (``once=False``: in any line of any block)."""
    counts: Dict[str, int] = {}
    made: Dict[str, cst.Call] = {}
    lines = statements if once else [line for stmt in statements for line in statement_lines(stmt)]
    for stmt in lines:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                    and isinstance(small.targets[0].target, cst.Name):
                name = small.targets[0].target.value
                counts[name] = counts.get(name, 0) + 1
                qualname = ctx.names.call_name(small.value) if isinstance(small.value, cst.Call) else None
                if qualname and (qualname.endswith("Optimizer") or ".optimizers." in qualname):
                    made[name] = small.value
    return {name: call for name, call in made.items() if counts[name] == 1 or not once}


def _top_level_index(statements: Sequence[cst.BaseStatement], call: cst.Call) -> Optional[int]:
    """The index of the simple statement line among ``statements`` that holds ``call``, if one does."""
    for index, stmt in enumerate(statements):
        if isinstance(stmt, cst.SimpleStatementLine) and any(c is call for c in all_calls(stmt)):
            return index
    return None


class _Note(cst.CSTTransformer):
    def __init__(self, notes: Dict[int, List[str]]) -> None:
        self.notes = notes

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        optimizers = self.notes.get(id(original))
        if optimizers is None:
            return updated
        listed = cst.parse_expression("[" + ", ".join(optimizers) + "]")
        args = list(updated.args)
        args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated.with_changes(args=args + [keyword(OPTIMIZERS_KEYWORD, listed)])
