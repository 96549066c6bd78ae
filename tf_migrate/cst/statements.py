"""Shapes of single statements that several rules and analyses recognise."""
from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst


def plain_assignment(statement: cst.CSTNode) -> Optional[Tuple[str, cst.BaseExpression]]:
    """``(name, value)`` of a line that is only ``name = value`` (one plain-name target), else None."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            and isinstance(statement.body[0], cst.Assign):
        assign = statement.body[0]
        if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name):
            return assign.targets[0].target.value, assign.value
    return None
