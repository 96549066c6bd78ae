"""The summaries rule's rewrite: merged summaries become dicts of the summarized tensors, ``add_summary`` writes.

``rules/summaries.py`` surveys where a module registers, merges, fetches and writes its TF1 summaries; this module
rewrites what the survey found: each merge becomes a dict of tag -> tensor, each ``FileWriter`` a TF2 writer
(``create_file_writer``; ``with tf.summary.FileWriter(...) as w:`` its ``as_default()``), each ``add_summary`` the
writes of its values with their TF1 kinds at its step (a compiled writer function when the run functions are
compiled), summary helpers return their values keyed by tag, and ``add_graph`` / ``add_run_metadata`` go.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.codegen.compiled import COMPILED
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import RuleContext
from tf_migrate.rules._summary_helpers import SUMMARIES_KEY, SummaryCall

@dataclass
class Summary:
    """One registered summary (or a summary helper call's group), as the merged dict holds it."""

    kind: str  # "group": the summaries one call of a summary helper registered (``members``)
    tag: str  # the key of the merged dict
    value: cst.BaseExpression
    extra: List[cst.Arg]
    members: List[Tuple[str, str, SummaryCall]] = field(default_factory=list)  # (key in its return, tag, call)
    collections: Tuple[str, ...] = (SUMMARIES_KEY,)  # the keys merge_all(key) selects it by


# FileWriter methods whose statements are dropped: what they wrote has no eager counterpart -> why.
DROPPED_WRITES = {"add_graph": "add_graph dropped: eager code has no graph to write",
                   "add_run_metadata": "add_run_metadata dropped: eager steps have no run metadata (TF2 records "
                                       "traces with tf.summary.trace_on / trace_export)"}


class SummaryWrites(cst.CSTTransformer):
    """The summaries rule's rewrite of what its survey (``rules/summaries._Survey``) found."""

    def __init__(self, ctx: RuleContext, rule_id: str, survey, taken: Set[str]) -> None:
        self.ctx, self.rule_id, self.survey, self.tf = ctx, rule_id, survey, ctx.tf
        self.taken = taken  # names the module uses: a writer function's name avoids them
        self.writer_functions: Dict[str, str] = {}  # the writes' body -> the compiled function writing them
        self.writer_names: Dict[str, str] = {}  # the writes' body -> that function's name

    def _dict(self, summaries: List[Summary]) -> cst.BaseExpression:
        """The merged summary: tag -> tensor (a helper call's group: its key -> the dict it returns)."""
        items = ", ".join(f"{s.tag!r}: {code(s.value)}" for s in summaries)
        return cst.parse_expression("{" + items + "}")

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated):
        survey = self.survey
        small = original.body[0] if len(original.body) == 1 else None
        if (isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                and isinstance(small.value.func, cst.Attribute) and small.value.func.attr.value in DROPPED_WRITES
                and symbol_key(small.value.func.value) in survey.writers):
            self.ctx.report(original, self.rule_id, INFO, DROPPED_WRITES[small.value.func.attr.value])
            return cst.RemoveFromParent()
        if id(original) in survey.helper_calls:
            self.ctx.report(original, self.rule_id, INFO, "summary helper call folded into the merged summary")
            return cst.RemoveFromParent()
        if any(id(original) in helper.lines for helper in survey.helpers.values()):
            return cst.RemoveFromParent()  # the helper returns the value instead
        if id(original) in survey.registered:
            small = original.body[0]
            if isinstance(small, cst.Assign):
                summary = survey.registered[id(original)]
                return updated.with_changes(body=[updated.body[0].with_changes(value=self._dict([summary]))])
            self.ctx.report(original, self.rule_id, INFO, "summary registration folded into the merged summary")
            return cst.RemoveFromParent()
        if id(original) in survey.merge_statements:
            name = survey.merge_statements[id(original)]
            if not survey.merges[name]:  # merge_all() of nothing, never fetched: None, as in TF1
                self.ctx.report(original, self.rule_id, INFO, "merge_all() with no summary registered before it -> None, "
                                                         "as in TF1")
                return updated.with_changes(body=[updated.body[0].with_changes(value=cst.Name("None"))])
            self.ctx.report(original, self.rule_id, INFO, "merged summary -> a dict of the summarized tensors")
            return updated.with_changes(body=[updated.body[0].with_changes(value=self._dict(survey.merges[name]))])
        return updated

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        helper = self.survey.helpers.get(original.name.value)
        if helper is None or not any(f is original for f in self.survey.helper_defs):
            return updated
        items = ", ".join(f"{key!r}: {code(s.value)}" for key, s in helper.summaries.items())
        self.ctx.report(original, self.rule_id, INFO, "summary helper returns its summaries' values, keyed by tag")
        body = [*updated.body.body, cst.parse_statement(f"return {{{items}}}\n")]
        return updated.with_changes(body=updated.body.with_changes(body=body))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) == "tf.summary.FileWriter":
            logdir = updated.args[0]
            if len(updated.args) > 1:
                self.ctx.report(original, self.rule_id, INFO, "FileWriter's graph argument dropped: eager code has no graph")
            return cst.Call(cst.parse_expression(f"{self.tf}.summary.create_file_writer"),
                            args=[logdir.with_changes(comma=cst.MaybeSentinel.DEFAULT)])
        return updated

    def leave_WithItem(self, original: cst.WithItem, updated: cst.WithItem) -> cst.WithItem:
        # TF2's writer is no context manager; its `as_default()` is, and flushes the writer at its end, as closing
        # TF1's FileWriter did (what the block writes names its writer).
        if isinstance(original.item, cst.Call) and self.ctx.names.call_name(original.item) == "tf.summary.FileWriter":
            return updated.with_changes(item=cst.Call(cst.Attribute(updated.item, cst.Name("as_default"))))
        return updated

    def on_leave(self, original, updated):
        if isinstance(original, cst.SimpleStatementLine) and len(original.body) == 1 and isinstance(
                original.body[0], cst.Expr) and any(original.body[0].value is c for c in self.survey.add_calls):
            return self._write_block(original, original.body[0].value)
        return super().on_leave(original, updated)

    def _write_block(self, line: cst.SimpleStatementLine, call: cst.Call):
        """``writer.add_summary(s, step)`` -> the same values written with their TF1 kinds at that step.

        Compiled output calls a ``tf.function`` that writes them (one per set of writes): eager
        ``tf.summary.histogram`` costs ~13 ms a call against ~0.5 ms compiled, which made a training
        loop that summarizes every step ten times slower than TF1's. The step goes in as an int64
        tensor, so a new step does not retrace.
        """
        survey = self.survey
        fetched = symbol_key(call.args[0].value)
        source = survey.add_sources[id(call)]
        summaries = survey.merges.get(source) or [survey.named[source]]
        step = code(call.args[1].value) if len(call.args) > 1 else "0"
        writer = code(call.func.value)
        compiled = self.ctx.functions == COMPILED
        values = fetched.split(".")[-1] if compiled else fetched
        lines = []
        for s in summaries:
            for key, tag, call in s.members:
                extra = "".join(f", {a.keyword.value}={code(a.value)}" for a in call.extra)
                lines.append(self._write(call.kind, tag, f"{values}[{s.tag!r}][{key!r}]", extra, compiled))
            if s.members:
                continue
            extra = "".join(f", {a.keyword.value}={code(a.value)}" for a in s.extra)
            lines.append(self._write(s.kind, s.tag, f"{values}[{s.tag!r}]", extra, compiled))
        count = sum(len(s.members) or 1 for s in summaries)
        self.ctx.report(line, self.rule_id, INFO, f"add_summary -> tf.summary writes of {count} value(s)"
                                             + (", in a tf.function" if compiled else ""))
        if not compiled:
            block = [f"with {writer}.as_default(step={step}):"] + [f"    {write}" for write in lines]
            return cst.parse_statement("\n".join(block) + "\n").with_changes(leading_lines=line.leading_lines)
        name = self._writer_function(values, lines)
        return cst.parse_statement(f"{name}({writer}, {self.tf}.cast({step}, {self.tf}.int64), {fetched})\n").with_changes(
            leading_lines=line.leading_lines)

    def _write(self, kind: str, tag: str, value: str, extra: str, compiled: bool) -> str:
        """One write. A compiled histogram uses TF1's own kernel and writes its proto as TF1 did: TF2's
        ``tf.summary.histogram`` builds its buckets from dozens of ops (6.5 ms for six compiled, against
        1.4 ms for six ``HistogramSummary``), which is most of a small training step."""
        if compiled and kind == "histogram" and not extra:
            return (f"{self.tf}.summary.experimental.write_raw_pb({self.tf}.raw_ops.HistogramSummary(tag={tag!r}, "
                    f"values={value}), step=step)")
        return f"{self.tf}.summary.{kind}({tag!r}, {value}{extra})"

    def _writer_function(self, values: str, writes: List[str]) -> str:
        """The compiled function that makes ``writes`` of the summary values ``values`` (one per distinct set)."""
        body = "\n".join(writes)
        if body not in self.writer_names:
            name = fresh(f"write_{values}", self.taken)
            self.writer_names[body] = name
            self.writer_functions[body] = (
                f"@{self.tf}.function(reduce_retracing=True)\n"
                f"def {name}(writer, step, {values}):\n"
                f"    \"\"\"TF1's add_summary: the summarized values written at an int64 step, compiled.\"\"\"\n"
                f"    with writer.as_default(step=step):\n"
                + "".join(f"        {write}\n" for write in writes))
        return self.writer_names[body]
