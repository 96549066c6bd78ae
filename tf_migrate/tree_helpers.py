"""Helpers shared as ``tf.Module`` classes across a tree: the project pass's part (the rules' part is
``rules/_tree_helpers``).

After the first pass over the tied files (nothing written), each importer has said which helpers of other modules
it builds as classes (``FileOutcome.helper_requests``), and how it expects each class to look. This pass gathers
the requests per provider and keeps a helper only when

* every importer asked for the same class (tensors for the same parameters, the same variables),
* every module that imports the helper by name, or by a star import and names it, asked for it (the provider's
  function is gone afterwards), and
* every module that imports the provider whole and names the helper (``import ops`` then ``ops.fc_layer(...)``)
  asked for it too.

It migrates each provider again with the helpers to export, and keeps a request only when the provider's class is
the one its importers expected. The importers of every other helper are migrated again with it refused: they stay
compat, with the reason at the call.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Callable, Dict, List, Tuple

from tf_migrate import files, report
from tf_migrate.runner import FileOutcome, Options
from tf_migrate.tfnames import HelperClass

Exports = Dict[str, Dict[str, Tuple[str, ...]]]  # provider path -> {function -> tensor parameters}
Refusals = Dict[str, Dict[Tuple[str, str], str]]  # importer path -> {(provider path, function) -> why}
RunAll = Callable[[List[Path], Options], List[FileOutcome]]


def agree(project, first: Dict[Path, FileOutcome], run_all: RunAll,
          dry: Options) -> Tuple[Exports, Refusals, Dict[Path, FileOutcome]]:
    """The helpers each provider exports, the ones each importer may not build, and the first pass's outcomes
    updated with the files migrated again."""
    requests: Dict[str, Dict[str, List[Tuple[Path, HelperClass]]]] = {}
    for path, outcome in first.items():
        for form in outcome.helper_requests.values():
            requests.setdefault(form.provider, {}).setdefault(form.function, []).append((path, form))
    if not requests:
        return {}, {}, first
    path_of = {str(info.path): info.path for info in project.index.modules.values()}
    refusals: Refusals = {}

    def refuse(provider: str, function: str, why: str) -> None:
        for importer, _ in requests[provider][function]:
            refusals.setdefault(str(importer), {})[(provider, function)] = why

    exports: Exports = {}
    for provider, functions in requests.items():
        for function, asked in functions.items():
            why = disagreement(project, provider, function, asked) if provider in path_of else "is not in the tree"
            if why:
                refuse(provider, function, why)
            else:
                exports.setdefault(provider, {})[function] = asked[0][1].tensor_params
    updated = dict(first)
    while exports:
        providers = [path_of[provider] for provider in exports]
        results = dict(zip(providers, run_all(providers, dataclasses.replace(dry, helper_exports=exports))))
        dropped = False
        for provider, functions in list(exports.items()):
            result = results[path_of[provider]]
            for function in list(functions):
                why = _provider_refusal(result, function, requests[provider][function][0][1])
                if why:
                    refuse(provider, function, why)
                    del functions[function]
                    dropped = True
            if not functions:
                del exports[provider]
        if not dropped:
            updated.update(results)
            break
    importers = [path for path in first if str(path) in refusals]
    if importers:
        again = run_all(importers, dataclasses.replace(dry, helper_exports=exports, helper_refusals=refusals))
        updated.update(zip(importers, again))
    return exports, refusals, updated


def _shape(form: HelperClass) -> tuple:
    return form.class_name, form.tensor_params, form.lazy, form.members


def disagreement(project, provider: str, function: str, asked: List[Tuple[Path, HelperClass]]) -> str:
    """Why the importers cannot have the helper as a class ("" when they can)."""
    if len({_shape(form) for _, form in asked}) > 1:
        return "is built as different classes by the modules importing it (tensors for different parameters)"
    modules = project.index.modules
    requesters = {path for path, _ in asked}
    for edge in project.index.edges:
        if str(modules[edge.target].path) != provider:
            continue
        importer = modules[edge.importer].path
        if importer in requesters:
            continue
        if not edge.names and not edge.star and _names_word(importer, function):
            return f"comes from a module {importer} imports whole and uses as a function"
        if function in edge.names or (edge.star and _names_word(importer, function)):
            return f"is imported by {importer} too, which does not build it as a class"
    return ""


def _names_word(path: Path, word: str) -> bool:
    """Whether the module's text names ``word`` (a module that cannot be read is assumed to)."""
    try:
        return re.search(rf"\b{re.escape(word)}\b", files.read_source(path).text) is not None
    except files.ReadError:
        return True


def _provider_refusal(result: FileOutcome, function: str, expected: HelperClass) -> str:
    """Why the provider's migration does not define the class its importers expect ("" when it does)."""
    if result.outcome != report.EAGER:
        return f"stays a function: {result.path} is not migrated to eager code"
    made = result.helper_exports.get(function)
    if isinstance(made, str):
        return made
    if not isinstance(made, HelperClass) or _shape(made) != _shape(expected):
        return f"would be another class in {result.path} than the one expected here"
    return ""

