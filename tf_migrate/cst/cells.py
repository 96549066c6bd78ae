"""Notebook cells inside the one module a notebook is migrated as (``tf_migrate.notebook``).

Each code cell starts with a marker statement ``__tf_migrate_cell__(N)``. A notebook shows the value of a cell's last
statement when it is an expression: rewrites that drop a value nothing reads (``.numpy()`` of a run whose result the
program dropped) keep it there, where the notebook reads it.
"""
from __future__ import annotations

from typing import Set

import libcst as cst

CELL_MARKER = "__tf_migrate_cell__"


def is_cell_marker(statement: cst.CSTNode) -> bool:
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)):
        return False
    call = statement.body[0].value
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == CELL_MARKER


def shown_expressions(module: cst.Module) -> Set[int]:
    """The ids of the expression statements (``cst.Expr``) a notebook shows: each cell's last statement, when it is
    one (a module without markers: its last statement)."""
    shown: Set[int] = set()
    body = list(module.body)
    for index, statement in enumerate(body):
        last_of_cell = index + 1 == len(body) or is_cell_marker(body[index + 1])
        if last_of_cell and not is_cell_marker(statement) and isinstance(statement, cst.SimpleStatementLine) \
                and isinstance(statement.body[-1], cst.Expr):
            shown.add(id(statement.body[-1]))
    return shown
