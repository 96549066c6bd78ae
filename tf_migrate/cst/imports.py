"""Import statements added to a module: right after its tensorflow import."""
from __future__ import annotations

from typing import Sequence

import libcst as cst

from tf_migrate.cst.text import code


def insert_after_tensorflow_import(module: cst.Module, lines: Sequence[str]) -> cst.Module:
    """``lines`` (statements as source) after the first line importing tensorflow, else at the top."""
    body = list(module.body)
    position = 0
    for index, stmt in enumerate(body):
        if isinstance(stmt, cst.SimpleStatementLine) and any(imports_tensorflow(small) for small in stmt.body):
            position = index + 1
            break
    new = [cst.parse_statement(line + "\n") for line in lines]
    return module.with_changes(body=body[:position] + new + body[position:])


def imports_tensorflow(small: cst.BaseSmallStatement) -> bool:
    if isinstance(small, cst.Import):
        return any(code(a.name).split(".")[0] == "tensorflow" for a in small.names)
    if isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
        return code(small.module).split(".")[0] == "tensorflow"
    return False
