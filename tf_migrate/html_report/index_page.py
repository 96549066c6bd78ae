"""The index page: the run's counts, a chart of outcomes (and verdicts), and a table of every file.

The counts come from the run's ``report.Summary``, so they are the numbers the
terminal summary prints. Files are grouped by outcome, failed first; a bar of
the chart links to its group. An input that could not even be opened (a path
that does not exist) has a row without a page.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from tf_migrate import report
from tf_migrate.html_report.chart import bar_chart
from tf_migrate.html_report.page import OUTCOMES, SEVERITIES, VERDICTS, badge, colour, page, text
from tf_migrate.runner import FileOutcome

_BREAK_AFTER = re.compile(r"(?<=[/\\_.-])")
_CELL = re.compile(r":cell \d+$")  # a notebook's findings name their cell
Entry = Tuple[FileOutcome, str]  # an outcome and the href of its page


def index_page(entries: Sequence[Entry], summary: report.Summary, verdicts: Optional[Dict[str, object]],
               inputs: Sequence[str] = ()) -> str:
    """The HTML of the index; ``verdicts`` maps paths to ``verify.VerifyResult`` (None without --verify)."""
    known = {outcome.path for outcome, _ in entries}
    unread = [f for f in summary.findings if _CELL.sub("", f.path) not in known and f.rule != "verify"]
    parts = ["<h1>tf-migrate report</h1>"]
    if inputs:
        parts.append("<p class=\"muted\">Inputs: " + ", ".join(f"<code>{text(p)}</code>" for p in inputs) + "</p>")
    parts.append(_summary(summary, verdicts is not None))
    if unread:
        parts.append("<h2>Inputs not read</h2><ul>" + "".join(
            f"<li>{badge(f.severity)} <code>{text(f.path)}</code>: {text(f.message)}</li>" for f in unread)
            + "</ul>")
    parts.append(_table(entries, verdicts, [f for f in unread if f.severity == report.ERROR]))
    return page("tf-migrate report", "\n".join(parts))


def _summary(summary: report.Summary, verified: bool) -> str:
    outcomes = ", ".join(f'<span id="count-{name}">{summary.outcomes[name]}</span> {label}'
                         for name, label, _ in OUTCOMES)
    severity = summary.by_severity()
    findings = ", ".join(f'<span id="findings-{s}">{severity[s]}</span> {s}' for s in SEVERITIES)
    lines = [f'<p><strong><span id="count-files">{summary.files_seen}</span> file(s) seen:</strong> {outcomes}.'
             f"<br>Findings: {findings}."]
    figures = [_figure("Outcomes", bar_chart(
        "Files by outcome", [(name, summary.outcomes[name], colour(name), f"#outcome-{name}")
                             for name, label, _ in OUTCOMES]))]
    if verified:
        verdicts = ", ".join(f'<span id="verify-{name}">{summary.verify_counts[name]}</span> {name}'
                             for name, _ in VERDICTS)
        lines.append(f"<br>Verify (each migrated program run against its legacy original): {verdicts}.")
        figures.append(_figure("Verify verdicts", bar_chart(
            "Files by verify verdict", [(name, summary.verify_counts[name], colour(name), None)
                                        for name, _ in VERDICTS])))
    else:
        lines.append('<br><span class="muted">Not verified: run with --verify to run each program before and '
                     "after and compare what they print.</span>")
    return "".join(lines) + '</p>\n<div class="summary">' + "".join(figures) + "</div>"


def _figure(caption: str, chart: str) -> str:
    return f"<figure><figcaption>{caption}</figcaption>{chart}</figure>"


def _table(entries: Sequence[Entry], verdicts: Optional[Dict[str, object]], unread: List[report.Finding]) -> str:
    verified = verdicts is not None
    columns = ["File", "Outcome", "Why compat / failed", "Findings"] + (["Verify"] if verified else [])
    head = "<thead><tr>" + "".join(f"<th>{c}</th>" for c in columns) + "</tr></thead>"
    groups = []
    for name, label, _ in OUTCOMES:
        rows = [_row(outcome, href, verdicts) for outcome, href in sorted(entries, key=lambda e: e[0].path)
                if outcome.outcome == name]
        if name == report.FAILED:
            rows += [_unread_row(f, verified) for f in unread]
        if rows:
            groups.append(f'<tbody id="outcome-{name}"><tr class="group"><th colspan="{len(columns)}">'
                          f"{label.capitalize()} ({len(rows)})</th></tr>\n" + "\n".join(rows) + "</tbody>")
    return '<h2>Files</h2>\n<table class="files">' + head + "\n".join(groups) + "</table>"


def _row(outcome: FileOutcome, href: str, verdicts: Optional[Dict[str, object]]) -> str:
    cells = [f'<td class="path"><a href="{text(href)}">{_breakable(outcome.path)}</a></td>',
             f"<td>{badge(outcome.outcome)}</td>", f"<td>{text(_why(outcome))}</td>",
             f'<td class="n">{_finding_count(outcome)}</td>']
    if verdicts is not None:
        verdict = verdicts.get(outcome.path)
        cells.append(f"<td>{badge(verdict.status)}</td>" if verdict is not None else
                     '<td class="muted">not run</td>')
    return "<tr>" + "".join(cells) + "</tr>"


def _breakable(path: str) -> str:
    """The path as HTML that may wrap after a separator (not in the middle of a name) in a narrow column."""
    return "<wbr>".join(text(piece) for piece in _BREAK_AFTER.split(path))


def _unread_row(finding: report.Finding, verified: bool) -> str:
    return (f'<tr><td class="path">{_breakable(finding.path)}</td><td>{badge(report.FAILED)}</td>'
            f'<td>{text(finding.message)}</td><td class="n">1</td>'
            + ('<td class="muted">not run</td>' if verified else "") + "</tr>")


def _why(outcome: FileOutcome) -> str:
    if outcome.outcome == report.COMPAT:
        return outcome.compat_reason
    if outcome.outcome == report.FAILED:
        return next((f.message for f in outcome.findings if f.severity == report.ERROR), "")
    return ""


def _finding_count(outcome: FileOutcome) -> str:
    serious = [(s, sum(f.severity == s for f in outcome.findings)) for s in (report.ERROR, report.WARNING)]
    detail = ", ".join(f"{n} {s}" for s, n in serious if n)
    return f"{len(outcome.findings)}" + (f' <span class="muted">({detail})</span>' if detail else "")
