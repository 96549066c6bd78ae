"""Process one file: read, migrate, and (when asked) write. Safe to run in worker processes."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

from tf_migrate import engine, files, report
from tf_migrate.report import ERROR, Finding


@dataclass(frozen=True)
class Options:
    mode: str = engine.AUTO
    select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    write: bool = False
    output_dir: Optional[Path] = None
    input_root: Optional[Path] = None  # for mirroring under output_dir


@dataclass
class FileOutcome:
    path: str
    outcome: str
    findings: List[Finding] = field(default_factory=list)
    compat_reason: str = ""
    diffs: List[str] = field(default_factory=list)
    source: str = ""
    new_source: str = ""
    kind: str = "py"
    written: Optional[str] = None

    @property
    def changed(self) -> bool:
        return self.new_source != self.source


def _diff(old: str, new: str, label: str) -> str:
    lines = list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), fromfile=label, tofile=label))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _destination(path: Path, options: Options) -> Optional[Path]:
    if options.output_dir is not None:
        root = options.input_root
        if root is not None and root.is_dir():
            return options.output_dir / path.resolve().relative_to(root.resolve())
        return options.output_dir / path.name
    return path if options.write else None


def process(path: Path, options: Options) -> FileOutcome:
    """Migrate one file; never raises for bad input (it becomes a FAILED outcome)."""
    label = str(path)
    kind = "ipynb" if path.suffix == ".ipynb" else "py"
    try:
        source_file = files.read_text_file(path) if kind == "ipynb" else files.read_source(path)
        common = dict(mode=options.mode, select=options.select or None, ignore=options.ignore or None)
        if kind == "ipynb":
            from tf_migrate import notebook  # nbformat costs ~0.1 s to import: only for notebooks

            result = notebook.migrate_notebook(source_file.text, label, **common)
            diffs = [_diff(old, new, f"{label}:cell {index + 1}") for index, old, new in result.cell_changes]
        else:
            result = engine.migrate_source(source_file.text, label, **common)
            diffs = [_diff(result.source, result.new_source, label)] if result.changed else []
    except files.ReadError as error:
        return FileOutcome(label, report.FAILED, [Finding(label, error.line, 0, "input", ERROR, error.message)],
                           kind=kind)
    except engine.InputError as error:
        return FileOutcome(label, report.FAILED, [Finding(error.path, error.line, error.col, "input", ERROR,
                                                          error.message)], kind=kind)
    outcome = FileOutcome(label, result.outcome, list(result.findings), result.compat_reason, diffs,
                          result.source, result.new_source, kind)
    destination = _destination(path, options)
    if destination is not None and result.outcome != report.FAILED:
        if result.changed or options.output_dir is not None:
            try:
                files.write_atomic(destination, result.new_source, source_file)
                outcome.written = str(destination)
            except OSError as error:
                outcome.outcome = report.FAILED
                outcome.findings.append(Finding(label, 1, 0, "output", ERROR, f"not written: {error}"))
    return outcome
