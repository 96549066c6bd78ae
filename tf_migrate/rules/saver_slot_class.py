"""``tf.compat.v1.train.Saver(var_list=..., optimizers=[...])`` -> ``SaverWithSlots(...)``, and its class.

saver-slots notes the optimizers whose slots a Saver keeps (``optimizers=``); on the finished eager
code this rule makes the call the Saver subclass of :mod:`tf_migrate.codegen.optimizer_slots` and
adds its class once, after the imports.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.codegen.optimizer_slots import SAVER_WITH_SLOTS, helper
from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.cst.arguments import find_argument
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import module_code
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import with_module_helper
from tf_migrate.rules.saver_slots import OPTIMIZERS_KEYWORD
from tf_migrate.traversal import visit

RULE_ID = "saver-slot-class"


class SaverSlotClass(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "a Saver that keeps optimizer slots becomes SaverWithSlots, whose class the file carries"
    ORDER = 610  # on the eager code the session rule produced
    TRIGGERS = ("Saver",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if f"{OPTIMIZERS_KEYWORD}=" not in module_code(module):
            return module
        rewrite = _WithSlots(ctx, fresh(SAVER_WITH_SLOTS, reads(module) | set(writes(module))))
        module = visit(module, rewrite)
        return with_module_helper(module, helper(ctx.tf, rewrite.name)) if rewrite.changed else module


class _WithSlots(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, name: str) -> None:
        self.ctx, self.name, self.changed = ctx, name, False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if find_argument(original, OPTIMIZERS_KEYWORD) is None or self.ctx.names.call_name(original) != "tf.train.Saver":
            return updated
        self.changed = True
        return updated.with_changes(func=cst.Name(self.name))
