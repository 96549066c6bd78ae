"""Function summaries of helpers imported from another module of the tree being migrated.

    # libs/utils.py                           # 05_basic_convnet.py
    def weight_variable(shape):               from libs.utils import *
        return tf.Variable(tf.random_normal(shape))   W = weight_variable([5, 5, 1, 32])
    def corrupt(x):                           y = corrupt(x) * keep
        return tf.multiply(x, tf.cast(...))

Alone, the analysis of ``05_basic_convnet.py`` cannot see into ``weight_variable`` and keeps the
file compat ("`W` holds a python value"). Given the tree, the engine reads the provider module
and summarizes each imported function as it summarizes its own (``summarize_definition``): it
creates variables (``W = weight_variable(...)`` is a variable made at build time), it returns TF
ops' results (``corrupt(x)`` is a tensor a run function can recompute), or it calls into code the
analysis cannot see. The provider module is migrated on its own pass; its functions keep their
names and parameters, so the importer's calls stay as they are.

A function whose body (or a function of its module it calls) does what only its caller's graph
context settles is summarized as opaque, with the reason, and the importer stays compat where
it hands it per-run values: placeholders or sessions (a graph program of its own), summaries and
collections (registered in the caller's graph, which the caller's rules cannot see), variable
scopes and ``tf.get_variable`` (shared through the caller's scopes), ``tf.layers``, Keras and rnn
objects (their variables are made where the object is built, which a run function would do at
every call).
Classes are not summarized yet: a call of an imported class stays unknown.
"""
from __future__ import annotations

from typing import Dict, Iterable, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.callables import summarize_definition
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.tfnames import ImportedFunction, TFNames

# What an imported function may not do for its caller's analysis to trust its summary.
_CONTEXT_BOUND = (
    (api.PLACEHOLDERS | api.SESSIONS, "builds placeholders or runs a session (a graph program of its own)"),
    ({"tf.get_variable", "tf.compat.v1.get_variable"}, "shares variables through its caller's variable scopes"),
    ({"tf.add_to_collection", "tf.get_collection", "tf.add_to_collections", "tf.get_collection_ref"},
     "reads or fills graph collections of its caller's graph"),
)
_CONTEXT_PREFIXES = (("tf.summary.", "registers summaries in its caller's graph"),
                     ("tf.layers.", "builds tf.layers objects"),
                     ("tf.contrib.", "calls tf.contrib"),
                     ("tf.train.", "builds training state of the caller's graph"))


def summarize_provider(module: cst.Module, path: str, wanted: Dict[str, str]) -> Dict[str, ImportedFunction]:
    """The summaries of the provider's top-level functions ``wanted`` (local name -> name in the provider).

    The provider's functions are summarized with its own imports, in a scope of their own, again until
    nothing changes, so a helper's helpers (``fc_layer`` calling ``weight_variable``, defined before or
    after it) count, and nothing of the provider leaks into the importer's names but what it imports."""
    names = TFNames.scan(module)
    scratch = pm.Scope([], {}, set(), [], [], [])
    bound: Dict[str, str] = {}  # provider function -> why its caller cannot trust it ("" when it can)
    defs = {}
    functions = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    for _ in range(len(functions) + 1):  # a function may call one defined after it: until nothing changes
        before = (set(scratch.variable_functions), dict(scratch.opaque_functions), dict(bound))
        for statement in functions:
            calls = all_calls(statement)
            summarize_definition(statement, calls, scratch, names)
            bound[statement.name.value] = _context_bound(calls, names, bound,
                                                         statement.name.value in scratch.variable_functions)
            defs[statement.name.value] = statement
        if before == (scratch.variable_functions, scratch.opaque_functions, bound):
            break
    found: Dict[str, ImportedFunction] = {}
    for local, name in wanted.items():
        if name not in defs:
            continue
        why = bound[name] or scratch.opaque_functions.get(name, "")
        found[local] = ImportedFunction(
            provider=path, name=name, creates_variables=name in scratch.variable_functions,
            returns_tensors=name in scratch.tensor_functions,
            opaque=f"is imported from {path} and {why}" if why else "")
    return found


def _context_bound(calls: Iterable[cst.Call], names: TFNames, earlier: Dict[str, str], makes_variables: bool) -> str:
    """Why a function's effect depends on its caller's graph context ("" when it does not). A variable
    scope only names ops in a function that makes no variables."""
    for call in calls:
        qualname = names.call_name(call)
        if qualname is None:
            callee = call.func.value if isinstance(call.func, cst.Name) else None
            if callee and earlier.get(callee):
                return f"calls `{callee}`, which {earlier[callee]}"
            continue
        if makes_variables and qualname in ("tf.variable_scope", "tf.get_variable_scope"):
            return "makes variables under variable scopes its caller may reuse"
        if api.builds_keras_variables(qualname):
            return f"makes variables inside `{qualname}` objects (made again at each call of a run function)"
        for group, why in _CONTEXT_BOUND:
            if qualname in group:
                return why
        for prefix, why in _CONTEXT_PREFIXES:
            if qualname.startswith(prefix):
                return why
    return ""


def add_imported(scope: "pm.Scope", names: TFNames, shadowed: Set[str]) -> None:
    """Give a scope the summaries of the functions its module imports from the tree (``names.imported``),
    but for the names ``shadowed`` there (parameters)."""
    for local, summary in names.imported.items():
        if local in shadowed:
            continue
        scope.local_callables.add(local)
        if summary.opaque:
            scope.opaque_functions[local] = summary.opaque
            continue
        if summary.creates_variables:
            scope.variable_functions.add(local)
        if summary.returns_tensors:
            scope.tensor_functions.add(local)

