"""A horizontal bar chart as inline SVG: no script, no fonts or images to fetch."""
from __future__ import annotations

import html
from typing import List, Optional, Sequence, Tuple

_LABEL_WIDTH = 130
_BAR_WIDTH = 300
_ROW = 26
_BAR = 18


def bar_chart(title: str, bars: Sequence[Tuple[str, int, str, Optional[str]]]) -> str:
    """One bar per (label, count, CSS colour, link or None); bars scale to the largest count.

    The counts are printed next to the bars, so the chart reads without colour too.
    """
    largest = max((count for _, count, _, _ in bars), default=0) or 1
    height = _ROW * len(bars) + 8
    width = _LABEL_WIDTH + _BAR_WIDTH + 60
    parts: List[str] = [f'<svg class="chart" role="img" width="{width}" height="{height}" '
                        f'viewBox="0 0 {width} {height}">'
                        f"<title>{html.escape(title)}</title>"]
    for row, (label, count, colour, link) in enumerate(bars):
        y = 4 + row * _ROW
        length = round(_BAR_WIDTH * count / largest)
        text_y = y + _BAR - 5
        bar = (f'<text x="{_LABEL_WIDTH - 8}" y="{text_y}" text-anchor="end">{html.escape(label)}</text>'
               f'<rect x="{_LABEL_WIDTH}" y="{y}" width="{max(length, 1 if count else 0)}" height="{_BAR}" '
               f'fill="{colour}"><title>{html.escape(label)}: {count}</title></rect>'
               f'<text x="{_LABEL_WIDTH + length + 6}" y="{text_y}" class="count">{count}</text>')
        if link and count:
            bar = f'<a href="{html.escape(link)}">{bar}</a>'
        parts.append(bar)
    parts.append("</svg>")
    return "".join(parts)
