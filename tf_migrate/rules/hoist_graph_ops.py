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

A training loop that builds its evaluation ops where it runs them (a course's MNIST notebook, at every 100th step)
has them moved before the loop, the same way::

    for i in range(steps):                              matches = tf.equal(tf.argmax(y_pred, 1), ...)
        sess.run(train, {...})                          acc = tf.reduce_mean(tf.cast(matches, tf.float32))
        if i % 100 == 0:                        ->      for i in range(steps):
            matches = tf.equal(tf.argmax(y_pred, 1), ...)   sess.run(train, {...})
            acc = tf.reduce_mean(tf.cast(matches, ...))     if i % 100 == 0:
            print(sess.run(acc, {...}))                          print(sess.run(acc, {...}))

The loop stands at module level or in module-level ``with`` blocks (a session's); a statement moves from its body,
at any depth of ``if`` / ``for`` / ``while`` / ``with`` blocks in it, where it is the only statement of the module
that binds its name, reads no name the loop binds (its targets, what its body binds) and builds ops only, as above.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, binding_counts, reads, symbol_key, target_keys, writes
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import block_statements, pass_if_empty
from tf_migrate.traversal import visit

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
            if isinstance(statement, (cst.For, cst.While, cst.With)) and _runs_graph(statement):
                moved, statement = self._loops(statement, bound_before, counts, ctx)
                if isinstance(statement, cst.FlattenSentinel):
                    *hoisted, statement = statement.nodes
                    body.extend(hoisted)
                    bound_before.update(k for line in hoisted for k in writes(line))
                changed = changed or moved
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

    def _loops(self, statement, module_names: Set[str], counts: Dict[str, int], ctx: RuleContext):
        """(whether ops moved, ``statement``): a loop with its ops moved before it, or a ``with`` block with the
        loops of its body done so."""
        if isinstance(statement, cst.With):
            available, body, moved = set(module_names), [], False
            for inner in block_statements(statement.body):
                if isinstance(inner, (cst.For, cst.While, cst.With)) and _runs_graph(inner):
                    moved_here, inner = self._loops(inner, available, counts, ctx)
                    if isinstance(inner, cst.FlattenSentinel):
                        body.extend(inner.nodes)
                        moved = True
                        continue
                    moved = moved or moved_here
                body.append(inner)
                available.update(k for k in writes(inner) if counts.get(k) == 1)
            return moved, statement.with_changes(body=statement.body.with_changes(body=body)) if moved else statement
        loop_bound = set(writes(statement))
        inside = _simple_lines(statement.body)
        inside_counts: Dict[str, int] = {}
        for line in inside:
            for key in writes(line):
                inside_counts[key] = inside_counts.get(key, 0) + 1
        available = set(module_names)
        hoisted: List[cst.SimpleStatementLine] = []
        for line in inside:
            target = _single_target(line)
            if target is None or counts.get(target) != 1 or inside_counts.get(target) != 1 \
                    or target in _loop_targets(statement):
                continue
            if self._movable(line, target, available, loop_bound - available - {target}, {target: 1}, {}, ctx) \
                    and not _changed_in(statement, reads(line.body[0].value), ctx):
                hoisted.append(line)
                available.add(target)
                ctx.report(line, RULE_ID, INFO, f"`{target}` is built once, before the loop: TF1 built the same op at "
                                                "each iteration")
        if not hoisted:
            return False, statement
        moved = {id(line) for line in hoisted}
        loop = visit(statement, _Without(moved))
        first = hoisted[0].with_changes(leading_lines=[*statement.leading_lines, *hoisted[0].leading_lines])
        loop = loop.with_changes(leading_lines=[])
        return True, cst.FlattenSentinel([first, *hoisted[1:], loop])

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


_READ_ONLY_METHODS = ("run", "eval", "get_shape", "numpy", "format")


def _changed_in(loop: cst.CSTNode, names: Set[str], ctx: RuleContext) -> bool:
    """Whether the loop may change a value of ``names`` in place (``history.append(v)``, ``data[i] = v``,
    ``np.random.shuffle(data)``): an op built on it at each iteration saw it as it was then, one built before the loop
    as it was before. Passing it to TensorFlow, ``print`` or a run (``sess.run(pred, ...)``) changes nothing."""
    roots = {key.split(".")[0] for key in names}

    class _Changes(cst.CSTVisitor):
        found = False

        def visit_Call(self, call: cst.Call) -> None:
            func = call.func
            if isinstance(func, cst.Attribute) and (symbol_key(func.value) or "").split(".")[0] in roots \
                    and func.attr.value not in _READ_ONLY_METHODS and ctx.names.call_name(call) is None:
                self.found = True  # a method of the value itself
            harmless = ctx.names.call_name(call) is not None or (isinstance(func, cst.Name) and func.value == "print") \
                or (isinstance(func, cst.Attribute) and func.attr.value in _READ_ONLY_METHODS)
            if not harmless and any(roots & {k.split(".")[0] for k in reads(arg.value)} for arg in call.args):
                self.found = True  # handed to code that may change it

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            if isinstance(node.target, (cst.Subscript, cst.Attribute)) and roots & set(
                    k.split(".")[0] for k in reads(node.target)):
                self.found = True

    finder = _Changes()
    visit(loop, finder)
    return finder.found


def _simple_lines(block: cst.BaseSuite) -> List[cst.SimpleStatementLine]:
    """The simple statement lines of ``block`` and of the ``if`` / ``for`` / ``while`` / ``with`` blocks in it, in text
    order (not those of functions, classes or ``try`` blocks)."""
    found: List[cst.SimpleStatementLine] = []
    for statement in block_statements(block):
        if isinstance(statement, cst.SimpleStatementLine):
            found.append(statement)
        elif isinstance(statement, (cst.For, cst.While, cst.With)):
            found += _simple_lines(statement.body)
        elif isinstance(statement, cst.If):
            branch = statement
            while isinstance(branch, cst.If):
                found += _simple_lines(branch.body)
                branch = branch.orelse
            if isinstance(branch, cst.Else):
                found += _simple_lines(branch.body)
    return found


def _loop_targets(statement: cst.CSTNode) -> Set[str]:
    """The names the ``for`` targets and ``with ... as`` names in ``statement`` bind."""
    found: Set[str] = set()

    class _Targets(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            found.update(target_keys(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            found.update(target_keys(node.name))

    visit(statement, _Targets())
    return found


class _Without(cst.CSTTransformer):
    """The statements of the given ids removed (``pass`` where a block is left empty)."""

    def __init__(self, removed: Set[int]) -> None:
        self.removed = removed

    def leave_SimpleStatementLine(self, original, updated):
        return cst.RemovalSentinel.REMOVE if id(original) in self.removed else updated

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated.with_changes(body=pass_if_empty(updated.body))


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
