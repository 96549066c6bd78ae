"""When a helper's ``tf.Module`` may make its variables at its first call (``helper-modules``).

A helper whose variables TF1 shaped from its input (``in_dim = x.get_shape()[1]``) becomes a class that
makes them at its first call, from the input's static shape (``rules/_module_split``). TF1 made them where
the helper ran, at build time; made at the first call instead, they keep TF1's creation order only if
every variable made after the helper's first call site is made at a first call too, in the same order:

    h1 = conv_layer(x_image, 5, 16)      # its variables: at the first call of the run function that needs h1
    h2 = conv_layer(h1, 5, 32)           # at the same trace, after h1's (Python calls them in this order)
    out = fc_layer(flatten(h2), 10)      # fc_layer also reads its input's shape: also made at its first call
    w = tf.Variable(...)                 # made where it stands: before all of them (refused)

So a helper may wait when nothing after its first call makes variables except helpers that wait too (which
``lazily_built`` settles together), and nothing reads the variable list before a run (a ``Saver``,
``tf.trainable_variables()``), which would see them missing. In a program that seeds no random op (no graph seed,
no ``seed=``), the order variables are made in shows nowhere else (TF1 drew other initial values at each run): there
only the reads of the list before a run refuse.
"""
from __future__ import annotations

from typing import Callable, Iterable, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.tfnames import TFNames


def first_call_refusal(name: str, sites, module: cst.Module, names: TFNames, makers: Set[str],
                       lazy: Set[str]) -> Optional[str]:
    """Why the helper ``name``, called at ``sites`` (each with ``.function`` and ``.call``), may not make its
    variables at its first call (None: it may). ``makers``: the module's functions that make variables;
    ``lazy``: the other helpers that make theirs at their first calls."""
    if len({id(site.function) for site in sites}) != 1:
        return "its calls are in different functions"
    function = sites[0].function
    body = list(module.body) if function is None else pm.nested_scope_body(function)[0]
    calls = {id(site.call) for site in sites}
    first = next((i for i, stmt in enumerate(body) if any(id(c) in calls for c in all_calls(stmt))), None)
    if first is None:
        return "its calls are not statements of one scope"
    for stmt in body[first:]:
        for call in all_calls(stmt):
            called = call.func.value if isinstance(call.func, cst.Name) else None
            if called == name or called in lazy:
                continue
            qualname = names.call_name(call)
            if qualname in api.VARIABLE_COLLECTIONS | api.SAVERS and not _update_ops(call, names):
                return f"`{qualname}` reads the variables before any run, when they are not made yet"
            if (qualname in api.VARIABLE_CONSTRUCTORS or (qualname and api.builds_keras_variables(qualname))
                    or called in makers) and _draws_seeded(module, names):
                return (f"`{qualname or called}` after its first call makes variables, which would "
                        "then be made before its own (TF1's creation order, which a seeded program's initial "
                        "values follow)")
    return None


def _draws_seeded(module: cst.Module, names: TFNames) -> bool:
    """Whether TF1's initial values repeat from run to run (a graph seed, or an op's ``seed=``): then they follow
    the order variables are made in. Unseeded, that order shows only in the variable lists TF1 kept, collections
    and Savers, which are refused above, and in names, which eager variables do not keep anyway."""
    return any(names.call_name(call) in api.GRAPH_SEEDS
               or any(arg.keyword is not None and arg.keyword.value == "seed" for arg in call.args)
               for call in all_calls(module))


def _update_ops(call: cst.Call, names: TFNames) -> bool:
    """``tf.get_collection(tf.GraphKeys.UPDATE_OPS)``: batch norm's update ops, not variables (their runs are
    ``analysis/batch_norm_updates``' work)."""
    key = call.args[0].value if call.args else None
    return key is not None and names.qualname(key) == "tf.GraphKeys.UPDATE_OPS"


def lazily_built(helpers: Iterable[str], splits_lazily: Callable[[str], bool],
                 refusal: Callable[[str, Set[str]], Optional[str]]) -> Set[str]:
    """The helpers whose variables may wait for their first calls, all together: those that would (their variables
    read their input's shape), less each one that another maker after its first call keeps from waiting, until
    none is refused."""
    lazy: List[str] = [name for name in helpers if splits_lazily(name)]
    while True:
        refused = [name for name in lazy if refusal(name, set(lazy) - {name}) is not None]
        if not refused:
            return set(lazy)
        lazy = [name for name in lazy if name not in refused]
