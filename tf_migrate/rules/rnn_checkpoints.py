"""The weight-mapping helpers converted rnn layers call, and TF1-layout checkpoints around Saver.save / restore.

rnn-to-keras gives each layer TF1-layout mirror variables under TF1's names where the file has a
Saver, and saver-var-list keys them as TF1 did (``rnn/lstm_cell/kernel``). This rule keeps the
mirrors and the layer in step where the program saves or restores:

    saver.restore(None, path)
    lstm.set_weights(keras_rnn_weights("lstm", [lstm_kernel, lstm_bias], 3, 1.0))

and ``assign_tf1_rnn_weights(...)`` before each ``saver.save``. So a checkpoint written by the
legacy TF1 program restores into the Keras layer (kernel split at the input width, gates
reordered, forget_bias moved into the bias), and one the migrated program writes has TF1's layout.

It runs after the session rule, on the finished eager code, and adds the helpers
(tf_migrate/codegen/rnn_weights.py) once, after the imports.
"""
from __future__ import annotations

import json
from typing import Dict, List, Set

import libcst as cst

from tf_migrate.codegen.rnn_weights import ASSIGN_TF1_WEIGHTS, HELPERS, KERAS_WEIGHTS, RNNCheckpoint
from tf_migrate.cst.text import code, module_code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._rnn_statements import insert_helpers
from tf_migrate.traversal import visit

RULE_ID = "rnn-checkpoints"


class RNNCheckpoints(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("converted rnn layers and cells: the TF1 <-> Keras weight-mapping helpers, and Saver.save / restore "
                   "kept in TF1's checkpoint layout through TF1-named mirror variables")
    ORDER = 600  # on the eager code the session rule produced
    TRIGGERS = ("rnn",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if f"{KERAS_WEIGHTS}(" not in module_code(module) or f"def {KERAS_WEIGHTS}(" in module_code(module):
            return module  # no converted rnn, or a file migrated before
        checkpoints = [c for c in ctx.rnn_checkpoints if isinstance(c, RNNCheckpoint)]
        if checkpoints:
            savers = _saver_names(module, ctx)
            module = visit(module, _Sync(savers, checkpoints, ctx))
        return insert_helpers(module, HELPERS)


def _saver_names(module: cst.Module, ctx: RuleContext) -> Set[str]:
    found: Set[str] = set()

    class _Savers(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and code(node.value.func).endswith("train.Saver") \
                    and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                found.add(node.targets[0].target.value)

    visit(module, _Savers())
    return found


class _Sync(cst.CSTTransformer):
    def __init__(self, savers: Set[str], checkpoints: List[RNNCheckpoint], ctx: RuleContext) -> None:
        self.savers, self.checkpoints, self.ctx = savers, checkpoints, ctx

    def _uses(self, stmt: cst.BaseStatement) -> Dict[str, bool]:
        methods: Dict[str, bool] = {}
        savers = self.savers

        class _Calls(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                func = call.func
                if isinstance(func, cst.Attribute) and func.attr.value in ("save", "restore") \
                        and isinstance(func.value, cst.Name) and func.value.value in savers:
                    methods[func.attr.value] = True

        visit(stmt, _Calls())
        return methods

    def _around(self, body) -> list:
        out = []
        for stmt in body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                out.append(stmt)
                continue
            uses = self._uses(stmt)
            if uses.get("save"):
                out.extend(self._statements(ASSIGN_TF1_WEIGHTS, stmt.leading_lines))
                stmt = stmt.with_changes(leading_lines=[])
                self.ctx.report(stmt, RULE_ID, INFO, "rnn layer weights copied to their TF1-named mirrors before the "
                                "save, in TF1's layout")
            out.append(stmt)
            if uses.get("restore"):
                out.extend(self._statements(KERAS_WEIGHTS, []))
        return out

    def _statements(self, helper: str, leading) -> List[cst.BaseStatement]:
        lines = []
        for c in self.checkpoints:
            mirrors = "[" + ", ".join(c.mirrors) + "]"
            if helper == KERAS_WEIGHTS:
                lines.append(f"{c.layer}.set_weights({KERAS_WEIGHTS}({json.dumps(c.kind)}, {mirrors}, "
                             f"{c.input_size}, {c.forget_bias}))")
            else:
                lines.append(f"{ASSIGN_TF1_WEIGHTS}({json.dumps(c.kind)}, {c.layer}, {mirrors}, {c.forget_bias})")
        statements = [cst.parse_statement(line + "\n") for line in lines]
        if statements:
            statements[0] = statements[0].with_changes(leading_lines=leading)
        return statements

    def leave_IndentedBlock(self, original, updated):
        return updated.with_changes(body=self._around(updated.body))

    def leave_Module(self, original, updated):
        return updated.with_changes(body=self._around(updated.body))
