"""The frame every report page shares: one inline style sheet, badges, and the names of outcomes.

Nothing here refers to anything outside the page: no fonts, scripts or images
to fetch, so a report opens the same from a laptop, a CI artifact or an
e-mail attachment.
"""
from __future__ import annotations

import html

from tf_migrate import report, verify

# Outcomes and verdicts in the order people read them; colours pass WCAG AA against white text.
OUTCOMES = ((report.FAILED, "failed", "#cf222e"), (report.COMPAT, "kept in compat mode", "#9a6700"),
            (report.EAGER, "converted to eager", "#1a7f37"), (report.UNCHANGED, "unchanged", "#59636e"),
            (report.SKIPPED, "skipped (no TensorFlow)", "#8c959f"))
VERDICTS = ((verify.EQUIVALENT, "#1a7f37"), (verify.DIFFERENT, "#cf222e"), (verify.MIGRATED_FAILS, "#a40e26"),
            (verify.LEGACY_FAILS, "#bc4c00"), (verify.NO_COMPUTATION, "#0969da"), (verify.NOT_COMPARABLE, "#59636e"))
# What each verdict means, for a reader who has not read the --verify docs.
VERDICT_MEANING = {
    verify.EQUIVALENT: "both programs printed the same values (within tolerance)",
    verify.DIFFERENT: "the migrated program printed something else; the first difference:",
    verify.MIGRATED_FAILS: "the legacy program runs, the migrated one fails; its error:",
    verify.LEGACY_FAILS: "the legacy program fails on its own under TF1 semantics, so there is nothing to compare; "
                         "its error:",
    verify.NO_COMPUTATION: "the legacy program computes nothing on its own (it opens no Session: a module of "
                           "functions); both versions run to their end",
    verify.NOT_COMPARABLE: "the two runs cannot be judged against each other; why:",
}
SEVERITIES = (report.ERROR, report.WARNING, report.INFO)
_COLOURS = {name: colour for name, _, colour in OUTCOMES}
_COLOURS.update(VERDICTS)
_COLOURS.update({report.ERROR: "#cf222e", report.WARNING: "#9a6700", report.INFO: "#0969da"})

_STYLE = """
:root { color-scheme: light; }
body { margin: 0 auto; padding: 12px 28px 48px; max-width: 1700px; color: #1f2328; background: #fff;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.5em; margin: .4em 0 .2em; overflow-wrap: anywhere; }
h2 { font-size: 1.2em; margin: 1.6em 0 .5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .2em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .4em; }
a { color: #0969da; }
code, pre, table.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono",
  "Liberation Mono", monospace; font-size: 13px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; border: 1px solid #d1d9e0;
  border-radius: 6px; padding: 8px 10px; margin: .4em 0; max-height: 30em; overflow-y: auto; }
nav.top { font-size: .95em; color: #59636e; }
.muted { color: #59636e; }
.badge { display: inline-block; padding: 0 .55em; border-radius: 1em; color: #fff; font-size: .85em;
  font-weight: 600; line-height: 1.6; white-space: nowrap; }
.summary { display: flex; flex-wrap: wrap; gap: 12px 48px; align-items: flex-start; }
.summary figure { margin: 0; }
.summary figcaption { font-weight: 600; margin-bottom: 4px; }
svg.chart text { font: 13px system-ui, sans-serif; fill: #1f2328; }
svg.chart a:hover rect { opacity: .8; }
table.files { border-collapse: collapse; width: 100%; }
table.files th, table.files td { text-align: left; vertical-align: top; padding: 4px 10px;
  border-bottom: 1px solid #d1d9e0; }
table.files td.path { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px;
  overflow-wrap: anywhere; }
table.files th:first-child { width: 38%; }
table.files td.n { text-align: right; white-space: nowrap; }
table.files tr.group th { background: #f6f8fa; font-size: 1em; padding-top: 10px; }
table.files tbody tr:not(.group):hover { background: #f6f8fa; }
ol.findings { padding-left: 2.2em; }
ol.findings li { margin: 2px 0; }
ol.findings li:target { background: #fff8c5; }
.where { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
.rule { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; color: #59636e; }
.box { border: 1px solid #d1d9e0; border-left-width: 6px; border-radius: 6px; padding: 6px 12px; margin: .6em 0; }
.jump { font-size: .9em; }
table.code { width: 100%; table-layout: fixed; border-collapse: collapse; border: 1px solid #d1d9e0;
  margin-bottom: 1em; }
table.code col.num { width: 4.2em; }
table.code thead th { position: sticky; top: 0; background: #eaeef2; text-align: left; padding: 4px 8px;
  font: 600 13px system-ui, sans-serif; border-bottom: 1px solid #d1d9e0; z-index: 1; }
table.code td { vertical-align: top; padding: 0 8px; line-height: 1.5; }
table.code td.src { white-space: pre-wrap; overflow-wrap: anywhere; tab-size: 4; }
table.code td.num { text-align: right; color: #59636e; background: #f6f8fa; border-right: 1px solid #d1d9e0;
  user-select: none; }
table.code td.num a { color: inherit; text-decoration: none; }
table.code td.del { background: #ffebe9; }
table.code td.add { background: #dafbe1; }
table.code td.none { background: #f6f8fa; }
table.code td.del .x { background: #ffc1bd; border-radius: 2px; }
table.code td.add .x { background: #9be9a8; border-radius: 2px; }
table.code tr.change td { border-top: 1px solid #d1d9e0; }
table.code tr.note td { background: #fff8c5; font: 13px/1.4 system-ui, sans-serif; white-space: normal;
  padding: 3px 8px; border-top: 1px solid #eed888; border-bottom: 1px solid #eed888; }
table.code tr.note .item { display: block; }
table.code td:target, table.code td:target + td { background: #fff1a8; box-shadow: inset 0 0 0 2px #bf8700; }
"""


def page(title: str, body: str) -> str:
    """A complete HTML document: ``title`` is plain text, ``body`` is HTML."""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")


def colour(name: str) -> str:
    """The colour of an outcome, verdict or severity."""
    return _COLOURS.get(name, "#59636e")


def badge(name: str) -> str:
    return f'<span class="badge" style="background:{colour(name)}">{html.escape(name)}</span>'


def text(value: str) -> str:
    """Plain text as HTML (quotes escaped too, so it is safe in attributes)."""
    return html.escape(value, quote=True)
