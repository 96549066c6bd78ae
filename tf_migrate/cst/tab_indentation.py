"""Indentation that mixes tabs and spaces, as Python reads it, for LibCST.

Python's tokenizer reads a tab in indentation as a move to the next multiple of eight columns, so a
function body indented with a tab and a block inside it with a tab and four spaces parse (yungshenglu's
tutorials). LibCST's tokenizer refuses some of those files ("no matching outer block for dedent").
:func:`expand_indentation_tabs` writes each line's indentation with spaces, at the columns Python gave
it; text inside a string that spans lines (a docstring's own lines) is left as it is.
"""
from __future__ import annotations

import io
import tokenize
from typing import Optional, Set


def expand_indentation_tabs(source: str) -> Optional[str]:
    """``source`` with the tabs of its indentation written as spaces (None: no line is indented with a tab,
    or the source does not tokenize)."""
    lines = source.splitlines(keepends=True)
    if not any(line[:len(line) - len(line.lstrip(" \t"))].count("\t") for line in lines):
        return None
    inside_strings = _lines_inside_strings(source)
    if inside_strings is None:
        return None
    out = []
    for number, line in enumerate(lines, start=1):
        body = line.lstrip(" \t")
        indentation = line[:len(line) - len(body)]
        if "\t" in indentation and number not in inside_strings:
            line = " " * len(indentation.expandtabs(8)) + body
        out.append(line)
    return "".join(out)


def _lines_inside_strings(source: str) -> Optional[Set[int]]:
    """The numbers of the lines a string token continues onto (their start is the string's text)."""
    inside: Set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING or getattr(tokenize, "FSTRING_MIDDLE", None) == token.type:
                inside.update(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return inside
