"""One mode per process: modules of a tree that can run in one program are migrated in the same mode.

A compat module calls ``tf.disable_v2_behavior()`` when it is imported, and that switch is
process-wide: every eager module imported into the same program then runs in graph mode, and
its generated functions fail. A star import also rebinds ``tf``: a compat ``model.py`` that says
``from ops import *`` gets ``ops``'s TF2 ``tf`` when ``ops.py`` went eager. So when a module
stays compat, every module that can share a process with it stays compat too: the modules that
import it (directly or through others), and everything those import. A module of the tree that
uses ``tf`` only through a star import (it never imports TensorFlow itself, so the per-file
pass skips it and its TF1 calls stay) needs its provider in compat mode.

A module that only defines things (imports, functions, constants; no TF runs when it is imported),
whose functions use nothing bound to their caller's graph (variable scopes, collections,
summaries, placeholders, sessions, tf.layers), and that defines no class in place of a function
for its importers (``tree_helpers``: a compat importer would call the function) is *neutral*: its eager form, TF2 ops and
``tf.Variable``, builds the same graph under a compat importer as its TF1 form did. It may stay
eager while a module importing it stays compat, and it ties nothing together (unless a compat
module star-imports it, which would rebind that module's ``tf``).

Each file's analysis is told what the functions it imports from the tree do
(``tree_imports``, summarized by ``analysis/imported_helpers``), so ``W = weight_variable(...)``
of ``libs/utils.py`` is a variable and ``corrupt(x)`` a tensor in the importer.

The per-file engine runs first on the tied files, writing nothing; the files a tie forces into
compat mode are migrated again in compat mode, with a finding at their first line that names the
import chain to the compat module, and when the run writes, the other tied files are migrated
again to be written. Untied files (the common case: a folder of unrelated scripts) run once.
"""
from __future__ import annotations

import dataclasses
import re
from collections import deque
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from tf_migrate import engine, files, project_class_runs, report, tree_helpers
from tf_migrate.analysis.inert_imports import inert_import
from tf_migrate.analysis.project_index import ImportEdge, ProjectIndex, build_index
from tf_migrate.runner import FileOutcome, Options
from tf_migrate.tfnames import HelperClass

RULE = "project-mode"


@dataclasses.dataclass
class ProjectPlan:
    """The tree's index and what follows from it before any file is migrated."""

    index: ProjectIndex
    star_tf_users: Dict[str, ImportEdge]  # module using star-imported ``tf`` -> its star import
    _imports: Optional[Dict[str, List[str]]] = None  # module -> modules it imports (built on first use)
    _importers: Optional[Dict[str, List[str]]] = None

    def tied(self) -> Set[Path]:
        """Files whose mode may depend on another file's: TF modules that can share a program with
        another TF module (through modules without TF too), and the providers of star-imported ``tf``."""
        tf_modules = {name for name, info in self.index.modules.items() if info.imports_tensorflow}
        linked = {name for edge in self.index.edges for name in (edge.importer, edge.target)}
        tied = {edge.target for edge in self.star_tf_users.values()}
        for name in tf_modules & linked:
            if (self.same_process(name) & tf_modules) - {name}:
                tied.add(name)
        return {self.index.modules[name].path for name in tied}

    def _reach(self, name: str, step: Dict[str, List[str]]) -> Set[str]:
        seen, todo = {name}, [name]
        while todo:
            for following in step.get(todo.pop(), ()):
                if following not in seen:
                    seen.add(following)
                    todo.append(following)
        return seen

    def same_process(self, name: str) -> Set[str]:
        """Every module that can be imported into one program together with ``name``: what imports it
        (directly or not), and everything those import."""
        if self._imports is None:
            self._imports, self._importers = {}, {}
            for edge in self.index.edges:
                if not inert_import(self.index, edge):
                    self._imports.setdefault(edge.importer, []).append(edge.target)
                    self._importers.setdefault(edge.target, []).append(edge.importer)
        together: Set[str] = set()
        for importer in self._reach(name, self._importers):
            together |= self._reach(importer, self._imports)
        return together

    def chain(self, start: str, goal: str) -> str:
        """The import edges from ``start`` to ``goal`` (either direction), as ``file:line imports file``."""
        links: Dict[str, List[Tuple[str, ImportEdge]]] = {}
        for edge in self.index.edges:
            links.setdefault(edge.importer, []).append((edge.target, edge))
            links.setdefault(edge.target, []).append((edge.importer, edge))
        came: Dict[str, Optional[Tuple[str, ImportEdge]]] = {start: None}
        todo = deque([start])
        while todo and goal not in came:
            current = todo.popleft()
            for neighbour, edge in links.get(current, []):
                if neighbour not in came:
                    came[neighbour] = (current, edge)
                    todo.append(neighbour)
        steps, current = [], goal
        while came.get(current):
            previous, edge = came[current]
            steps.append(self._edge_text(edge))
            current = previous
        return ", ".join(reversed(steps))

    def _edge_text(self, edge: ImportEdge) -> str:
        modules = self.index.modules
        what = "from {} import *".format(edge.target) if edge.star else "imports {}".format(edge.target)
        return f"{modules[edge.importer].path}:{edge.line} {what} ({modules[edge.target].path})"


def plan(root: Path, paths: Sequence[Path]) -> ProjectPlan:
    index = build_index(root, paths, read=_source_text)
    users: Dict[str, ImportEdge] = {}
    for edge in index.edges:
        importer, provider = index.modules[edge.importer], index.modules[edge.target]
        if not edge.star or importer.imports_tensorflow:
            continue
        leaked = set(provider.tf_aliases) & provider.star_exports()
        if leaked and _reads_any(importer.path, leaked):
            users[edge.importer] = edge
    return ProjectPlan(index, users)


def _source_text(path: Path) -> str:
    """The module's text decoded as Python does (coding cookie, BOM); OSError when it cannot be read."""
    try:
        return files.read_source(path).text
    except files.ReadError as error:
        raise OSError(str(error)) from None


def _reads_any(path: Path, names: Set[str]) -> bool:
    try:
        text = _source_text(path)
    except OSError:
        return False
    return any(re.search(rf"\b{re.escape(name)}\.", text) for name in names)


RunAll = Callable[[List[Path], Options], List[FileOutcome]]


def migrate_tree(paths: List[Path], options: Options, run_all: RunAll, root: Path) -> List[FileOutcome]:
    """Every file migrated, tied files in one mode; the outcomes in the order of ``paths``.

    Tied files are first migrated without writing; the ones a tie forces into compat mode are then
    migrated again in compat mode, the others written as they came out.
    """
    if options.mode != engine.AUTO:
        return run_all(paths, options)
    project = plan(root, paths)
    single = single_instances(project)
    options = dataclasses.replace(options, tree_imports=tree_imports(project), single_instances=single,
                                  class_runs=project_class_runs.class_facts(project, single))
    tied = project.tied()
    if not tied:
        return run_all(paths, options)
    writes = options.write or options.output_dir is not None
    dry = dataclasses.replace(options, write=False, output_dir=None)
    first = dict(zip([p for p in paths if p in tied], run_all([p for p in paths if p in tied], dry)))
    sessions = session_imports(project, first)
    if sessions:  # the importers again, knowing which sessions they pass need not be passed any more (before the
        # helpers are agreed on: an importer that goes eager only now asks for its helpers then)
        dry = dataclasses.replace(dry, session_imports=sessions)
        importers = [path for path in first if str(path) in sessions]
        first.update(zip(importers, run_all(importers, dry)))
    exports, refusals, first = tree_helpers.agree(project, first, run_all, dry)
    options = dataclasses.replace(options, helper_exports=exports, helper_refusals=refusals, session_imports=sessions)
    class_runs, first = project_class_runs.agree(  # runs of a class's graph from other modules (after the helpers:
        project, first, run_all, dataclasses.replace(options, write=False, output_dir=None), options.class_runs)
    options = dataclasses.replace(options, class_runs=class_runs)  # an importer may build them in its runs)
    forced = _forced_with_neutral(project, first)
    forced_paths = [p for p in paths if p in forced]
    kept_paths = [p for p in paths if p in tied and p not in forced] if writes else []
    again = dict(zip(forced_paths, run_all(forced_paths, dataclasses.replace(options, mode=engine.COMPAT))))
    again.update(zip(kept_paths, run_all(kept_paths, options)))
    for path, why in forced.items():
        outcome = again[path]
        outcome.findings.insert(0, report.Finding(str(path), 1, 0, RULE, report.WARNING, why))
        if outcome.outcome == report.COMPAT:
            outcome.compat_reason = why
    untied = run_all([p for p in paths if p not in tied], options)
    rest = dict(zip([p for p in paths if p not in tied], untied))
    outcomes = [again.get(p) or first.get(p) or rest[p] for p in paths]
    for path, outcome in zip(paths, outcomes):
        if outcome.outcome == report.COMPAT:
            outcome.findings[:0] = cross_module_graphs(project, path)
    return outcomes


def cross_module_graphs(project: ProjectPlan, path: Path) -> List[report.Finding]:
    """For a compat module: each import of graph-building names from another module of the tree.

    Except for runs of a class's graph (``project_class_runs``), a graph built there and run here keeps both
    modules compat; the finding says where the graph comes from."""
    modules = project.index.modules
    name = next((n for n, info in modules.items() if info.path == path), None)
    found = []
    for edge in project.index.imports_of(name) if name else ():
        if inert_import(project.index, edge):  # imported, never used: no graph of it is built here
            continue
        provider = modules[edge.target]
        builders = sorted(provider.graph_builders & (provider.star_exports() if edge.star else set(edge.names)))
        if not edge.names:
            builders = sorted(provider.graph_builders)
        if builders:
            shown = ", ".join(f"`{b}`" for b in builders[:4]) + (" ..." if len(builders) > 4 else "")
            found.append(report.Finding(str(path), edge.line, 0, RULE, report.INFO,
                                        f"graph built across modules: {shown} of {provider.path} build TF graph "
                                        "code used here, so both modules keep one mode (only runs of a class's "
                                        "graph built in its __init__ convert across modules yet)"))
    return found


def _forced_with_neutral(project: ProjectPlan, first: Dict[Path, FileOutcome]) -> Dict[Path, str]:
    """forced_compat with the neutral modules left eager, but for one a compat module star-imports: its
    ``tf`` would rebind that module's (so it follows the compat module, found again until nothing changes)."""
    modules = project.index.modules
    outcomes = {path: (o.outcome, o.compat_reason) for path, o in first.items()}
    neutral = neutral_modules(project, first)
    while True:
        forced = forced_compat(project, outcomes, neutral)
        compat = {name for name, info in modules.items()
                  if info.path in forced or outcomes.get(info.path, ("",))[0] == report.COMPAT}
        broken = {edge.target for edge in project.index.edges
                  if edge.star and edge.target in neutral and edge.importer in compat}
        if not broken:
            return forced
        neutral -= broken


def single_instances(project: ProjectPlan) -> Dict[str, Set[str]]:
    """module path -> its classes that every program of the tree builds at most once: each module calls the class
    at most once (outside loops and variable-sharing scopes), and no two calling modules share a process. A class
    reached through ``import module`` (``module.Cls()``) is not counted, so it is not listed."""
    modules = project.index.modules
    found: Dict[str, Set[str]] = {}
    for name, info in modules.items():
        if info.classes:  # known from the tree, even when empty (modules the index did not read decide alone)
            found.setdefault(str(info.path), set())
        for cls in info.classes:
            callers: Dict[str, int] = {name: info.calls[cls]} if info.calls.get(cls) else {}
            for edge in project.index.edges:
                if edge.target != name:
                    continue
                importer = modules[edge.importer]
                if not edge.names:
                    callers[edge.importer] = 2  # module.Cls(...): calls the index does not count
                    continue
                if edge.star and cls in info.star_exports():
                    local = cls
                elif cls in edge.names:
                    local = importer.local_names.get((edge.line, cls), cls)
                else:
                    continue
                if importer.calls.get(local):
                    callers[edge.importer] = callers.get(edge.importer, 0) + importer.calls[local]
            if not callers or any(count > 1 for count in callers.values()):
                continue
            if any(other in project.same_process(caller) for caller in callers for other in callers if other != caller):
                continue
            found.setdefault(str(info.path), set()).add(cls)
    return found


def session_imports(project: ProjectPlan, outcomes: Dict[Path, FileOutcome]) -> Dict[str, Dict[str, Tuple[int, str]]]:
    """importer path -> {local name -> (position, parameter)}: the classes and functions it imports by name or by
    star from modules of the tree that went eager and, in that form, no longer take a session parameter
    (``agent = Agent(sess, ...)`` with ``Agent``'s runs now its own generated methods). The importer may drop the
    argument; if the provider is later kept compat, the tie keeps the importer compat too (``forced_compat``)."""
    modules = project.index.modules
    found: Dict[str, Dict[str, Tuple[int, str]]] = {}
    for edge in project.index.edges:
        provider = modules[edge.target]
        outcome = outcomes.get(provider.path)
        if outcome is None or outcome.outcome != report.EAGER or not outcome.session_params:
            continue
        importer = modules[edge.importer]
        if edge.star:
            wanted = {name: name for name in outcome.session_params if name.split("#")[0] in provider.star_exports()}
        elif not edge.names:  # ``import agent`` (``import pkg.agent as a``): ``agent.Agent(sess, ...)``
            prefix = importer.local_names.get((edge.line, edge.target), edge.target)
            wanted = {f"{prefix}.{name}": name for name in outcome.session_params}
        else:
            wanted = {importer.local_names.get((edge.line, name), name): name
                      for name in edge.names if name in outcome.session_params}
            wanted.update((f"{importer.local_names.get((edge.line, cls), cls)}#{method}", f"{cls}#{method}")
                          for cls, _, method in (key.partition("#") for key in outcome.session_params)
                          if method and cls in edge.names)  # a method of an imported class: Model#train_on_batch
        if wanted:
            found.setdefault(str(importer.path), {}).update(
                (local, outcome.session_params[name]) for local, name in wanted.items())
    return found


def tree_imports(project: ProjectPlan) -> Dict[str, Dict[str, Dict[str, str]]]:
    """importer path -> {provider path -> {local name -> function name}}: the functions each module imports
    (by name or by star) from TF modules of the tree, and those of the modules it imports whole (``model.f``)."""
    modules = project.index.modules
    found: Dict[str, Dict[str, Dict[str, str]]] = {}
    for edge in project.index.edges:
        importer, provider = modules[edge.importer], modules[edge.target]
        if not provider.imports_tensorflow or not provider.functions:
            continue
        if edge.star:
            wanted = {name: name for name in sorted(provider.functions & provider.star_exports())}  # (a set)
        elif not edge.names:  # ``import model`` (``import pkg.model as m``): ``model.inference(x)``
            prefix = importer.local_names.get((edge.line, edge.target), edge.target)
            wanted = {f"{prefix}.{name}": name for name in sorted(provider.functions)}
        else:
            wanted = {importer.local_names.get((edge.line, name), name): name
                      for name in edge.names if name in provider.functions}
        if wanted:
            found.setdefault(str(importer.path), {}).setdefault(str(provider.path), {}).update(wanted)
    return found


# What makes a module's functions depend on their caller's graph context (see the module docstring).
_CONTEXT_BOUND = re.compile(r"\.(?:get_variable|rnn_cell|\w*_rnn|get_collection|add_to_collection|summary|"
                            r"placeholder|Session|layers|contrib|train|keras|control_dependencies)\b")
# Scopes only name what a module's functions build; the eager form drops them. Harmless unless the module
# makes variables in them (their names and sharing) or a module importing it reads names (`.name`).
_SCOPES = re.compile(r"\.(?:variable_scope|name_scope)\b")
_MAKES_VARIABLES = re.compile(r"\.Variable\b")
_READS_NAMES = re.compile(r"\.name\b")


def neutral_modules(project: ProjectPlan, outcomes: Dict[Path, FileOutcome]) -> Set[str]:
    """The modules whose eager output works under a compat importer too (see the module docstring)."""
    modules = project.index.modules
    neutral = set()
    for name, info in modules.items():
        outcome = outcomes.get(info.path)
        # Classes it defines for its importers in place of their functions (tree_helpers).
        exports_classes = outcome is not None and any(isinstance(made, HelperClass)
                                                      for made in outcome.helper_exports.values())
        if (outcome is None or outcome.outcome != report.EAGER or not info.definitions_only or exports_classes
                or _CONTEXT_BOUND.search(outcome.source)
                or re.search(r"\bcompat\.v1\b|\.numpy\(|\.function\b|GradientTape", outcome.new_source)):
            continue
        if _SCOPES.search(outcome.source) and (_MAKES_VARIABLES.search(outcome.source) or any(
                _READS_NAMES.search(_text_or_empty(modules[edge.importer].path))
                for edge in project.index.edges if edge.target == name)):
            continue
        neutral.add(name)
    return neutral


def _text_or_empty(path: Path) -> str:
    try:
        return _source_text(path)
    except OSError:
        return ""


def forced_compat(project: ProjectPlan, outcomes: Dict[Path, Tuple[str, str]],
                  neutral: Set[str] = frozenset()) -> Dict[Path, str]:
    """Files that went eager but share a process with a compat module: path -> why, naming the tie.

    ``outcomes``: path -> (outcome, compat reason) of the per-file pass; ``neutral``: modules whose eager
    form also works under a compat importer (they stay eager)."""
    modules = project.index.modules
    by_path = {info.path: name for name, info in modules.items()}
    compat: Dict[str, str] = {}  # module -> why it is compat
    for path, (outcome, why) in outcomes.items():
        if outcome == report.COMPAT and path in by_path:
            compat[by_path[path]] = f"compat: {why}"
    forced: Dict[Path, str] = {}
    for user, edge in project.star_tf_users.items():
        provider = modules[edge.target].path
        if edge.target not in compat and outcomes.get(provider, ("",))[0] == report.EAGER:
            compat[edge.target] = f"{modules[user].path}:{edge.line} uses its `tf` through a star import"
            forced[provider] = (f"kept in compat mode: {compat[edge.target]} and imports no TensorFlow of its own "
                                "(it is not migrated, so its TF1 calls need this module's compat `tf`)")
    todo = list(compat)
    while todo:
        source = todo.pop(0)
        for name in sorted(project.same_process(source)):
            path = modules[name].path
            if name in compat or name in neutral or outcomes.get(path, ("",))[0] != report.EAGER:
                continue
            compat[name] = f"tied to {modules[source].path}"
            forced[path] = (f"kept in compat mode with {modules[source].path} ({compat[source]}): "
                            f"{project.chain(name, source)}; TF1 compat mode is process-wide")
            todo.append(name)
    return forced
