"""Placeholders made in one tuple assignment -> one assignment each.

    X, Y = tf.placeholder('float'), tf.placeholder('float')   ->   X = tf.placeholder('float')
                                                                    Y = tf.placeholder('float')

A tutorial habit (helloJamest's linear regression). The value model types a name by the statement that binds it,
one value per statement: both names of the tuple were the statement's, neither known as a placeholder, and the run
feeding them kept the file compat ("cannot tell its dtype"). One line per name is the same program when no element
reads a name the line binds (Python evaluates the whole tuple first; split, each element sees the names bound
before it): only elements that are TF calls reading none of the targets are split, and only where a placeholder is
among them.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import reads, symbol_key
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "placeholder-tuples"


class PlaceholderTuples(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "X, Y = tf.placeholder(...), tf.placeholder(...) -> one assignment per placeholder"
    ORDER = 1  # before placeholder-aliases and every rule that reads placeholders and their feeds
    TRIGGERS = ("placeholder",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Bodies(ctx))


class _Bodies(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = self._split(updated.body)
        return updated if body is None else updated.with_changes(body=body)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        body = self._split(updated.body)
        return updated if body is None else updated.with_changes(body=body)

    def _split(self, body: Sequence[cst.BaseStatement]) -> Optional[List[cst.BaseStatement]]:
        """The body with each placeholder tuple split (None: nothing to split, the same nodes)."""
        new: List[cst.BaseStatement] = []
        changed = False
        for line in body:
            lines = self._lines(line)
            if lines is None:
                new.append(line)
                continue
            changed = True
            new.extend(lines)
        return new if changed else None

    def _lines(self, line: cst.BaseStatement) -> Optional[List[cst.SimpleStatementLine]]:
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
                and isinstance(line.body[0], cst.Assign) and len(line.body[0].targets) == 1):
            return None
        assign = line.body[0]
        targets, values = assign.targets[0].target, assign.value
        if not (isinstance(targets, (cst.Tuple, cst.List)) and isinstance(values, (cst.Tuple, cst.List))
                and len(targets.elements) == len(values.elements) > 1):
            return None
        keys = [symbol_key(element.value) if isinstance(element, cst.Element) else None
                for element in targets.elements]
        if None in keys or len(set(keys)) != len(keys) \
                or any(not isinstance(element, cst.Element) for element in values.elements):
            return None
        calls = [element.value for element in values.elements]
        qualnames = [self.ctx.names.call_name(call) if isinstance(call, cst.Call) else None for call in calls]
        if not any(name in api.PLACEHOLDERS for name in qualnames) \
                or not all(name and name.startswith("tf.") for name in qualnames):
            return None
        read = set().union(*(reads(call) for call in calls))
        if any(key == other or other.startswith(key + ".") for key in keys for other in read):
            return None  # (an element reads a name the line binds: split, it would read the new value)
        self.ctx.report(line, RULE_ID, INFO, f"`{', '.join(keys)}` made one per line (each a placeholder or "
                                              "a tensor of its own)")
        lines = []
        for index, (target, call) in enumerate(zip(targets.elements, calls)):
            first, last = index == 0, index == len(calls) - 1
            statement = cst.Assign(targets=[cst.AssignTarget(target.value)], value=call)
            lines.append(cst.SimpleStatementLine(
                body=[statement], leading_lines=line.leading_lines if first else [],
                trailing_whitespace=line.trailing_whitespace if last else cst.TrailingWhitespace()))
        return lines
