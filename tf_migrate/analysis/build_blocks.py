"""A loop or branch kept at build time because it makes variables must not also compute on per-run tensors.

Run by :func:`tf_migrate.analysis.scope_analysis.analyze_scope` after the passes of
:mod:`tf_migrate.analysis.scope_passes`.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.block_variables import computed_reads
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.symbols import all_calls, callee_name, target_keys


def check_build_blocks(c: Classifier) -> None:
    """A loop or branch kept at build time because it makes variables must not also compute on per-run tensors.

    ``for n in sizes: W = tf.Variable(...); h = tf.matmul(h, W)`` (an autoencoder's layer loop) makes its
    variables once, as TF1 did, but TF1's ``tf.matmul`` was graph code every run recomputed: kept at build
    time, it would run once on a value that no longer exists. Static shape and dtype reads
    (``h.get_shape()[1]``) are not computing."""
    makers = c.scope.variable_functions | c.scope.variable_classes
    for st in c.scope.statements:
        if st.role != pm.KEEP or isinstance(st.node, (cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef)) \
                or st.kind == "nested-scope":
            continue
        calls = all_calls(st.node)
        qualnames = [c.names.call_name(call) or "" for call in calls]
        if not any(q in api.VARIABLE_CONSTRUCTORS or api.builds_keras_variables(q) for q in qualnames) and not any(
                callee_name(call) in makers for call in calls):
            continue
        own = set(target_keys(st.node.target)) if isinstance(st.node, cst.For) else set()  # this loop's
        for call, qualname in zip(calls, qualnames):
            if not qualname.startswith("tf.") or qualname in api.VARIABLE_CONSTRUCTORS:
                continue
            computed = sorted(key for arg in call.args for key in computed_reads(arg.value)
                              if key not in own and _per_run(c.scope, key, st.index))
            if computed:
                c.block(st.node, f"a block that makes variables also computes on the per-run tensor `{computed[0]}` "
                                 f"(`{qualname}`): kept at build time, it would not run at each step")
                break


def _per_run(scope: "pm.Scope", key: str, index: int) -> bool:
    symbol = scope.symbol_at(key, index)
    return symbol is not None and symbol.kind in pm.DEFERRED_KINDS


def check_deferred_calls(c: Classifier) -> None:
    """Graph code (moved into the functions of the runs that need it, or dropped where none does) must not call a
    function of the scope that runs the graph: ``for i in range(n): train_step(x); s = tf.add(s, 1)`` would call
    ``train_step`` at each run of ``s``, or never."""
    runners = {st.node.name.value for st in c.scope.statements
               if isinstance(st.node, cst.FunctionDef) and st.run_sites}
    for st in c.scope.statements:
        if st.role != pm.DEFER or not runners:
            continue
        called = sorted({call.func.value for call in all_calls(st.node)
                         if isinstance(call.func, cst.Name) and call.func.value in runners})
        if called:
            c.block(st.node, f"graph code here also calls `{called[0]}`, which runs the graph: moved into the "
                             "functions of the runs that need it, the call would happen at each of those runs")
