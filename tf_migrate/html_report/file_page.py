"""The page of one file: outcome, why compat or failed, verify verdict, findings, and the diff.

Every finding links to its line in the diff (before side: findings name lines of
the input) and sits in a note row under that line, linking back. A notebook
shows one diff per changed cell, and a listing of each unchanged cell that has
findings; its findings name their cell (``path:cell N``, N counting every cell).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

from tf_migrate import report
from tf_migrate.html_report.page import SEVERITIES, VERDICT_MEANING, badge, colour, page, text
from tf_migrate.html_report.side_by_side import diff_table, listing_table, source_lines
from tf_migrate.report import Finding
from tf_migrate.runner import FileOutcome

# Printed output shown per verify run: enough to see the difference, not a whole training log.
_OUTPUT_LINES = 200
_OUTPUT_CHARS = 20_000


@dataclass
class _Block:
    """One piece of source shown on the page: the whole .py file, or one notebook cell."""

    cell: Optional[int]  # 1-based cell number, None for a .py file
    old: str
    new: str

    @property
    def prefix(self) -> str:
        return "" if self.cell is None else f"c{self.cell}-"


def file_page(outcome: FileOutcome, verdict=None, index_href: str = "../index.html") -> str:
    """The HTML of ``outcome``'s page; ``verdict`` is its ``verify.VerifyResult`` when --verify ran."""
    findings = sorted(outcome.findings, key=lambda f: (_cell_of(outcome, f) or 0, f.line, f.col))
    blocks = _blocks(outcome, findings)
    anchors = [_anchor(outcome, f, blocks) for f in findings]
    parts = [f'<nav class="top"><a href="{index_href}">&larr; all files</a></nav>',
             f"<h1>{text(outcome.path)}</h1>", _headline(outcome, findings)]
    parts.append(_reason(outcome, findings, anchors))
    if verdict is not None:
        parts.append(_verdict(verdict))
    parts.append(_findings_list(outcome, findings, anchors))
    parts.append(_changes(outcome, findings, anchors, blocks))
    return page(f"{outcome.path} - tf-migrate report", "\n".join(p for p in parts if p))


def _headline(outcome: FileOutcome, findings: List[Finding]) -> str:
    counts = {s: sum(f.severity == s for f in findings) for s in SEVERITIES}
    told = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no findings"
    written = f" &middot; written to <code>{text(outcome.written)}</code>" if outcome.written else ""
    kind = "notebook" if outcome.kind == "ipynb" else "Python file"
    return f"<p>{badge(outcome.outcome)} &middot; {kind} &middot; {told}{written}</p>"


def _reason(outcome: FileOutcome, findings: List[Finding], anchors: List[Optional[str]]) -> str:
    """Why the file stayed in compat mode or failed, linked to the line that decided it."""
    if outcome.outcome == report.COMPAT:
        title, reason = "Kept in compat mode", outcome.compat_reason
        chosen = next((k for k, f in enumerate(findings)
                       if f.rule == "eager-blocker" and f.message and reason.endswith(f.message)), None)
    elif outcome.outcome == report.FAILED:
        chosen = next((k for k, f in enumerate(findings) if f.severity == report.ERROR), None)
        title, reason = "Failed", findings[chosen].message if chosen is not None else outcome.compat_reason
    elif outcome.outcome == report.SKIPPED:
        return '<p class="muted">This file does not import TensorFlow: tf-migrate left it alone.</p>'
    else:
        return ""
    where = ""
    if chosen is not None:
        at = _where(outcome, findings[chosen])
        link = anchors[chosen]
        where = f' (<a href="{link}">{at}</a>)' if link else f" ({at})"
    return (f'<div class="box" style="border-left-color:{colour(outcome.outcome)}"><strong>{title}:</strong> '
            f"{text(reason) or 'no reason given'}{where}</div>")


def _verdict(verdict) -> str:
    detail = verdict.detail.strip()
    outputs = "".join(f"<h3>{label} run printed</h3><pre>{text(_shorten(printed)) or '(nothing)'}</pre>"
                      for label, printed in (("Legacy", verdict.legacy_output),
                                             ("Migrated", verdict.migrated_output)))
    return (f'<div class="box" style="border-left-color:{colour(verdict.status)}"><p><strong>Verify:</strong> '
            f"{badge(verdict.status)} <span class=\"muted\">(both runs took {verdict.seconds:.1f} s)</span></p>"
            f"<p>{VERDICT_MEANING.get(verdict.status, '')}</p>"
            + (f"<pre>{text(detail)}</pre>" if detail else "")
            + f"<details><summary>What the two runs printed</summary>{outputs}</details></div>")


def _findings_list(outcome: FileOutcome, findings: List[Finding], anchors: List[Optional[str]]) -> str:
    if not findings:
        return ""
    items = []
    for k, (finding, anchor) in enumerate(zip(findings, anchors), 1):
        where = _where(outcome, finding)
        where = f'<a class="where" href="{anchor}">{where}</a>' if anchor else f'<span class="where">{where}</span>'
        items.append(f'<li id="f{k}">{badge(finding.severity)} {where} <span class="rule">{text(finding.rule)}</span>'
                     f" {text(finding.message)}</li>")
    return f'<h2>Findings ({len(findings)})</h2>\n<ol class="findings">\n' + "\n".join(items) + "\n</ol>"


def _changes(outcome: FileOutcome, findings: List[Finding], anchors: List[Optional[str]],
             blocks: List[_Block]) -> str:
    if not blocks:
        if outcome.outcome == report.FAILED and not outcome.source:
            return '<p class="muted">The file could not be read: there is no source to show.</p>'
        return "" if outcome.outcome == report.SKIPPED else '<p class="muted">No changes.</p>'
    parts = ["<h2>Changes</h2>" if any(b.old != b.new for b in blocks) else "<h2>Source</h2>"]
    if outcome.kind == "ipynb":
        parts.append('<p class="muted">Cells are numbered counting every cell, markdown too; only changed '
                     "cells and cells with findings are shown.</p>")
    for block in blocks:
        notes = _notes(block, findings, anchors)
        if block.cell is not None:
            state = "changed" if block.old != block.new else "unchanged"
            parts.append(f'<h3 id="cell{block.cell}">Cell {block.cell} <span class="muted">({state})</span></h3>')
        if block.old == block.new:
            parts.append(listing_table(block.old, notes, block.prefix))
            continue
        table, count = diff_table(block.old, block.new, notes, block.prefix)
        jumps = " ".join(f'<a href="#{block.prefix}chg{n}">{n}</a>' for n in range(1, count + 1))
        parts.append(f'<p class="jump">{count} change{"s" if count != 1 else ""}: {jumps}</p>{table}')
    return "\n".join(parts)


def _notes(block: _Block, findings: List[Finding], anchors: List[Optional[str]]) -> Dict[int, str]:
    """Before-side line -> the findings shown under it, each linking back to the list."""
    notes: Dict[int, List[str]] = {}
    for k, (finding, anchor) in enumerate(zip(findings, anchors), 1):
        if anchor == f"#{block.prefix}o{finding.line}":
            notes.setdefault(finding.line, []).append(
                f'<span class="item">{badge(finding.severity)} <span class="rule">{text(finding.rule)}</span> '
                f'{text(finding.message)} <a href="#f{k}">finding {k}</a></span>')
    return {line: "".join(items) for line, items in notes.items()}


def _blocks(outcome: FileOutcome, findings: List[Finding]) -> List[_Block]:
    if not outcome.source or outcome.outcome == report.SKIPPED:
        return []
    if outcome.kind != "ipynb":
        shown = outcome.changed or findings
        return [_Block(None, outcome.source, outcome.new_source)] if shown else []
    old_cells, new_cells = _cells(outcome.source, outcome.path), _cells(outcome.new_source, outcome.path)
    if len(new_cells) != len(old_cells):
        new_cells = old_cells
    with_findings = {_cell_of(outcome, f) for f in findings}
    return [_Block(number, old, new) for number, (old, new) in enumerate(zip(old_cells, new_cells), 1)
            if old is not None and (old != new or number in with_findings)]


def _cells(text_: str, path: str) -> List[Optional[str]]:
    """The source of every cell of a notebook (None for markdown and raw cells); [] if it cannot be read."""
    from tf_migrate import notebook  # nbformat costs ~0.1 s to import: only for notebooks

    try:
        nb = notebook.read_notebook(text_, path)
    except Exception:  # a notebook that failed to read: its page shows the findings alone
        return []
    return [cell.source if cell.cell_type == "code" else None for cell in nb.cells]


def _cell_of(outcome: FileOutcome, finding: Finding) -> Optional[int]:
    head = f"{outcome.path}:cell "
    if outcome.kind == "ipynb" and finding.path.startswith(head) and finding.path[len(head):].isdigit():
        return int(finding.path[len(head):])
    return None


def _anchor(outcome: FileOutcome, finding: Finding, blocks: List[_Block]) -> Optional[str]:
    """``#id`` of the line ``finding`` names, if the page shows that line."""
    cell = _cell_of(outcome, finding)
    for block in blocks:
        if block.cell == cell and 1 <= finding.line <= len(source_lines(block.old)):
            return f"#{block.prefix}o{finding.line}"
    return None


def _where(outcome: FileOutcome, finding: Finding) -> str:
    cell = _cell_of(outcome, finding)
    place = f"line {finding.line}:{finding.col}" if finding.line else "file"
    return f"cell {cell}, {place}" if cell is not None else place


def _shorten(output: str) -> str:
    lines = output.splitlines()
    if len(lines) <= _OUTPUT_LINES and len(output) <= _OUTPUT_CHARS:
        return output
    cut = "\n".join(lines[:_OUTPUT_LINES])[:_OUTPUT_CHARS]
    return f"{cut}\n... (cut here: {len(lines)} lines in all)"

