"""Side-by-side diff tables and plain listings, escaped, with an anchor on every line.

``difflib.HtmlDiff`` was the first candidate; it is not used because its ids
(``from0_12``) cannot carry a cell prefix of our choosing, it has no room for
notes under a line, and its nowrap cells make long lines scroll the page
sideways. This module pairs lines with ``difflib.SequenceMatcher`` and writes
the table itself: before-side line L of a block gets ``id="{prefix}o{L}"``,
after-side line L gets ``id="{prefix}n{L}"``, and each change starts a row
with ``id="{prefix}chg{K}"``. ``notes`` maps a before-side line to HTML put
in a row under it (the findings at that line).
"""
from __future__ import annotations

import difflib
import html
import re
from typing import Dict, List, Optional, Tuple

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_NEWLINE = re.compile(r"\r\n|\r|\n")
# Lines this long are not compared character by character: the cost grows with their product.
_INTRALINE_LIMIT = 2000


def source_lines(text: str) -> List[str]:
    """The lines of ``text`` as Python numbers them (\\n, \\r\\n and \\r end a line; form feeds do not)."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def code(text: str) -> str:
    """Source text as HTML: escaped, control characters shown as their Unicode pictures."""
    return _CONTROL.sub(lambda m: chr(0x2400 + ord(m.group(0))) if m.group(0) != "\x7f" else "\u2421",
                        html.escape(text, quote=False))


def diff_table(old: str, new: str, notes: Dict[int, str], prefix: str = "") -> Tuple[str, int]:
    """A side-by-side table of ``old`` and ``new``, and how many changes it shows."""
    a, b = source_lines(old), source_lines(new)
    rows: List[str] = []
    changes = 0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        first = len(rows)
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                rows.append(_row(prefix, i + 1, code(a[i]), j + 1, code(b[j]), "eq", "eq"))
                _add_note(rows, notes, i + 1, 4)
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i = i1 + k if i1 + k < i2 else None
            j = j1 + k if j1 + k < j2 else None
            left, right = _intraline(a[i], b[j]) if i is not None and j is not None else (
                code(a[i]) if i is not None else "", code(b[j]) if j is not None else "")
            rows.append(_row(prefix, None if i is None else i + 1, left, None if j is None else j + 1, right,
                             "del" if i is not None else "none", "add" if j is not None else "none"))
            if i is not None:
                _add_note(rows, notes, i + 1, 4)
        changes += 1
        rows[first] = rows[first].replace("<tr>", f'<tr id="{prefix}chg{changes}" class="change">', 1)
    header = ('<thead><tr><th colspan="2">before (legacy)</th><th colspan="2">after (migrated)</th></tr></thead>')
    table = ('<table class="code diff"><colgroup><col class="num"><col class="src"><col class="num">'
             f'<col class="src"></colgroup>{header}<tbody>\n' + "\n".join(rows) + "\n</tbody></table>")
    return table, changes


def listing_table(text: str, notes: Dict[int, str], prefix: str = "") -> str:
    """The lines of an unchanged source, numbered, with the same before-side anchors as a diff."""
    rows: List[str] = []
    for number, line in enumerate(source_lines(text), 1):
        rows.append(f'<tr><td class="num" id="{prefix}o{number}"><a href="#{prefix}o{number}">{number}</a></td>'
                    f'<td class="src eq">{code(line)}</td></tr>')
        _add_note(rows, notes, number, 2)
    return ('<table class="code listing"><colgroup><col class="num"><col class="src"></colgroup><tbody>\n'
            + "\n".join(rows) + "\n</tbody></table>")


def line_count(text: str) -> int:
    return len(source_lines(text))


def _row(prefix: str, old_line: Optional[int], left: str, new_line: Optional[int], right: str,
         left_class: str, right_class: str) -> str:
    return (f"<tr>{_number(prefix, 'o', old_line)}<td class=\"src {left_class}\">{left}</td>"
            f"{_number(prefix, 'n', new_line)}<td class=\"src {right_class}\">{right}</td></tr>")


def _number(prefix: str, side: str, line: Optional[int]) -> str:
    if line is None:
        return '<td class="num"></td>'
    anchor = f"{prefix}{side}{line}"
    return f'<td class="num" id="{anchor}"><a href="#{anchor}">{line}</a></td>'


def _add_note(rows: List[str], notes: Dict[int, str], line: int, columns: int) -> None:
    if line in notes:
        rows.append(f'<tr class="note"><td class="num"></td><td colspan="{columns - 1}">{notes[line]}</td></tr>')


def _intraline(old: str, new: str) -> Tuple[str, str]:
    """Both lines with the characters that differ marked, when the lines are alike enough to pair."""
    if len(old) + len(new) > _INTRALINE_LIMIT:
        return code(old), code(new)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    if matcher.ratio() < 0.4:  # a different line altogether: marking scattered letters would be noise
        return code(old), code(new)
    left: List[str] = []
    right: List[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            left.append(code(old[i1:i2]))
            right.append(code(new[j1:j2]))
            continue
        if i2 > i1:
            left.append(f'<span class="x">{code(old[i1:i2])}</span>')
        if j2 > j1:
            right.append(f'<span class="x">{code(new[j1:j2])}</span>')
    return "".join(left), "".join(right)
