"""``out = tf.keras.layers.Dense(1)(h)`` -> a Keras layer bound to a name on the line before, then called.

TF1 graph code that builds with Keras layers often makes and calls a layer in one expression. TF1 ran the statement
once, at build time: one layer, its variables made at the call. A run function recomputing the statement would make
a new layer, with new variables, at every run, so the value model calls the expression "computed at run time" and the
file stayed compat. Bound to a name on the line before (``dense = tf.keras.layers.Dense(1)``; ``out = dense(h)``),
the layer is built where TF1 built it and the call is a layer call the value model knows. The same statements in
the same order, so the same TF1 program: it is a rewrite of TF1 code, as ``hoist-optimizers``' is. Layers made
inside a lambda or a comprehension (one per element) are left as they are.
"""
from __future__ import annotations

import re
from typing import List

import libcst as cst

from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.cst.names import fresh
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "hoist-keras-layers"
_LAYERS = "tf.keras.layers."


class HoistKerasLayers(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "a Keras layer made and called in one expression (`tf.keras.layers.Dense(1)(h)`) is bound to a name " \
                  "on the line before and called by it"
    ORDER = 24
    TRIGGERS = ("keras",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Hoist(ctx, module))


class _Hoist(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx, self.module = ctx, module
        self.taken = None  # the module's names, worked out at the first new name

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, line: cst.SimpleStatementLine):
        if len(line.body) != 1 or not isinstance(line.body[0], (cst.Assign, cst.Expr, cst.Return, cst.AugAssign)):
            return line
        made = _made_and_called(line.body[0], self.ctx)
        if not made:
            return line
        if self.taken is None:
            self.taken = reads(self.module) | set(writes(self.module))
        hoisted: List[cst.BaseStatement] = []
        names = {}
        for constructor in made:  # (in the order Python built them)
            qualname = self.ctx.names.call_name(constructor) or ""
            name = fresh(_snake(qualname[len(_LAYERS):]), self.taken)
            names[id(constructor)] = name
            hoisted.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], constructor)]))
            self.ctx.report(original, RULE_ID, INFO, f"Keras layer bound to `{name}`, built once where TF1 built it")

        class _Swap(cst.CSTTransformer):
            def leave_Call(inner, old: cst.Call, new: cst.Call) -> cst.Call:
                if id(old.func) in names:
                    return new.with_changes(func=cst.Name(names[id(old.func)]))
                return new

        rest = visit(line, _Swap())
        hoisted[0] = hoisted[0].with_changes(leading_lines=line.leading_lines)
        return cst.FlattenSentinel([*hoisted, rest.with_changes(leading_lines=[])])


def _made_and_called(statement: cst.CSTNode, ctx: RuleContext) -> List[cst.Call]:
    """The Keras layer constructors ``statement`` calls the result of at once, outside lambdas and comprehensions,
    in the order Python evaluates them."""
    found: List[cst.Call] = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Call) and _is_layer_class(ctx.names.call_name(func)):
                found.append(func)

        def visit_Lambda(self, node) -> bool:
            return False

        visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda

    visit(statement, _Find())
    return found


def _is_layer_class(qualname) -> bool:
    if not qualname or not qualname.startswith(_LAYERS):
        return False
    name = qualname[len(_LAYERS):]
    return "." not in name and name[:1].isupper()


def _snake(name: str) -> str:
    """``Conv2D`` -> ``conv2d``, ``BatchNormalization`` -> ``batch_normalization``."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower()
