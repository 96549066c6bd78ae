"""Process one file: read, migrate, and (when asked) write. Safe to run in worker processes."""
from __future__ import annotations

import ast
import difflib
import os
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Set, Tuple

from tf_migrate import engine, files, report
from tf_migrate.report import ERROR, Finding
from tf_migrate.tfnames import TreeHelpers


@dataclass(frozen=True)
class Options:
    mode: str = engine.AUTO
    select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    write: bool = False
    output_dir: Optional[Path] = None
    input_root: Optional[Path] = None  # for mirroring under output_dir
    functions: str = engine.COMPILED  # generated run functions: tf.function ("compiled") or plain ("eager")
    # In a tree: importer path -> {provider path -> {local name -> function name there}} (project.py).
    tree_imports: Optional[Mapping[str, Mapping[str, Mapping[str, str]]]] = field(default=None, compare=False)
    # In a tree: module path -> its classes every program of the tree builds at most once (project.py).
    single_instances: Optional[Mapping[str, Set[str]]] = field(default=None, compare=False)
    # In a tree (tree_helpers.py): provider path -> {function -> tensor parameters} of the helpers it defines as
    # tf.Module classes for its importers; importer path -> {(provider, function) -> why it may not build one}.
    helper_exports: Optional[Mapping[str, Mapping[str, Tuple[str, ...]]]] = field(default=None, compare=False)
    helper_refusals: Optional[Mapping[str, Mapping[Tuple[str, str], str]]] = field(default=None, compare=False)
    # In a tree (project.session_imports): importer path -> {local name -> (position, parameter)} of the classes and
    # functions of other modules whose eager form no longer takes the session the importer passes them.
    session_imports: Optional[Mapping[str, Mapping[str, Tuple[int, str]]]] = field(default=None, compare=False)
    # In a tree (project_class_runs.py): module path -> {TreeHelpers field -> value} of the classes of the tree: runs
    # of a class's graph across modules (``graph_classes``, ``runs_given`` and ``runs_refused`` of an importer,
    # ``runs_asked`` of a provider), and classes built in one session (``shared_sessions`` of a provider).
    class_runs: Optional[Mapping[str, Mapping[str, object]]] = field(default=None, compare=False)


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
    helper_requests: Mapping[str, object] = field(default_factory=dict)  # engine.MigrationResult's
    helper_exports: Mapping[str, object] = field(default_factory=dict)
    session_params: Mapping[str, Tuple[int, str]] = field(default_factory=dict)
    runs_requested: Mapping[str, Mapping[tuple, object]] = field(default_factory=dict)
    runs_answered: Mapping[str, Mapping[tuple, str]] = field(default_factory=dict)

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
            # abspath, not resolve: a symlink inside the tree may point anywhere
            relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
            if not relative.startswith(os.pardir):
                return options.output_dir / relative
        return options.output_dir / path.name
    return path if options.write else None


def _failed(label: str, kind: str, path: str, line: int, col: int, rule: str, message: str) -> FileOutcome:
    return FileOutcome(label, report.FAILED, [Finding(path, line, col, rule, ERROR, message)], kind=kind)


def process(path: Path, options: Options) -> FileOutcome:
    """Migrate one file; never raises (bad input, a crash or a failed write become a FAILED outcome).

    A FAILED file is never written: it keeps its bytes.
    """
    label = str(path)
    kind = "ipynb" if path.suffix == ".ipynb" else "py"
    try:
        source_file = files.read_text_file(path) if kind == "ipynb" else files.read_source(path)
        common = dict(mode=options.mode, select=options.select or None, ignore=options.ignore or None,
                      functions=options.functions)
        if kind == "ipynb":
            from tf_migrate import notebook  # nbformat costs ~0.1 s to import: only for notebooks

            result = notebook.migrate_notebook(source_file.text, label, **common)
            diffs = [_diff(old, new, f"{label}:cell {index + 1}") for index, old, new in result.cell_changes]
        else:
            result = _without_tensorflow(source_file.text, label) or engine.migrate_source(
                source_file.text, label, providers=_providers(label, options),
                single_instances=None if options.single_instances is None else options.single_instances.get(label),
                tree_helpers=_tree_helpers(label, options), **common)
            diffs = [_diff(result.source, result.new_source, label)] if result.changed else []
    except files.ReadError as error:
        return _failed(label, kind, label, error.line, 0, "input", error.message)
    except engine.InputError as error:
        return _failed(label, kind, error.path, error.line, error.col, "input", error.message)
    except Exception as error:  # a bug in tf-migrate must cost this file only, not the whole run
        where = traceback.extract_tb(error.__traceback__)[-1]
        return _failed(label, kind, label, 1, 0, "engine",
                       f"internal error, file left unchanged: {type(error).__name__}: {str(error)[:200]} "
                       f"(at {Path(where.filename).name}:{where.lineno}; please report)")
    outcome = FileOutcome(label, result.outcome, list(result.findings), result.compat_reason, diffs,
                          result.source, result.new_source, kind,
                          helper_requests=getattr(result, "helper_requests", {}),  # notebooks have none
                          helper_exports=getattr(result, "helper_exports", {}),
                          session_params=getattr(result, "session_params", {}),
                          runs_requested=getattr(result, "runs_requested", {}),
                          runs_answered=getattr(result, "runs_answered", {}))
    destination = _destination(path, options)
    if destination is None or result.outcome == report.FAILED:
        return outcome
    if options.output_dir is not None and _same_file(destination, path):
        outcome.outcome = report.FAILED
        outcome.findings.append(Finding(label, 1, 0, "output", ERROR,
                                        f"not written: the output {destination} is the input itself (use -w)"))
    elif result.changed or options.output_dir is not None:
        try:
            files.write_atomic(destination, result.new_source, source_file)
            outcome.written = str(destination)
        except (OSError, UnicodeError) as error:
            outcome.outcome = report.FAILED
            outcome.findings.append(Finding(label, 1, 0, "output", ERROR, f"not written: {_why(error)}"))
    return outcome


def _providers(label: str, options: Options) -> Dict[str, Tuple[str, Mapping[str, str]]]:
    """The tree's modules this file imports functions from, with their sources (unreadable ones left out)."""
    found = {}
    for provider, wanted in ((options.tree_imports or {}).get(label) or {}).items():
        try:
            found[provider] = (files.read_source(Path(provider)).text, wanted)
        except files.ReadError:
            continue
    return found


def _tree_helpers(label: str, options: Options) -> Optional[TreeHelpers]:
    exports = (options.helper_exports or {}).get(label)
    refused = (options.helper_refusals or {}).get(label)
    sessions = (options.session_imports or {}).get(label)
    class_runs = (options.class_runs or {}).get(label) or {}
    if not exports and not refused and not sessions and not class_runs:
        return None
    return TreeHelpers(exports=dict(exports or {}), refused=dict(refused or {}), sessions_given=dict(sessions or {}),
                       **{name: dict(value) for name, value in class_runs.items()})


def _without_tensorflow(text: str, label: str) -> Optional[engine.MigrationResult]:
    """SKIPPED for a file that never says "tensorflow" (so cannot import it), checked by Python's own
    parser in C: LibCST would take seconds on a big generated module only to skip it. None: ask the engine."""
    if "tensorflow" in text:
        return None
    try:
        compile(text, label, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError:
        engine.parse(text, label)  # the engine's message (with its Python 2 hint), as for any other file
        return None  # LibCST parses what Python does not: let the engine decide
    except (ValueError, RecursionError, MemoryError):
        return None
    return engine.MigrationResult(label, text, text, report.SKIPPED)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _why(error: Exception) -> str:
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename or ''}: {error.strerror}".lstrip(": ")
    return str(error)
