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
A function that makes variables and computes tensors, used nowhere in its own module, also carries
its definition: the importer's ``helper-modules`` may build it as a ``tf.Module`` per call site, which
makes per-call variables (``get_variable``) once (``rules/_tree_helpers``). A call of a function opaque
for any other reason keeps the importer compat wherever it stands: what it builds is not known.
Classes are not summarized yet: a call of an imported class stays unknown.
"""
from __future__ import annotations

from collections import Counter
from typing import Dict, Iterable, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.callables import summarize_definition
from tf_migrate.analysis.symbols import all_calls, bound_names
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.cst.names import all_names
from tf_migrate.tfnames import ImportedFunction, TFNames

# What an imported function may not do for its caller's analysis to trust its summary.
_CONTEXT_BOUND = (
    (api.PLACEHOLDERS | api.SESSIONS, "builds placeholders or runs a session (a graph program of its own)"),
    ({"tf.get_variable", "tf.compat.v1.get_variable"}, "shares variables through its caller's variable scopes"),
    ({"tf.add_to_collection", "tf.get_collection", "tf.add_to_collections", "tf.get_collection_ref"},
     "reads or fills graph collections of its caller's graph"),
)
_PER_CALL = {"tf.get_variable", "tf.compat.v1.get_variable"}
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
    bound: Dict[str, Tuple[str, bool]] = {}  # provider function -> (why its caller cannot trust it, per call)
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
    used_in_provider = _names_used(module)
    taken = frozenset(all_names(module))
    for local, name in wanted.items():
        if name not in defs:
            continue
        why, per_call = bound[name]
        why = why or scratch.opaque_functions.get(name, "")
        # A helper making variables (with tf.Variable, or per call: get_variable, rnn cells): an importer may build it
        # once per call site as a tf.Module, when it computes tensors and its module never uses it itself.
        splittable = ((per_call or not why) and name not in scratch.opaque_functions and name not in used_in_provider
                      and name in scratch.variable_functions and name in scratch.tensor_functions)
        found[local] = ImportedFunction(
            provider=path, name=name, creates_variables=name in scratch.variable_functions,
            returns_tensors=name in scratch.tensor_functions,
            opaque=f"is imported from {path} and {why}" if why else "",
            per_call=per_call and name not in scratch.opaque_functions,
            definition=defs[name] if splittable else None, provider_names=names if splittable else None,
            provider_makers=frozenset(scratch.variable_functions), provider_taken=taken)
    return found


def _names_used(module: cst.Module) -> Set[str]:
    """The names a module reads or binds, but for its functions' own names in their ``def`` lines."""
    counts: Counter = Counter()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            counts[node.value] += 1

    module.visit(_Names())
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            counts[statement.name.value] -= 1
    return {name for name, count in counts.items() if count > 0}


def _context_bound(calls: Iterable[cst.Call], names: TFNames, earlier: Dict[str, Tuple[str, bool]],
                   makes_variables: bool) -> Tuple[str, bool]:
    """Why a function's effect depends on its caller's graph context ("" when it does not), and whether that is
    only that it makes its variables at each call (shared through scopes, or in rnn cell objects): a tf.Module
    built once per call site makes them once. A variable scope only names ops in a function that makes none."""
    per_call = ""
    for call in calls:
        why, only_per_call = _call_bound(call, names, earlier, makes_variables)
        if why and not only_per_call:
            return why, False
        per_call = per_call or why
    return per_call, bool(per_call)


def _call_bound(call: cst.Call, names: TFNames, earlier: Dict[str, Tuple[str, bool]],
                makes_variables: bool) -> Tuple[str, bool]:
    qualname = names.call_name(call)
    if qualname is None:
        callee = call.func.value if isinstance(call.func, cst.Name) else None
        if callee and earlier.get(callee, ("", False))[0]:
            why, per_call = earlier[callee]
            return f"calls `{callee}`, which {why}", per_call
        return "", False
    if makes_variables and qualname in ("tf.variable_scope", "tf.get_variable_scope"):
        return "makes variables under variable scopes its caller may reuse", True
    if api.builds_keras_variables(qualname):
        return f"makes variables inside `{qualname}` objects (made again at each call of a run function)", True
    for group, why in _CONTEXT_BOUND:
        if qualname in group:
            return why, qualname in _PER_CALL
    for prefix, why in _CONTEXT_PREFIXES:
        if qualname.startswith(prefix):
            return why, False
    return "", False


def add_imported(scope: "pm.Scope", names: TFNames, shadowed: Set[str]) -> None:
    """Give a scope the summaries of the functions its module imports from the tree (``names.imported``),
    but for the names ``shadowed`` there (parameters; ``model`` shadows ``model.f``)."""
    for local, summary in names.imported.items():
        if local.split(".")[0] in shadowed:
            continue
        scope.local_callables.add(local)
        refused = names.tree_helpers.refused.get((summary.provider, summary.name))
        if summary.opaque and (not summary.per_call or refused is not None):
            scope.opaque_functions[local] = summary.opaque + (f"; as a tf.Module it {refused}" if refused else "")
            continue
        if summary.opaque:  # variables per call: rules/helper_modules makes it a tf.Module per call, or checks it
            scope.variable_functions.add(local)
            scope.tensor_functions.add(local)
            continue
        if summary.creates_variables:
            scope.variable_functions.add(local)
        if summary.returns_tensors:
            scope.tensor_functions.add(local)


def rebound_modules(module: cst.Module, imported: Iterable[str]) -> Set[str]:
    """The modules imported whole (``model`` of ``model.f`` in ``imported``) whose name the module also binds to
    something else, at module level, in a function or a comprehension (``model = Model()``, ``def train(model)``,
    ``[model.predict(x) for model in models]``): there
    ``model.f(x)`` may be another object's method, so no call of theirs is taken for the tree's function."""
    roots = {local.split(".")[0] for local in imported if "." in local}
    if not roots:
        return set()
    imports = Counter(name for statement in module.body for name in _import_bound(statement))
    bound = Counter(bound_names(module))
    found = {root for root in roots if bound[root] > imports[root]}

    class _Functions(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            params = set(parameter_names(node.params))
            found.update(roots & (params | set(bound_names(node.body))))

        def visit_Lambda(self, node: cst.Lambda) -> None:
            found.update(roots & {p.name.value for p in node.params.params})

        def visit_CompFor(self, node: cst.CompFor) -> None:  # [model.predict(x) for model in models]
            found.update(roots & _target_names(node.target))

    module.visit(_Functions())
    return found


def _target_names(target: cst.BaseExpression) -> Set[str]:
    """The plain names a loop or comprehension target binds."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_target_names(element.value) for element in target.elements))
    return set()


def _import_bound(statement: cst.CSTNode) -> Iterable[str]:
    """The names a module-level import line binds."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return
    for small in statement.body:
        if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
            for alias in small.names:
                yield (alias.evaluated_alias or alias.evaluated_name).split(".")[0]
