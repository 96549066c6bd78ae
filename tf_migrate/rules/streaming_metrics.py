"""TF1 streaming metrics -> Keras metrics, updated, read and reset where TF1 did.

``acc, acc_op = tf.metrics.accuracy(labels, predictions)`` made two local variables (a total and a count),
``acc`` (their quotient) and ``acc_op`` (the update, whose value is the quotient after it); each
``sess.run(tf.local_variables_initializer())`` set the variables to zero again. It becomes::

    acc_metric = tf.keras.metrics.Accuracy()
    acc = acc_metric.result()
    acc_op = acc_metric(labels, predictions)  # update_state, then result

and ``acc_metric.reset_state()`` after each statement that ran the local initializer (directly, or through a name
bound to an expression holding it: ``init = tf.group(global_init, tf.local_variables_initializer())``). The
session rule then treats the metric as an object built once (``analysis/built_objects``): the two lines after it
run in the runs that fetch them, the resets where they stand.

A line that keeps one half (``acc_op = tf.metrics.accuracy(...)[1]``, MorvanZhou's tutorials) gets the metric and
that half alone.

Converted: ``tf.metrics.accuracy`` and ``tf.metrics.mean`` (Keras' ``Accuracy`` and ``Mean`` keep TF1's sums and
counts, per element), bound at module level, in a module whose local-initializer runs are module-level code too.
Left alone, so the file stays compat with the reason (``tf.metrics`` has no eager form): other metrics (their
Keras namesakes differ: thresholds, per-sample means), ``weights=`` (TF1 broadcast them to the predictions),
the collection arguments, metrics made in functions or classes, and any module that reads the local variables by
collection (``tf.local_variables()``, ``LOCAL_VARIABLES`` / ``METRIC_VARIABLES``, ``variables_initializer``
over them: eager code has no such collection).
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.arguments import bind_known
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "streaming-metrics"
_KERAS = {"tf.metrics.accuracy": ("Accuracy", ["labels", "predictions"]), "tf.metrics.mean": ("Mean", ["values"])}
_OPTIONAL = ["weights", "metrics_collections", "updates_collections", "name"]
_LOCAL_INIT = "tf.local_variables_initializer"
# Reads of the local variables by collection (not tf.local_variables_initializer itself).
_COLLECTION_READS = re.compile(r"LOCAL_VARIABLES|METRIC_VARIABLES|\b(local_variables|metric_variables|"
                               r"variables_initializer)\(")


class StreamingMetricsToKeras(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.metrics.accuracy / mean -> tf.keras.metrics.Accuracy / Mean: update and value per run, "
                   "reset_state() where the local initializer ran")
    ORDER = 440
    TRIGGERS = ("metrics",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if _COLLECTION_READS.search(ctx.original_source):
            return module
        found = _Find(ctx)
        visit(module, found)
        if found.refused or not found.metrics:
            return module
        taken = set(all_names(module))
        names = {id(line): fresh(f"{target}_metric", taken) for line, target in found.metrics}
        return visit(module, _Rewrite(ctx, found, names))


class _Find(cst.CSTVisitor):
    """The module-level metric lines and the lines that run the local initializer, in text order."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.depth = 0  # inside a def, class or lambda
        self.order: Dict[int, int] = {}  # id(line) -> its position
        self.metrics: List = []  # (line, the value's name)
        self.local_inits: Set[str] = set()  # names bound to an expression holding the local initializer
        self.resets: List[cst.SimpleStatementLine] = []
        self.refused = False

    def visit_FunctionDef(self, node) -> None:
        self.depth += 1

    def leave_FunctionDef(self, node) -> None:
        self.depth -= 1

    def visit_ClassDef(self, node) -> None:
        self.depth += 1

    def leave_ClassDef(self, node) -> None:
        self.depth -= 1

    def visit_SimpleStatementLine(self, line: cst.SimpleStatementLine) -> None:
        self.order[id(line)] = len(self.order)
        calls = [q for q in (self.ctx.names.call_name(c) for c in all_calls(line)) if q]
        metric_calls = [q for q in calls if q.startswith("tf.metrics.")]
        if metric_calls:
            target = _metric_target(line, self.ctx) if self.depth == 0 and len(metric_calls) == 1 else None
            if target is None:
                self.refused = True  # left as it is: the file stays compat with tf.metrics' reason
            else:
                self.metrics.append((line, target))
        initializes = _LOCAL_INIT in calls or bool(all_names(line) & self.local_inits)
        if not initializes:
            return
        small = line.body[0]
        if isinstance(small, cst.Assign) and not _runs(line):
            if self.depth == 0 and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                self.local_inits.add(small.targets[0].target.value)
            else:
                self.refused = True
        elif _runs(line) and self.depth == 0:
            self.resets.append(line)
        else:
            self.refused = True  # run elsewhere (a function, a method): where it runs, the rule does not follow


class _Rewrite(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, found: _Find, names: Dict[int, str]) -> None:
        self.ctx, self.found, self.names = ctx, found, names
        self.resets = {id(line) for line in found.resets}

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        tf = self.ctx.tf
        if id(original) in self.names:
            name = self.names[id(original)]
            small = original.body[0]
            call, kept = _metric_call(small)
            keras, required = _KERAS[self.ctx.names.call_name(call)]
            bound = bind_known(call, required + _OPTIONAL)
            arguments = ", ".join(code(bound[p]) for p in required)
            self.ctx.report(original, RULE_ID, INFO, f"{self.ctx.names.call_name(call)} -> {tf}.keras.metrics.{keras}"
                                                     f" `{name}`: result() per run, called to update")
            target = code(small.targets[0].target)
            lines = [f"{name} = {tf}.keras.metrics.{keras}()"] + (
                [f"{target} = {name}.result()"] if kept == 0 else [f"{target} = {name}({arguments})"] if kept == 1
                else [f"{code(small.targets[0].target.elements[0].value)} = {name}.result()",
                      f"{code(small.targets[0].target.elements[1].value)} = {name}({arguments})"])
            first = cst.parse_statement(lines[0]).with_changes(leading_lines=original.leading_lines)
            return cst.FlattenSentinel([first] + [cst.parse_statement(text) for text in lines[1:]])
        if id(original) in self.resets:
            at = self.found.order[id(original)]
            made = [self.names[id(line)] for line, _ in self.found.metrics if self.found.order[id(line)] < at]
            if made:
                return cst.FlattenSentinel([updated] + [cst.parse_statement(f"{m}.reset_state()") for m in made])
        return updated


def _metric_call(small: cst.Assign) -> Tuple[Optional[cst.Call], Optional[int]]:
    """(the metric call, the index of the pair an assignment keeps: ``tf.metrics.accuracy(...)[1]`` keeps the
    update, None where it keeps both)."""
    value = small.value
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.slice[0].slice.value, cst.Integer) and value.slice[0].slice.value.value in "01":
        return (value.value if isinstance(value.value, cst.Call) else None), int(value.slice[0].slice.value.value)
    return (value if isinstance(value, cst.Call) else None), None


def _metric_target(line: cst.SimpleStatementLine, ctx: RuleContext) -> Optional[str]:
    """The name of ``value, update = tf.metrics.<converted>(...)``'s value, or of ``update =
    tf.metrics.<converted>(...)[1]`` (``[0]``: the value) (None: not that form)."""
    small = line.body[0] if len(line.body) == 1 else None
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None
    call, kept = _metric_call(small)
    if call is None:
        return None
    target = small.targets[0].target
    qualname = ctx.names.call_name(call)
    if qualname not in _KERAS:
        return None
    if kept is not None:
        if not isinstance(target, cst.Name):
            return None
    elif not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) != 2 or not all(
            isinstance(e.value, cst.Name) and not isinstance(e, cst.StarredElement) for e in target.elements):
        return None
    if any(a.star for a in call.args):
        return None
    required = _KERAS[qualname][1]
    bound = bind_known(call, required + _OPTIONAL)
    if set(required) - set(bound) or set(bound) - set(required) - {"name"} or len(bound) != len(call.args):
        return None  # weights, collections, or arguments TF1 would not take
    return target.value if kept is not None else target.elements[0].value.value


def _runs(line: cst.CSTNode) -> bool:
    """Whether the line runs something: ``sess.run(...)`` or ``op.run()``."""
    return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "run" for c in all_calls(line))
