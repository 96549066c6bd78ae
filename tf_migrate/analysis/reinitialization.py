"""A second initializer run of variables (a second session, or ``sess.run(init)`` again).

TF1 reset the variables to their initial values there; eager variables keep theirs, so the scope stays compat,
with the reason at the run, unless the second run changes nothing: a reset graph or another graph between them, or
a value computed again the same.
"""
from __future__ import annotations

from typing import List

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.binding_times import free_reads
from tf_migrate.analysis.callables import fetch_leaves
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.run_graphs import run_graph
from tf_migrate.analysis.saver_restores import trains_after_restore
from tf_migrate.analysis.slicing import plan_run
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.arguments import argument


def check_reinitialization(c: Classifier) -> None:
    """Two initializer runs of a variable (a second session) reset it in TF1; eager variables keep their values.

    Not when ``tf.reset_default_graph()`` stands between them: the second one initializes the new
    graph's variables, which eager code creates anew as well (the cookbook's one-script-per-section
    programs); nor when the two run in graphs the text tells apart (``analysis/run_graphs``: a notebook's
    second model in a ``tf.Graph()`` of its own). Nor when the second one gives the variable the value it holds anyway
    (:func:`_reinitialization_changes_nothing`), nor when nothing after the second reads the variables made
    before the first (:func:`_old_variables_unread`: a tutorial's second section building its own ``W``, ``b``,
    ``cost``, ``train`` in the same graph, or a notebook's second model), nor when the next statement restores
    every variable it initialized (:func:`_restored_at_once`). ``w1.initializer`` then ``w2.initializer``
    initialize two variables once each."""
    runs = [st for st in c.scope.statements if st.role == pm.REMOVE and st.run_sites]
    resets = [st.index for st in c.scope.statements
              if any(c.names.call_name(call) == "tf.reset_default_graph" for call in all_calls(st.node))]
    last_run: dict = {}  # variable key -> the initializer run that initialized it last
    for run in runs:
        targets = _initialized(c, run)
        for key in targets:
            before = last_run.get(key)
            if before is not None and not any(before.index < reset < run.index for reset in resets) \
                    and not _other_graphs(c, before, run) \
                    and not _reinitialization_changes_nothing(c, before, run, key) \
                    and not (key != _OBJECTS_VARIABLES and _old_variables_unread(c, before, run)) \
                    and not _restored_at_once(c, run, targets):
                c.block(run.node, "variables are initialized again (a second session): eager variables "
                                  "would keep their trained values")
                return
        last_run.update((key, run) for key in targets)


def _restored_at_once(c: Classifier, run: "pm.Statement", initialized: List[str]) -> bool:
    """Whether the statement after the initializer run ``run`` is ``saver.restore(...)`` of a Saver whose var_list
    (a literal dict, as saver-var-list writes it) holds every variable ``run`` initialized, and the optimizers'
    slots too where the program trains after it (saver-slots' ``optimizers=``): TF1 reset the variables and read
    them back from the checkpoint (aymericdamien's second session: ``sess.run(init)``, ``saver.restore(...)``);
    eager variables are read back the same."""
    if run.index + 1 >= len(c.scope.statements):
        return False
    node = c.scope.statements[run.index + 1].node
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Expr)):
        return False
    call = node.body[0].value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "restore"):
        return False
    saver = symbol_key(call.func.value)
    symbol = c.scope.symbol_at(saver, run.index + 1) if saver else None
    if symbol is None or symbol.kind != pm.SAVER or symbol.call is None:
        return False
    var_list = argument(symbol.call, "var_list")
    if not isinstance(var_list, cst.Dict):
        return False
    if argument(symbol.call, "optimizers") is not None:  # saver-slots: a Saver() of every variable made before it
        return all(made is not None and made.index < symbol.index
                   for made in (c.scope.symbol_at(key, run.index) for key in initialized))
    listed = {symbol_key(element.value) for element in var_list.elements if isinstance(element, cst.DictElement)}
    return set(initialized) <= listed and not trains_after_restore(c.scope, saver)


def _other_graphs(c: Classifier, before: "pm.Statement", run: "pm.Statement") -> bool:
    first, second = run_graph(c.scope, c.names, before), run_graph(c.scope, c.names, run)
    return first is not None and second is not None and first != second


def _initialized(c: Classifier, run: "pm.Statement") -> List[str]:
    """The variables an initializer run initializes: ``w.initializer`` its own, an initializer op all so far."""
    keys: List[str] = []
    for leaf in fetch_leaves(run.run_sites[0].fetch):
        if isinstance(leaf, cst.Attribute) and leaf.attr.value == "initializer" and symbol_key(leaf.value):
            keys.append(symbol_key(leaf.value))
        else:  # (objects of the program's classes hold variables the scope does not list: a key stands for them)
            return [k for k in c.scope.creation_order if c.scope.symbol_at(k, run.index) is not None] + (
                [_OBJECTS_VARIABLES] if c.scope.instances else [])
    return keys


_OBJECTS_VARIABLES = "<the variables of the scope's objects>"


# What a value built before the first initializer run may be, for a later run to read it without reading the
# variables TF1 reset: a placeholder, a session, plain Python, a tensor computed once from constants.
_STATELESS_KINDS = {pm.PLACEHOLDER, pm.SESSION, pm.PYTHON, pm.EAGER}
# Calls that read every variable, the reset ones too (a list of them, a checkpoint of them, the step counter).
_ALL_VARIABLES = api.VARIABLE_COLLECTIONS | {"tf.all_variables", "tf.local_variables", "tf.model_variables",
                                             "tf.moving_average_variables", "tf.train.Saver",
                                             "tf.train.get_global_step", "tf.train.global_step"}


def _old_variables_unread(c: Classifier, before: "pm.Statement", run: "pm.Statement") -> bool:
    """Whether nothing from the initializer run ``run`` on reads a variable (or optimizer, layer, step counter)
    made before the earlier run ``before``: every later run (in the statement of ``run`` too: a ``with`` block
    holding the initializer and the training loop) reads, of what was built before ``before``, only placeholders
    and Python values; no variable list or checkpoint is used from ``run`` on, nor a function of the program that
    reads them (:func:`_calls_local`).
    TF1 reset the old variables there and eager ones keep their trained values; unread, the two agree."""
    for st in c.scope.statements[run.index:]:
        for call in all_calls(st.node):
            if c.names.call_name(call) in _ALL_VARIABLES \
                    or isinstance(call.func, cst.Attribute) and call.func.attr.value in ("save", "restore", "load"):
                return False
        if _calls_local(c, st, before):
            return False
        sites = st.run_sites[1:] if st is run else st.run_sites
        if sites and _reads_old(c, before, st.index, st.reads):
            return False
        for site in sites:
            if any(_reads_old(c, before, needed.index, needed.reads | set(needed.defines))
                   or _calls_local(c, needed, before)
                   for needed in plan_run(c.scope, site, st.index).statements):
                return False
    return True


def _calls_local(c: Classifier, st: "pm.Statement", before: "pm.Statement") -> bool:
    """Whether ``st`` calls a function of the program whose body may read the old variables as globals: one
    reading a stateful name bound before ``before`` (not its own parameter or local: ``def conv2d(x, W)`` reads its
    ``W``, not the module's), calling another function of the program, or not a ``def``."""
    for call in all_calls(st.node):
        if not (isinstance(call.func, cst.Name) and call.func.value in c.scope.local_callables):
            continue
        symbol = c.scope.symbol_at(call.func.value, st.index + 1)
        definition = c.scope.statements[symbol.index].node if symbol is not None else None
        if not isinstance(definition, cst.FunctionDef) or _reads_old(c, before, st.index, free_reads(definition)) \
                or any(isinstance(inner.func, cst.Name) and inner.func.value in c.scope.local_callables
                       for inner in all_calls(definition.body)):
            return True
    return False


def _reads_old(c: Classifier, before: "pm.Statement", index: int, keys) -> bool:
    """Whether a statement at ``index`` reading ``keys`` reads a stateful value bound before ``before``."""
    for key in keys:
        symbol = c.scope.symbol_at(key, index + 1)
        if symbol is not None and symbol.index < before.index and symbol.kind not in _STATELESS_KINDS:
            return True
    return False


def _reinitialization_changes_nothing(c: Classifier, before: "pm.Statement", after: "pm.Statement",
                                      key: str) -> bool:
    """Whether the initializer run ``after`` gives the variable ``key`` the value it holds anyway: no run since
    ``before`` ran an op (a training step or an assignment: only tensors were read), and its initial value
    is computed again the same: no random op, or only op-seeded ones in a new session (TF1 restarts a
    seeded op's numbers in each session; in the same session it draws new ones)."""
    between = c.scope.statements[before.index + 1:after.index]
    for st in between:
        for site in st.run_sites:
            if site.style != "eval" and any(c.kind_of(leaf) != "tensor" for leaf in fetch_leaves(site.fetch)):
                return False
            if any(_changes_state(c, needed) for needed in plan_run(c.scope, site, st.index).statements):
                return False  # `inc = tf.assign_add(w, 1.0)` is a tensor, and running it changes w
            if _updates(c, site.fetch):
                return False  # `sess.run(tf.assign(w, v))`: the op is built in the run
        if any(isinstance(call.func, cst.Name) and call.func.value in c.scope.local_callables
               for call in all_calls(st.node)):
            return False  # a function of the program may run anything
        if any(isinstance(call.func, cst.Attribute) and call.func.attr.value in ("restore", "load")
               for call in all_calls(st.node)):
            return False  # `saver.restore(sess, path)`, `w.load(value, sess)`: the variables changed
    new_session = any(st.kind == pm.SESSION for st in between)
    if _session_key(before) != _session_key(after) and any(
            site.style != "run" or _session_key(st, site) == _session_key(before)
            for st in c.scope.statements[after.index + 1:] for site in st.run_sites):
        return False  # two sessions in use at once (sess1, sess2): each holds its own values of the variable
    symbol = c.scope.symbol_at(key, after.index)
    if symbol is None or symbol.kind != pm.VARIABLE or symbol.call is None \
            or c.names.call_name(symbol.call) != "tf.Variable":
        return False  # a layer's or a helper's variables: their initializers are not read here
    return all(not api.is_random_op(c.names.call_name(call)) or (new_session and argument(call, "seed") is not None)
               for call in all_calls(symbol.call))


_STATE_METHODS = api.VARIABLE_WRITE_METHODS | {"minimize", "apply_gradients"}


def _changes_state(c: Classifier, st: "pm.Statement") -> bool:
    """Whether running the graph statement ``st`` updates a variable (an assignment, an optimizer step)."""
    return st.kind == pm.OP or st.gradient or _updates(c, st.node)


def _updates(c: Classifier, node: cst.CSTNode) -> bool:
    """Whether ``node`` builds an op that updates a variable (an assignment, an optimizer step)."""
    for call in all_calls(node):
        qualname = c.names.call_name(call) or ""
        name = call.func.attr.value if isinstance(call.func, cst.Attribute) else qualname.rsplit(".", 1)[-1]
        if name in _STATE_METHODS or qualname.startswith(("tf.assign", "tf.scatter_")):
            return True
    return False


def _session_key(st: "pm.Statement", site=None):
    """The name of the session a run runs on (None: not a plain name)."""
    site = site or st.run_sites[0]
    receiver = site.call.func.value if isinstance(site.call.func, cst.Attribute) else None
    return symbol_key(receiver) if receiver is not None else None
