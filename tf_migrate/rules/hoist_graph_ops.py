"""Ops a function builds on the module's graph values, to run them, are built once at module level.

    model = tf.layers.dense(outputs, n_class)           model = tf.layers.dense(outputs, n_class)
                                                        prediction = tf.argmax(model, 2)
    def translate(word):                        ->
        prediction = tf.argmax(model, 2)                def translate(word):
        return sess.run(prediction, {...})                  return sess.run(prediction, {...})

TF1 added a new op to the graph at each call and ran it; the op computes the same thing from
the same graph values, so building it once, before the function, is the same program. Then
the function's run is a run of the module's graph like any other, and the session rule
converts it. A statement moves when it binds a name once and only reads names the module binds
once before the function (graph values, constants, modules) or names moved before it; it
must build ops only: no variables, layers, placeholders, queues, summaries or sessions. The function
must be at module level and run the graph itself (``.run(`` / ``.eval(``); the statements must
stand at the top of its body, before any other statement binds a name they read.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, binding_counts, reads, writes
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "hoist-graph-ops"
_RUN_METHODS = ("run", "eval")
# Calls that make state or graph plumbing: a statement with one stays where it is.
_STATEFUL_PREFIXES = ("tf.Variable", "tf.get_variable", "tf.layers.", "tf.keras.", "tf.placeholder",
                      "tf.summary.", "tf.Session", "tf.InteractiveSession", "tf.train.", "tf.nn.rnn_cell.",
                      "tf.contrib.", "tf.global_variables_initializer", "tf.variable_scope", "tf.name_scope")


_PLUMBING = (api.VARIABLE_CONSTRUCTORS | api.PLACEHOLDERS | api.SESSIONS | api.GRAPHS | api.INITIALIZER_OPS
             | api.OP_CONSTRUCTORS | api.RANDOM_OPS | api.PER_RUN_EFFECT_OPS | api.EAGER_CONFIG_CALLS | api.GRAPH_MODE_CONFIG_CALLS
             | api.SAVERS | api.VARIABLE_COLLECTIONS | api.QUEUES)


class HoistGraphOps(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("ops a function builds on the module's graph values and runs (`pred = tf.argmax(logits, 1)` "
                   "in `predict`) -> built once at module level, where the session rule converts the run")
    ORDER = 85  # after the layer and optimizer rules, before the scope analysis of helper-modules (95)
    TRIGGERS = ("run(", "eval(")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        counts = binding_counts(module.body)
        bound_before: Set[str] = set()
        body: List[cst.BaseStatement] = []
        changed = False
        for statement in module.body:
            if isinstance(statement, cst.FunctionDef) and _runs_graph(statement):
                hoisted, statement = self._function(statement, bound_before, counts, ctx)
                if hoisted:
                    body.extend(hoisted)
                    changed = True
                    for line in hoisted:  # now module names: another function's local of that name stays
                        counts.update((k, 1) for k in writes(line))
            body.append(statement)
            bound_before.update(k for k in writes(statement) if counts.get(k) == 1)
        return module.with_changes(body=body) if changed else module

    def _function(self, func: cst.FunctionDef, module_names: Set[str], counts: Dict[str, int], ctx: RuleContext):
        params = {p.name.value for p in [*func.params.params, *func.params.kwonly_params]}
        local_counts = binding_counts(func.body.body)
        available = set(module_names)  # names a moved statement may read
        hoisted: List[cst.SimpleStatementLine] = []
        kept: List[cst.BaseStatement] = []
        bound_in_body: Set[str] = set()
        for statement in func.body.body:
            target = _single_target(statement)
            if target is not None and not bound_in_body & reads(statement.body[0].value) and self._movable(
                    statement, target, available, params, local_counts, counts, ctx):
                hoisted.append(statement)
                available.add(target)
                ctx.report(statement, RULE_ID, INFO, f"`{target}` is built once, before `{func.name.value}`: "
                                                     "TF1 built the same op at each call")
                continue
            kept.append(statement)
            bound_in_body.update(writes(statement))
        if not hoisted:
            return [], func
        if not kept:
            kept = [cst.SimpleStatementLine([cst.Pass()])]
        return hoisted, func.with_changes(body=func.body.with_changes(body=kept))

    def _movable(self, statement, target: str, available: Set[str], params: Set[str], local_counts, counts,
                 ctx: RuleContext) -> bool:
        if local_counts.get(target) != 1 or target in params or counts.get(target):
            return False  # bound again in the function, or a module name too
        calls = all_calls(statement)
        qualnames = [ctx.names.call_name(call) or "" for call in calls]
        if not any(q.startswith("tf.") for q in qualnames):
            return False
        if any(q.startswith(_STATEFUL_PREFIXES) or q in _PLUMBING or api.is_random_op(q)
               or q.startswith(api.HOST_CALL_PREFIXES) or api.is_compat_only(q) for q in qualnames):
            return False  # state, graph plumbing (tf.Graph(), configs), host calls: not an op to build once
        if any(ctx.names.call_name(call) is None and not _tensor_method(call) for call in calls):
            return False  # a user function or an object's method: it may make variables or read locals
        aliases = set(ctx.names.aliases)
        value_reads = reads(statement.body[0].value)
        return all(key.split(".")[0] in available | aliases for key in value_reads) and not (value_reads & params)


def _tensor_method(call: cst.Call) -> bool:
    """``t.get_shape()``-style methods of graph values are ops or facts, not calls into user code."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in ("get_shape", "set_shape")


def _single_target(statement: cst.BaseStatement):
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return None
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value
    return None


def _runs_graph(func: cst.FunctionDef) -> bool:
    return any(isinstance(call.func, cst.Attribute) and call.func.attr.value in _RUN_METHODS
               for call in all_calls(func.body))
