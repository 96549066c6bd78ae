"""Helpers of another module of the tree as ``tf.Module`` classes: both sides of ``helper-modules`` across modules.

    # ops.py                                   # main.py
    def fc_layer(x, num_units, name):          from ops import fc_layer
        W = weight_variable(name, [in_dim, n])  fc1 = fc_layer(x, h1, 'FC1')
        ...                                     out = fc_layer(fc1, n_classes, 'OUT')
becomes
    class FcLayer(tf.Module): ...               from ops import FcLayer
                                                fc_layer_1 = FcLayer(h1, 'FC1')
                                                fc1 = fc_layer_1(x)  ...

TF1 made a helper's ``get_variable`` variables (or rnn cells) each time a call
built the graph; a run function would make them at every run. Built once per
call site, a ``tf.Module`` makes them once, in TF1's order, as
``helper-modules`` does for a helper of the same module. Across modules the
two sides must agree: the importer reads which arguments are tensors from its
call sites and splits the provider's definition itself (``class_for_importer``)
to know the class's variables; the project pass (``tf_migrate/tree_helpers``)
hands the provider the tensor parameters its importers asked for, the provider
splits the same definition (``class_for_provider``), and the importers keep
their rewrite only when the provider's class is the one they expected.

The importer refuses, with the reason at the call, when it uses variable
scopes (TF1 shared ``get_variable`` variables through them, which instances
do not) or when the class's name is taken in the module.
"""
from __future__ import annotations

import re
from typing import Dict, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis.modules import module_members
from tf_migrate.cst.text import module_code
from tf_migrate.rules._module_split import SplitRefused, class_name, split
from tf_migrate.tfnames import HelperClass, ImportedFunction, TFNames

_SHARED_SCOPES = re.compile(r"\b(?:variable_scope|get_variable_scope|reuse_variables|AUTO_REUSE)\b|\breuse\s*=")


def imported_candidates(names: TFNames) -> Dict[str, ImportedFunction]:
    """local name -> summary of the functions imported from the tree that make variables and that this module may
    use: as tf.Module classes (those with a definition), or as functions called on Python values only."""
    refused = names.tree_helpers.refused
    return {local: summary for local, summary in names.imported.items()
            if (summary.definition is not None or summary.per_call) and (summary.provider, summary.name) not in refused}


def class_for_importer(summary: ImportedFunction, tensor_params: Sequence[str], lazy_refused: Optional[str],
                       importer: cst.Module, taken: Set[str]) -> HelperClass:
    """The class the provider will define for ``summary``'s function, called with tensors for ``tensor_params``;
    raises SplitRefused."""
    shared = _shared_scopes(summary, importer)
    if shared:
        raise SplitRefused(shared)
    cls = class_name(summary.definition.name.value, set(summary.provider_taken))
    if cls in taken:
        raise SplitRefused(f"its class would be `{cls}`, a name this module binds already")
    names = summary.provider_names or TFNames()
    return _split(summary.definition, tensor_params, summary.provider, names.tf_alias or "tf", names,
                  set(summary.provider_makers), set(summary.provider_taken), lazy_refused)[0]


def kept_imported_helper(summary: ImportedFunction, importer: cst.Module, passes_tensors: Sequence[bool]) -> str:
    """Why a helper of another module that makes variables per call may not stay a function here ("" when it may):
    called only on Python values (``W = weight_variable([784, 10])``), it makes its variables once per call at build
    time, as a function of this module would, unless variable scopes here shared them in TF1."""
    if passes_tensors and _shared_scopes(summary, importer):  # any call: a reused scope handed back TF1's variable
        return _shared_scopes(summary, importer)
    if any(passes_tensors) and summary.definition is None:
        return f"{summary.provider} uses it too (or it does not only compute tensors), so it stays a function there"
    if any(passes_tensors):
        return "it is called on graph tensors outside a graph this module runs, or on values the analysis does not know"
    return ""


def class_for_provider(func: cst.FunctionDef, tensor_params: Sequence[str], path: str, tf: str, names: TFNames,
                       makers: Set[str], taken: Set[str]) -> Tuple[HelperClass, cst.ClassDef]:
    """The class that replaces the provider's ``func`` for its importers; raises SplitRefused."""
    return _split(func, tensor_params, path, tf, names, makers, taken, None)


def _shared_scopes(summary: ImportedFunction, importer: cst.Module) -> str:
    """Why the helper's get_variable variables may have been shared through this module's variable scopes ("")."""
    if summary.opaque and _SHARED_SCOPES.search(module_code(importer)):
        return "this module uses variable scopes, through which TF1 shared the variables its get_variable calls made"
    return ""


def _split(func: cst.FunctionDef, tensor_params: Sequence[str], path: str, tf: str, names: TFNames, makers: Set[str],
           taken: Set[str], lazy_refused: Optional[str]) -> Tuple[HelperClass, cst.ClassDef]:
    """The provider's class for ``func`` (named against the provider's names ``taken``) and its interface."""
    definition = split(func, list(tensor_params), class_name(func.name.value, taken), tf, names, makers, lazy_refused)
    members = module_members(definition, names, makers)
    if members is None:
        raise SplitRefused("its class would make variables other than at the top of __init__ or build")
    lazy = any(isinstance(m, cst.FunctionDef) and m.name.value == "build" for m in definition.body.body)
    form = HelperClass(path, func.name.value, definition.name.value, tuple(tensor_params), lazy, members)
    return form, definition


class RenameImports(cst.CSTTransformer):
    """``from ops import fc_layer`` -> ``from ops import FcLayer`` for the helpers built as classes here."""

    def __init__(self, classes: Dict[str, str]) -> None:
        self.classes = classes  # local name of the function -> its class

    def leave_ImportAlias(self, original: cst.ImportAlias, updated: cst.ImportAlias) -> cst.ImportAlias:
        local = original.evaluated_alias or original.evaluated_name
        if local not in self.classes:
            return updated
        return updated.with_changes(name=cst.Name(self.classes[local]), asname=None)
