"""Runs of a class's graph across modules: the project pass's part (the analysis's part is
``analysis/imported_runs``, the code's ``codegen/class_run_calls``).

A model class in ``model.py`` builds its graph in ``__init__``; ``train.py`` builds an object of it and runs its
members in a session. From the first pass over the tied files (nothing written), each importer has said which runs
of which imported classes it makes (``FileOutcome.runs_requested``). This pass gathers them per provider and class,
migrates each provider again with the runs asked of it (``TreeHelpers.runs_asked``), and gives each importer the
provider's answers: the call of the generated method for each run (``runs_given``), or why its class answers none
(``runs_refused``: the provider stays compat, or does not build that class's graph). The importers are then
migrated again with them.

A provider and its importers share a process, so the usual tie still holds afterwards: if either ends compat, the
other is kept compat with it (``project.forced_compat``), and no importer is left calling a method that its
provider's written form lacks.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Set, Tuple

from tf_migrate import report
from tf_migrate.runner import FileOutcome, Options
from tf_migrate.tfnames import SCOPED_VARIABLES_REQUEST, VARIABLES_REQUEST

ClassRunFacts = Dict[str, Dict[str, object]]  # module path -> {TreeHelpers field -> value} (Options.class_runs)
RunAll = Callable[[List[Path], Options], List[FileOutcome]]


def class_facts(project, single: Mapping[str, Set[str]]) -> ClassRunFacts:
    """What each module is told of the tree's classes before the first pass: :func:`graph_classes` and
    :func:`shared_sessions`."""
    found = graph_classes(project)
    for path, facts in shared_sessions(project, single).items():
        found.setdefault(path, {}).update(facts)
    return found


def graph_classes(project) -> ClassRunFacts:
    """importer path -> {"graph_classes": {local name -> (provider path, class, its members)}}: the classes it
    imports by name or by star from TF modules of the tree whose bodies build graph code."""
    modules = project.index.modules
    found: ClassRunFacts = {}
    for edge in project.index.edges:
        importer, provider = modules[edge.importer], modules[edge.target]
        classes = provider.classes & provider.graph_builders if provider.imports_tensorflow else set()
        if edge.star:
            wanted = {name: name for name in classes & provider.star_exports()}
        elif not edge.names:  # ``import model`` (``import pkg.model as m``): ``model.Model(...)``
            prefix = importer.local_names.get((edge.line, edge.target), edge.target)
            wanted = {f"{prefix}.{name}": name for name in classes}
        else:
            wanted = {importer.local_names.get((edge.line, name), name): name for name in edge.names if name in classes}
        for local, name in wanted.items():
            facts = (str(provider.path), name, provider.class_members.get(name, ()))
            found.setdefault(str(importer.path), {}).setdefault("graph_classes", {})[local] = facts
    return found


def shared_sessions(project, single: Mapping[str, Set[str]]) -> ClassRunFacts:
    """provider path -> {"shared_sessions": {class -> parameter}}: the classes a program of the tree builds more
    than once (not in ``single``, ``project.single_instances``), always passing one session, a name its module binds
    once to a new session, at the same parameter (a keyword, or ``#position``). Such objects run in that one
    session, so state TF1 kept in the graph for all of them (a collection of their variables) can be kept on the
    class (``rules/user_collections``). A module that imports the class's module whole, or builds it in a function,
    or two such modules in one process, leave it out."""
    modules = project.index.modules
    found: ClassRunFacts = {}
    for name, info in modules.items():
        for cls in info.classes - set(single.get(str(info.path), ())):
            callers = {name: info.session_arguments.get(cls, {None})} if info.calls.get(cls) else {}
            whole = False
            for edge in project.index.edges:
                if edge.target != name:
                    continue
                importer = modules[edge.importer]
                whole |= not edge.names
                local = cls if edge.star else importer.local_names.get((edge.line, cls), cls) \
                    if cls in edge.names else None
                if local is not None and importer.calls.get(local):
                    callers.setdefault(edge.importer, set()).update(importer.session_arguments.get(local, {None}))
            passed = {spec for specs in callers.values() for spec in specs}
            if whole or not callers or None in passed or any(len(specs) != 1 for specs in callers.values()) \
                    or len({parameter for _, parameter in passed}) != 1:
                continue
            if any(other in project.same_process(caller) for caller in callers for other in callers if other != caller):
                continue
            found.setdefault(str(info.path), {}).setdefault("shared_sessions", {})[cls] = passed.pop()[1]
    return found


def agree(project, first: Dict[Path, FileOutcome], run_all: RunAll, dry: Options,
          facts: ClassRunFacts) -> Tuple[ClassRunFacts, Dict[Path, FileOutcome]]:
    """The class-run facts of every module once providers have answered, and the first pass's outcomes updated
    with the files migrated again. An answer may lead to new requests (an importer told what an object's members
    are asks for methods computing those its runs need, analysis/object_members): the rounds go on while they
    do, at most :data:`ROUNDS` of them."""
    updated = dict(first)
    asked_so_far: Dict[str, Dict[str, Dict[tuple, object]]] = {}  # provider path -> class -> {key -> ClassRun}
    for _ in range(ROUNDS):
        asked, askers = _requests(updated, facts)
        if all(set(runs) <= set(asked_so_far.get(provider, {}).get(name, {}))
               for provider, classes in asked.items() for name, runs in classes.items()):
            break
        for provider, classes in asked.items():
            for name, runs in classes.items():
                asked_so_far.setdefault(provider, {}).setdefault(name, {}).update(runs)
        facts = {path: dict(values) for path, values in facts.items()}
        path_of = {str(info.path): info.path for info in project.index.modules.values()}
        providers = [path_of[provider] for provider in asked_so_far if provider in path_of]
        for provider in providers:
            facts.setdefault(str(provider), {})["runs_asked"] = {
                name: tuple(runs.values()) for name, runs in asked_so_far[str(provider)].items()}
        answered = dict(zip(providers, run_all(providers, dataclasses.replace(dry, class_runs=facts))))
        updated.update(answered)
        for (provider, name), importers in askers.items():
            result = answered.get(path_of.get(provider))
            why = _refusal(result, provider, name, asked_so_far[provider][name])
            for importer, local in importers:
                given = facts.setdefault(str(importer), {})
                if why:
                    given.setdefault("runs_refused", {})[local] = why
                else:
                    given.setdefault("runs_given", {})[local] = dict(result.runs_answered[name])
        importers = sorted({importer for pairs in askers.values() for importer, _ in pairs}, key=str)
        updated.update(zip(importers, run_all(importers, dataclasses.replace(dry, class_runs=facts))))
    return facts, updated


ROUNDS = 3  # runs of an object's graph: 1; an importer's own graph on an object's members: 2 (members, methods)


def _requests(outcomes: Dict[Path, FileOutcome], facts: ClassRunFacts):
    """What the importers among ``outcomes`` ask of each provider's classes: provider path -> class -> {key ->
    ClassRun}, and (provider, class) -> [(importer, the class's local name there)]."""
    asked: Dict[str, Dict[str, Dict[tuple, object]]] = {}
    askers: Dict[Tuple[str, str], List[Tuple[Path, str]]] = {}
    for path, outcome in outcomes.items():
        known = facts.get(str(path), {}).get("graph_classes", {})
        for local, runs in outcome.runs_requested.items():
            if local not in known:
                continue
            provider, name, _ = known[local]
            asked.setdefault(provider, {}).setdefault(name, {}).update(runs)
            askers.setdefault((provider, name), []).append((path, local))
    return asked, askers


def _refusal(result, provider: str, name: str, runs: Mapping[tuple, object]) -> str:
    """Why the provider's migration answers none of the runs of class ``name`` ("" when it answers them all)."""
    if result is None:
        return "is not in the tree"
    if result.outcome != report.EAGER:
        return f"stays compat ({result.compat_reason or result.outcome})"
    missing = set(runs) - set(result.runs_answered.get(name, {}))
    if VARIABLES_REQUEST.key in missing:
        return ("does not list the variables its objects make (a program builds it more than once, or their TF1 "
                "names are not known)")
    if SCOPED_VARIABLES_REQUEST.key in missing:
        return "does not list the variables its objects make under the variable scope its constructor names"
    return f"answers {len(missing)} of the runs asked of it with no method" if missing else ""
