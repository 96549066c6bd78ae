"""The source text of a node."""
from __future__ import annotations

import libcst as cst

_EMPTY = cst.Module([])


def code(node: cst.CSTNode) -> str:
    """``node`` as source, with LibCST's default module settings (4-space indent, ``\\n``)."""
    return _EMPTY.code_for_node(node)
