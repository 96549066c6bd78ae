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
# Replaced blocks up to this many line pairs are aligned by likeness; bigger ones line by line.
_PAIRING_LIMIT = 40_000
_PAIRING_CUTOFF = 0.5


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
        for i, j in _pairs(a, b, i1, i2, j1, j2):
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


def _pairs(a: List[str], b: List[str], i1: int, i2: int, j1: int, j2: int) -> List[Tuple[Optional[int], Optional[int]]]:
    """The rows of a replaced block: alike lines side by side, the lines between them row by row.

    Without the alignment a line moved down a few lines (``tf.set_random_seed`` under a new
    helper function) would sit next to an unrelated one.
    """
    pairs = _alike_pairs(a[i1:i2], b[j1:j2]) if (i2 - i1) * (j2 - j1) <= _PAIRING_LIMIT else []
    rows: List[Tuple[Optional[int], Optional[int]]] = []
    i = j = 0
    for pair_i, pair_j in pairs + [(i2 - i1, j2 - j1)]:
        for k in range(max(pair_i - i, pair_j - j)):
            rows.append((i1 + i + k if i + k < pair_i else None, j1 + j + k if j + k < pair_j else None))
        if pair_i < i2 - i1:
            rows.append((i1 + pair_i, j1 + pair_j))
        i, j = pair_i + 1, pair_j + 1
    return rows


def _alike_pairs(old: List[str], new: List[str]) -> List[Tuple[int, int]]:
    """Pairs (i, j), increasing, of lines alike enough to compare, with the largest total likeness.

    Likeness is the Dice coefficient of the lines' character bigrams: C-speed set operations,
    where ``SequenceMatcher.ratio`` for every pair took minutes on big blocks.
    """
    grams_old, grams_new = [_bigrams(line) for line in old], [_bigrams(line) for line in new]
    like = [[_likeness(x, y) for y in grams_new] for x in grams_old]
    best = [[0.0] * (len(new) + 1) for _ in range(len(old) + 1)]
    for i in range(len(old)):
        for j in range(len(new)):
            paired = best[i][j] + like[i][j] if like[i][j] >= _PAIRING_CUTOFF else 0.0
            best[i + 1][j + 1] = max(best[i][j + 1], best[i + 1][j], paired)
    pairs: List[Tuple[int, int]] = []
    i, j = len(old), len(new)
    while i and j:
        if best[i][j] == best[i - 1][j]:
            i -= 1
        elif best[i][j] == best[i][j - 1]:
            j -= 1
        else:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
    return pairs[::-1]


def _bigrams(line: str) -> frozenset:
    text = line.strip()
    return frozenset(text[k:k + 2] for k in range(len(text) - 1)) if len(text) > 1 else frozenset([text])


def _likeness(x: frozenset, y: frozenset) -> float:
    return 2 * len(x & y) / (len(x) + len(y))


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
