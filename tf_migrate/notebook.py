"""Migrate a notebook as one program, write it back cell by cell.

Code cells are joined into one module, each preceded by a marker statement
``__tf_migrate_cell__(N)``, so a placeholder made in cell 2 and run in cell 7
is one program to the rules. IPython syntax (``%magic``, ``!shell``,
``%%cell`` magics, ``obj?``) and ``from __future__`` lines (legal at the top of
a cell, not inside the joined program) are masked as ``__tf_migrate_magic__(K)``
and restored afterwards. Cell ids and metadata are kept; outputs of changed cells are
cleared, since they came from the old code.
"""
from __future__ import annotations

import ast
import json
import re
import warnings
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Tuple

import libcst as cst
import nbformat

from tf_migrate import engine
from tf_migrate.cst.cells import CELL_MARKER, is_cell_marker
from tf_migrate.report import Finding

MAGIC_MARKER = "__tf_migrate_magic__"
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}
_MAGIC_LINE = re.compile(r"^(\s*)(%|!|\?)")
_HELP_LINE = re.compile(r"^(\s*)[\w.]+\?{1,2}\s*$")  # IPython's `obj?` and `obj??`
# Legal at the top of each cell, not in the middle of the joined program: masked like a magic.
_FUTURE_LINE = re.compile(r"^()from\s+__future__\s+import\s+[^()]*$")
_VERSIONS = (3, 4)  # nbformat versions read, and written back as they came
_MARKER_LINE = re.compile(rf"^(\s*){MAGIC_MARKER}\((\d+)\)\s*$")


@dataclass(frozen=True)
class NotebookResult:
    path: str
    source: str
    new_source: str
    outcome: str
    findings: Tuple[Finding, ...]
    compat_reason: str
    cell_changes: Tuple[Tuple[int, str, str], ...]  # (cell index, old source, new source)

    @property
    def changed(self) -> bool:
        return self.new_source != self.source


def read_notebook(text: str, path: str):
    """The notebook as nbformat 4; raises engine.InputError saying what is wrong, and where."""
    return _read(text, path)[0]


def _read(text: str, path: str):
    """The notebook as nbformat 4, and the nbformat major version of the file."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise engine.InputError(path, error.lineno, error.colno, f"invalid notebook: not JSON: {error.msg}") from None
    _check_structure(raw, path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # nbformat warns on stderr for each quirk it repairs
            nb = nbformat.reads(text, as_version=4)
    except Exception as error:  # nbformat raises several unrelated types for bad notebooks
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise engine.InputError(path, 1, 0, f"invalid notebook: {message}") from None
    return nb, raw["nbformat"]


def _check_structure(raw, path: str) -> None:
    """What nbformat would trip over with an unrelated exception, said plainly."""
    def bad(message: str):
        return engine.InputError(path, 1, 0, f"invalid notebook: {message}")

    if not isinstance(raw, dict):
        raise bad("the top level is not a JSON object")
    version = raw.get("nbformat")
    if version not in _VERSIONS:
        raise bad(f"nbformat {version!r} is not supported (3 and 4 are); convert it with "
                  "`jupyter nbconvert --to notebook --nbformat 4`")
    if version == 3:
        sheets = raw.get("worksheets")
        if not isinstance(sheets, list) or not all(isinstance(sheet, dict) for sheet in sheets):
            raise bad("'worksheets' is not a list of objects")
        cells = [cell for sheet in sheets for cell in _as_list(sheet.get("cells"), bad)]
    else:
        cells = _as_list(raw.get("cells"), bad)
    source_key = "input" if version == 3 else "source"
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise bad(f"cell {number} is not an object with a 'cell_type'")
        source = cell.get(source_key)
        if cell["cell_type"] == "code" and not (
                isinstance(source, str) or isinstance(source, list) and all(isinstance(x, str) for x in source)):
            raise bad(f"cell {number}: '{source_key}' is missing or not text")


def _as_list(cells, bad) -> list:
    if not isinstance(cells, list):
        raise bad("'cells' is missing or not a list")
    return cells


def _mask(source: str, magics: List[str]) -> str:
    lines = source.split("\n")
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        name = first[2:].split()[0] if len(first) > 2 else ""
        if name not in _PYTHON_CELL_MAGICS:
            magics.append(source)
            return f"{MAGIC_MARKER}({len(magics) - 1})"
    out = []
    for line in lines:
        match = _MAGIC_LINE.match(line) or _HELP_LINE.match(line) or _FUTURE_LINE.match(line)
        if match or (line.strip() and "= !" in line and not line.strip().startswith("#")):
            magics.append(line.strip())
            indent = match.group(1) if match else re.match(r"\s*", line).group(0)
            out.append(f"{indent}{MAGIC_MARKER}({len(magics) - 1})")
        else:
            out.append(line)
    return "\n".join(out)


def _unmask(source: str, magics: List[str]) -> str:
    out = []
    for line in source.split("\n"):
        match = _MARKER_LINE.match(line)
        if match:
            magic = magics[int(match.group(2))]
            out.append(magic if "\n" in magic else match.group(1) + magic)
        else:
            out.append(line)
    return "\n".join(out)


def migrate_notebook(text: str, path: str, **options) -> NotebookResult:
    """Migrate a notebook's code cells; raises engine.InputError naming the cell."""
    nb, version = _read(text, path)
    magics: List[str] = []
    pieces: List[str] = []
    line_map: Dict[int, Tuple[int, int]] = {}
    code_cells = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    masked: Dict[int, str] = {}
    line = 1
    for index in code_cells:
        body = _mask(nb.cells[index].source, magics)
        engine.parse(body + "\n", f"{path}:cell {index + 1}")  # InputError names the cell and line
        masked[index] = body
        pieces.append(f"{CELL_MARKER}({index})")
        line += 1
        for offset in range(body.count("\n") + 1):
            line_map[line + offset] = (index, offset + 1)
        pieces.append(body)
        line += body.count("\n") + 1
    program = "\n".join(pieces) + "\n"
    result = engine.migrate_source(program, path, **options)
    findings = tuple(_cell_finding(f, line_map, path) for f in result.findings)
    if not result.changed:
        return NotebookResult(path, text, text, result.outcome, findings, result.compat_reason, ())
    new_cells = _split(result.new_source, code_cells)
    changes = []
    for index in code_cells:
        new_body = new_cells.get(index, "")
        if new_body.strip() == masked[index].strip():
            continue
        old = nb.cells[index].source
        restored = _unmask(_silenced(masked[index], new_body), magics)
        nb.cells[index].source = restored
        nb.cells[index].outputs = []
        nb.cells[index].execution_count = None
        changes.append((index, old, restored))
    new_text = nbformat.writes(nb, version=version) + "\n" if changes else text
    return NotebookResult(path, text, new_text, result.outcome, findings, result.compat_reason, tuple(changes))


def _silenced(old: str, new: str) -> str:
    """``new``, its last expression silenced with ``;`` where the old cell showed no value and the new one would
    (a ``with tf.Session():`` block unwrapped leaves ``saver.save(...)`` last: Jupyter would show its path)."""
    if _shows_value(old) or not _shows_value(new):
        return new
    last = ast.parse(new).body[-1]
    if isinstance(last.value, ast.Call) and isinstance(last.value.func, ast.Name) and last.value.func.id == "print":
        return new  # it shows nothing
    lines = new.split("\n")
    row = lines[last.end_lineno - 1].encode()  # (ast's columns count UTF-8 bytes)
    lines[last.end_lineno - 1] = (row[:last.end_col_offset] + b";" + row[last.end_col_offset:]).decode()
    return "\n".join(lines)


def _shows_value(source: str) -> bool:
    """Whether a cell ends with an expression whose value Jupyter shows (no trailing ``;``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return bool(tree.body) and isinstance(tree.body[-1], ast.Expr) and not source.rstrip().endswith(";")


def _cell_finding(finding: Finding, line_map, path: str) -> Finding:
    cell, line = line_map.get(finding.line, (None, finding.line))
    if cell is None:
        return finding
    return replace(finding, path=f"{path}:cell {cell + 1}", line=line)


def _split(program: str, code_cells: List[int]) -> Dict[int, str]:
    module = cst.parse_module(program)
    cells: Dict[int, List[cst.BaseStatement]] = {}
    tails: Dict[int, str] = {}
    current: Optional[int] = None
    prefix: List[cst.BaseStatement] = []
    for stmt in module.body:
        marker = _marker_index(stmt)
        if marker is not None:
            # Comments that ended the previous cell were attached to this marker.
            comments = [line for line in stmt.leading_lines if line.comment is not None]
            if current is not None and comments:
                tails[current] = "\n" + "\n".join(module.code_for_node(line).rstrip("\n") for line in comments)
            current = marker
            cells.setdefault(current, [])
        elif current is None:
            prefix.append(stmt)
        else:
            cells[current].append(stmt)
    if prefix and code_cells:
        cells[code_cells[0]] = prefix + cells.get(code_cells[0], [])
    return {index: module.with_changes(body=stmts, header=[], footer=[]).code.strip("\n") + tails.get(index, "")
            for index, stmts in cells.items()}


def _marker_index(stmt: cst.BaseStatement) -> Optional[int]:
    if is_cell_marker(stmt):
        return int(stmt.body[0].value.args[0].value.value)
    return None
