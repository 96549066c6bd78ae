"""Placeholders declared inside a build-time branch.

Research code often picks its graph with a Python flag::

    if self.prioritized:
        self.ISWeights = tf.placeholder(tf.float32, [None, 1], name='IS_weights')
        self.loss = tf.reduce_mean(self.ISWeights * tf.squared_difference(self.q_target, self.q_eval))
    else:
        self.loss = tf.reduce_mean(tf.squared_difference(self.q_target, self.q_eval))

The ``if`` is one statement of the graph; a run that needs ``self.loss`` computes the whole of it. The
placeholder in it is a parameter of the runs that feed it: its dtype is the placeholder's (TF1 converts the
fed value to it), and the generated function drops the placeholder's line, whose name the parameter holds.
Where the branches declare it with other dtypes (``tf.int32`` labels or one-hot ``tf.float32`` ones), each copied
line casts the parameter to its own instead, as TF1 converted the feed to the placeholder the taken branch made.
A run that does not feed it fails in TF1 where the taken branch needs it; the generated function binds it
to ``None``, which fails where it is read. That is faithful only where everything the branch computes from
the placeholder is something the run needs (:func:`computed_from`): otherwise TF1's run, which needs none of
it, succeeded, and the slice keeps the scope compat.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.traversal import fact
from tf_migrate.tfnames import TFNames


def branch_placeholders(node: cst.CSTNode, names: TFNames) -> Dict[str, Optional[cst.Call]]:
    """Key -> its placeholder call, for each key that ``if`` statement ``node`` binds only as ``key =
    tf.placeholder(...)``: the call where each binding is the same call text, None where the branches declare it
    with other dtypes or shapes (each naming a numeric dtype: ``tf.int32`` labels in one, one-hot ``tf.float32``
    ones in the other). Empty for other statements, and for an ``if`` holding anything but simple statements and
    nested ``if`` s (a loop would declare a placeholder per iteration)."""
    if not isinstance(node, cst.If):
        return {}
    return fact(f"branch-placeholders:{id(names)}", node, lambda n: _placeholders(n, names))


def placeholder_lines(node: cst.If, keys: Set[str], names: TFNames) -> Dict[int, cst.SimpleStatementLine]:
    """id -> line, for each line of ``node`` that declares one of ``keys`` (a placeholder :func:`branch_placeholders`
    found)."""
    found: Dict[int, cst.SimpleStatementLine] = {}
    for line in _lines(node) or []:
        target = _placeholder_target(line, names)
        if target is not None and target in keys:
            found[id(line)] = line
    return found


def computed_from(node: cst.If, key: str) -> Optional[Set[str]]:
    """The keys the lines of ``node`` bind from ``key``, directly or through one another, in their order; None
    where a line uses one of them and binds nothing (``tf.summary.scalar('w', w)``: an effect of its own)."""
    tainted = {key}
    for line in _lines(node) or []:
        if reads(line) & tainted:
            bound = set(writes(line))
            if not bound:
                return None
            tainted |= bound
    return tainted - {key}


def _placeholders(node: cst.If, names: TFNames) -> Dict[str, Optional[cst.Call]]:
    lines = _lines(node)
    if lines is None:
        return {}
    found: Dict[str, Optional[cst.Call]] = {}
    other: Set[str] = set()
    for line in lines:
        target = _placeholder_target(line, names)
        if target is None:
            other.update(writes(line))
            continue
        call = line.body[0].value
        if target in found and (found[target] is None or not found[target].deep_equals(call)):
            found[target] = None  # declared otherwise in another branch (the classifier checks each line's dtype)
            continue
        found.setdefault(target, call)
    return {key: call for key, call in found.items() if key not in other}


def _placeholder_target(line: cst.SimpleStatementLine, names: TFNames) -> Optional[str]:
    if len(line.body) != 1 or not isinstance(line.body[0], cst.Assign) or len(line.body[0].targets) != 1:
        return None
    assign = line.body[0]
    if not isinstance(assign.value, cst.Call) or names.call_name(assign.value) not in api.PLACEHOLDERS:
        return None
    if (names.call_name(assign.value) or "").endswith("placeholder_with_default"):
        return None  # a default: the unfed run reads it, which ``None`` would not give
    return symbol_key(assign.targets[0].target)


def _lines(node: cst.If) -> Optional[List[cst.SimpleStatementLine]]:
    """The simple statement lines of the ``if`` in text order, through nested ``if`` s; None if it holds others."""
    orelse = node.orelse
    blocks = [node.body] + ([orelse.body] if isinstance(orelse, cst.Else) else [])
    if not all(isinstance(block, cst.IndentedBlock) for block in blocks):
        return None  # `if flag: x = ...` on one line
    items = [item for block in blocks for item in block.body] + ([orelse] if isinstance(orelse, cst.If) else [])
    out: List[cst.SimpleStatementLine] = []
    for item in items:
        nested = [item] if isinstance(item, cst.SimpleStatementLine) else _lines(item) if isinstance(
            item, cst.If) else None
        if nested is None:
            return None
        out.extend(nested)
    return out
