"""Import statements added to a module: right after its tensorflow import."""
from __future__ import annotations

import sys
from typing import List, Sequence

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


def with_stdlib_import(module: cst.Module, name: str) -> cst.Module:
    """``import name`` (a standard-library module) among the standard-library imports of the module's first
    run of imports, in alphabetical place, else before its first import (not ``from __future__``); nothing
    where that run imports it already. The leading comments of the statement it goes before stay first."""
    body: List[cst.BaseStatement] = list(module.body)
    imports: List[int] = []  # the first run of imports (not ``from __future__``): later ones run after code
    for i, stmt in enumerate(body):
        if _top_module(stmt) not in (None, "__future__"):
            imports.append(i)
        elif imports:
            break
    if any(_top_module(body[i]) == name and _plain_import(body[i]) for i in imports):
        return module
    stdlib = [i for i in imports if _top_module(body[i]) in sys.stdlib_module_names]
    after = [i for i in stdlib if _top_module(body[i]) > name]
    index = after[0] if after else (stdlib[-1] + 1 if stdlib else (imports[0] if imports else 0))
    statement = cst.parse_statement(f"import {name}\n")
    if index < len(body) and not (stdlib and not after):
        first = body[index]
        statement = statement.with_changes(leading_lines=first.leading_lines)
        separate = [] if stdlib else [cst.EmptyLine(indent=False)]  # PEP 8: standard library first, on its own
        return module.with_changes(body=body[:index] + [statement, first.with_changes(leading_lines=separate)]
                                   + body[index + 1:])
    return module.with_changes(body=body[:index] + [statement] + body[index:])


def _top_module(stmt: cst.BaseStatement):
    """The top-level package an import statement imports from (None for other statements)."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Import):
        return code(small.names[0].name).split(".")[0]
    if isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
        return code(small.module).split(".")[0]
    return None


def _plain_import(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt.body[0], cst.Import) and all(alias.asname is None for alias in stmt.body[0].names)
