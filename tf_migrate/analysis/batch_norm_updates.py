"""Batch normalization's moving statistics: updated by the runs that updated them in TF1, or the file stays compat.

A Keras batch normalization layer called with ``training=True`` updates its moving mean and variance in the
call. TF1's ``tf.layers.batch_normalization`` put those updates in ``UPDATE_OPS``: they ran only in a run
that fetched them, through ``with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):``
around the training op, and then all of them, for every batch norm the graph had built by then. So

    sess.run(train, {x: bx, is_train: True})     # TF1 and eager: the statistics move
    sess.run(loss, {x: bx, is_train: True})      # TF1: they stay; eager: a Keras layer in training moves them

Each run that computes a batch norm that may train (its ``training`` is not ``False``) must be one of:

* a run that feeds ``False`` to every placeholder its ``training`` reads, or leaves a ``placeholder_with_default``
  of ``False`` unfed (inference: nothing moves);
* a run of an op defined under ``control_dependencies`` of the ``UPDATE_OPS`` collection, that computes every
  statement that computed a batch norm before that block (TF1 updated them all; eager code updates what the run
  computes). A Keras layer of the TF1 program itself (not a converted ``tf.layers`` call) never put its updates
  in the collection: only the first case holds for it.

Any other run keeps the file in compat mode, with the reason at the run.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.callables import fetch_leaves
from tf_migrate.analysis.input_specs import placeholder_default
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.slicing import plan_run
from tf_migrate.analysis.symbols import all_calls, callee_name, symbol_key
from tf_migrate.cst.arguments import argument, bind_with_defaults
from tf_migrate.tfnames import TFNames

_BATCH_NORM = "tf.keras.layers.BatchNormalization"
_UPDATE_OPS = "tf.GraphKeys.UPDATE_OPS"


class BatchNormUpdates:
    """What one scope's batch norm layers are, which statements compute them, and what may switch them to train."""

    def __init__(self, scope: "pm.Scope", names: TFNames) -> None:
        statements = scope.statements
        layers = {st.defines[0]: st for st in statements if len(st.defines) == 1 and _constructs(st.node, names)}
        self.converted = all(key in scope.layer_scopes for key in layers)  # all from tf.layers: in UPDATE_OPS
        functions = {st.node.name.value: st.node for st in statements if isinstance(st.node, cst.FunctionDef)}
        training_calls = {name: [c for c in all_calls(f) if _training_call(c, layers)] for name, f in functions.items()}
        computing_functions = {name for name, calls in training_calls.items() if calls}
        for _ in range(len(functions)):  # functions calling those: to a fixpoint
            computing_functions |= {name for name, f in functions.items() if any(
                callee_name(c) in computing_functions for c in all_calls(f))}
        self.computing: Set[int] = set()
        self.switches: Optional[Set[str]] = set()  # placeholder keys a training argument reads (None: unknown)
        placeholders = {k for st in statements if st.kind == pm.PLACEHOLDER for k in st.defines}
        self.defaults = {st.defines[0]: placeholder_default(st, scope, names) for st in statements
                         if st.kind == pm.PLACEHOLDER and len(st.defines) == 1}  # placeholder_with_default(False)
        for st in statements:
            if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
                continue
            calls = all_calls(st.node)
            direct = [c for c in calls if _training_call(c, layers)]
            if direct or any(callee_name(c) in computing_functions for c in calls):
                self.computing.add(st.index)
            for call in direct:
                self._switch(argument(call, "training"), placeholders)
        for name, calls in training_calls.items():
            params = [p.name.value for p in functions[name].params.params]
            for call in calls:
                training = argument(call, "training")
                if isinstance(training, cst.Name) and training.value in params:
                    self._parameter_switch(functions[name], training.value, statements, placeholders)
                else:
                    self._switch(training, placeholders)
        self.update_blocks: Dict[str, int] = {}  # key defined under control_dependencies(UPDATE_OPS) -> its index
        collections = {k for st in statements for k in st.defines if _update_ops(st.node, names)}
        for st in statements:
            for block in st.flat.unwrapped_from:
                if any(_depends_on_updates(item.item, collections, names) for item in block.items):
                    self.update_blocks.update((key, st.index) for key in st.defines)

    def _switch(self, training: Optional[cst.BaseExpression], placeholders: Set[str]) -> None:
        if self.switches is None:
            return
        key = symbol_key(training) if training is not None else None
        if key in placeholders:
            self.switches.add(key)
        else:
            self.switches = None

    def _parameter_switch(self, func: cst.FunctionDef, param: str, statements, placeholders: Set[str]) -> None:
        """The placeholders every call of ``func`` passes as its ``param``."""
        for st in statements:
            for call in all_calls(st.node):
                if isinstance(call.func, cst.Name) and call.func.value == func.name.value:
                    bound = bind_with_defaults(call, list(func.params.params))
                    value = bound.get(param) if bound is not None else None
                    if _false(value):
                        continue
                    self._switch(value, placeholders)

    def run_problem(self, site: RunSite, plan) -> Optional[str]:
        """Why the eager run would move statistics TF1 left (or leave ones TF1 moved), or None."""
        computed = {st.index for st in plan.statements} & self.computing
        if not computed:
            return None
        fed = dict(plan.fed)
        if self.switches is not None and all(_false(fed[k] if k in fed else self.defaults.get(k))
                                             for k in self.switches):
            return None  # inference mode
        leaves = {symbol_key(leaf) for leaf in fetch_leaves(site.fetch)}
        blocks = [self.update_blocks[k] for k in leaves if k in self.update_blocks]
        if not blocks or not self.converted:
            return ("this run computes batch normalization in training mode without running its update ops: TF1 "
                    "left the moving statistics as they were, a Keras layer called in training moves them")
        before = {i for i in self.computing if i < min(blocks)}
        if not before <= computed:
            return ("this run's update ops (UPDATE_OPS) moved the statistics of every batch normalization built "
                    "before them, also of those it does not compute: eager code moves only those it computes")
        return None


def _false(value: Optional[cst.BaseExpression]) -> bool:
    return isinstance(value, cst.Name) and value.value == "False"


def _assigned(node: cst.CSTNode) -> Optional[cst.BaseExpression]:
    """The value of a line that is one assignment (``x = value``), else None."""
    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1 or not isinstance(node.body[0], cst.Assign):
        return None
    return node.body[0].value


def _constructs(node: cst.CSTNode, names: TFNames) -> bool:
    value = _assigned(node)
    return isinstance(value, cst.Call) and names.call_name(value) == _BATCH_NORM


def _training_call(call: cst.Call, layers: Dict[str, object]) -> bool:
    """A call of a batch norm layer whose ``training`` is not ``False`` (Keras' default is inference)."""
    if not (isinstance(call.func, cst.Name) and call.func.value in layers):
        return False
    training = argument(call, "training")
    return training is not None and not _false(training)


def _update_ops(node: cst.CSTNode, names: TFNames) -> bool:
    """``update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)``."""
    value = _assigned(node)
    return value is not None and _collection_call(value, names)


def _collection_call(value: cst.BaseExpression, names: TFNames) -> bool:
    if not (isinstance(value, cst.Call) and names.call_name(value) == "tf.get_collection" and value.args):
        return False
    return names.qualname(value.args[0].value) == _UPDATE_OPS


def _depends_on_updates(item: cst.BaseExpression, collections: Set[str], names: TFNames) -> bool:
    if not (isinstance(item, cst.Call) and names.call_name(item) == "tf.control_dependencies" and item.args):
        return False
    value = item.args[0].value
    return symbol_key(value) in collections or _collection_call(value, names)


def batch_norm_blockers(scope: "pm.Scope", names: TFNames, sites: List[Tuple[RunSite, int]]) -> List[tuple]:
    """(run call, why) for each run of ``sites`` [(site, the statement index its slice stops at)] that would move
    statistics otherwise than TF1 did."""
    if not any(_constructs(st.node, names) for st in scope.statements):
        return []
    updates = BatchNormUpdates(scope, names)
    if not updates.computing:
        return []
    found = []
    for site, limit in sites:
        problem = updates.run_problem(site, plan_run(scope, site, limit))
        if problem:
            found.append((site.call, problem))
    return found


def scope_run_sites(scope: "pm.Scope") -> List[Tuple[RunSite, int]]:
    """The runs a scope plans itself, each with the index its slice stops at (a function's: the scope's end)."""
    return [(site, len(scope.statements) if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)) else st.index)
            for st in scope.statements for site in st.run_sites if site.instance is None]
