"""Objects TF1 built once whose methods add ops that run in each run: dataset iterators, moving averages, metrics,
queues.

* ``it = iter(dataset)`` is built once; ``x = it.get_next()`` runs in each run that needs it.
* ``ema = tf.train.ExponentialMovingAverage(decay, num_updates)`` is built once. ``op = ema.apply(vars)``
  made the shadow variables at build time (each starting at its variable's initial value) and an op that
  updates them, run by the runs that fetch ``op``: the statement is deferred, and the ``moving-averages``
  rule puts a bare ``ema.apply(vars)`` before it, which makes the shadows where TF1 did (its update changes
  nothing then: each shadow equals its variable). ``ema.average(var)`` is the shadow variable.

* ``m = tf.keras.metrics.Accuracy()`` (what the ``streaming-metrics`` rule makes of a TF1 ``tf.metrics`` call) is
  built once; ``value = m.result()`` and ``update = m(labels, predictions)`` (the update, then the value) run in
  each run that needs them; ``m.reset_state()`` is Python, run where it stands.

* ``q = tf.FIFOQueue(2, tf.int32)`` is a queue built once (eager TF2 has it as ``tf.queue.FIFOQueue``);
  ``init = q.enqueue_many(...)``, ``x = q.dequeue()`` and ``q.size()`` are ops run in each run that fetches them,
  in the order their data ties them (``q.enqueue([x + 1])`` after the ``x = q.dequeue()`` it reads), as TF1 ran
  them. Queues a queue runner fills, and shuffling queues, stay TF1 APIs the analysis blocks.

Moving averages of tensors (batch statistics) started at zero with TF1's bias correction, and the names
TF1 gave the shadows (``average_name``, ``variables_to_restore``) are graph names an eager program does
not have: both block, with the reason.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.escapes import escaped_reads
from tf_migrate.analysis.expression_kinds import queue_method
from tf_migrate.analysis.symbols import all_calls, callee_name, reads, symbol_key
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.traversal import all_nodes

MOVING_AVERAGE = "tf.train.ExponentialMovingAverage"
_NAMED_SHADOWS = ("average_name", "variables_to_restore")


def classify_built_object(classifier, st: "pm.Statement", targets, value) -> bool:
    """Classify ``st`` if it builds or uses an iterator or a moving average (True: classified)."""
    for call in all_calls(st.node):
        method = averager_method(call, classifier.scope)
        if method in _NAMED_SHADOWS:
            classifier.block(call, f"`{method}` reads the names TF1 gave the shadow variables "
                                   "(`w/ExponentialMovingAverage`), which eager variables do not have")
    _check_queue_uses(classifier, st, targets, value)
    if not isinstance(value, cst.Call):
        return False
    if targets is not None and _classify_iterator(classifier, st, value):
        return True
    if targets is not None and _classify_metric(classifier, st, value):
        return True
    if _classify_queue(classifier, st, targets, value):
        return True
    return _classify_moving_average(classifier, st, targets, value)


def _classify_metric(classifier, st, value: cst.Call) -> bool:
    scope = classifier.scope
    if classifier.names.call_name(value) in api.KERAS_METRICS:
        st.role = pm.KEEP
        classifier.define(st, pm.METRIC, value)
        if escaped_reads(value, [], scope):
            classifier.block(value, "a metric built from per-run tensors")
        return True
    func = value.func
    receiver = func.value if isinstance(func, cst.Attribute) and func.attr.value == "result" and not value.args \
        else func
    if scope.kind(symbol_key(receiver) or "") != pm.METRIC:
        return False
    st.role = pm.DEFER  # the metric's value (result), or its update and then its value (a call)
    classifier.define(st, pm.TENSOR)
    return True


def _check_queue_uses(classifier, st: "pm.Statement", targets, value) -> None:
    """Block queue ops inside expressions outside runs, and a queue read other than as the receiver of its own ops
    (passed to a function, aliased, put in a list, printed): what its ops there do is not followed."""
    scope = classifier.scope
    if not scope.queue_keys:
        return
    fetched = {id(c) for site in st.run_sites for c in all_calls(site.fetch)}
    receivers = set()
    for call in all_calls(st.node):
        if queue_method(call, scope):
            receivers.add(id(call.func.value))
            if call is not value and id(call) not in fetched:
                classifier.block(call, f"`{code(call.func)}` inside an expression, outside a run: TF1 built an op "
                                       "there (bind it to a name, which runs fetch)")
    for call in all_calls(st.node):
        read = scope.function_reads.get(callee_name(call) or "", ())
        queue = next((key for key in sorted(read) if scope.kind(key) == pm.QUEUE), None)
        if queue is not None:
            classifier.block(call, f"`{code(call.func)}` uses the queue `{queue}`: where its ops run then is not "
                                   "followed")
            return
    read_part = value if targets is not None and value is not None else st.node
    for node in all_nodes(read_part):
        if isinstance(node, (cst.Name, cst.Attribute)) and id(node) not in receivers \
                and scope.kind(symbol_key(node) or "") == pm.QUEUE:
            classifier.block(node, f"the queue `{code(node)}` is used other than by its own ops (enqueue, dequeue, "
                                   "size, close): what is done with it there is not followed")
            return


def _classify_queue(classifier, st, targets, value: cst.Call) -> bool:
    scope = classifier.scope
    if classifier.names.call_name(value) in api.QUEUES:
        if targets is None or len(st.defines) != 1 or "." in st.defines[0]:
            classifier.block(value, "a queue not bound to one plain name: the analysis follows queues that a "
                                    "program's own scope builds and binds to a name")
            return True
        st.role = pm.KEEP
        classifier.define(st, pm.QUEUE, value)
        if argument(value, "names") is not None:
            classifier.block(value, "a queue with named components (its dequeue gives a dict)")
        if escaped_reads(value, [], scope):
            classifier.block(value, "a queue built from per-run tensors")
        return True
    method = queue_method(value, scope)
    if method is None:
        return False
    func = value.func
    if method not in api.QUEUE_OP_METHODS | api.QUEUE_VALUE_METHODS:
        classifier.block(value, f"`{code(func)}`: a queue method the analysis does not know")
        return True
    if not st.defines:
        classifier.block(value, f"`{code(func)}` builds a queue op that is not bound to a name (TF1 never ran it "
                                "unless a run names it)")
        return True
    if method in ("enqueue", "enqueue_many") and any(
            scope.kind(key) in (pm.VARIABLE, pm.VARIABLES, pm.LAYER) for key in reads(value)):
        classifier.block(value, f"`{code(func)}` of a variable: TF1 queued the variable's own buffer, so a later "
                                "write to the variable showed in the queued element; eager TF2 queues a copy")
        return True
    st.role = pm.DEFER  # an enqueue (an op) or a dequeue (a tensor), run in each run that fetches it
    classifier.define(st, pm.OP if method in api.QUEUE_OP_METHODS else _dequeue_kind(scope, func.value, method))
    return True


def _dequeue_kind(scope: "pm.Scope", queue: cst.BaseExpression, method: str) -> str:
    """A tensor, or a list of tensors where the queue holds several components (``dtypes=[tf.int32, tf.float32]``)."""
    if method in ("size", "is_closed"):
        return pm.TENSOR
    made = scope.symbols[symbol_key(queue)].call
    dtypes = argument(made, "dtypes", 1) if made is not None else None
    if isinstance(dtypes, (cst.List, cst.Tuple)) and len(dtypes.elements) > 1:
        return pm.STRUCT
    return pm.TENSOR


def _classify_iterator(classifier, st, value: cst.Call) -> bool:
    func = value.func
    if isinstance(func, cst.Name) and func.value == "iter" and len(value.args) == 1:
        st.role = pm.KEEP
        classifier.define(st, pm.ITERATOR)
        if escaped_reads(value, [], classifier.scope):
            classifier.block(value, "an iterator over a dataset built from per-run tensors (placeholders)")
        return True
    if (isinstance(func, cst.Attribute) and func.attr.value == "get_next" and not value.args
            and classifier.scope.kind(symbol_key(func.value) or "") == pm.ITERATOR):
        st.role = pm.DEFER
        classifier.define(st, pm.STRUCT)
        return True
    return False


def _classify_moving_average(classifier, st, targets, value: cst.Call) -> bool:
    scope = classifier.scope
    if classifier.names.call_name(value) == MOVING_AVERAGE:
        if targets is None or len(st.defines) != 1:
            return False  # an average object not bound to one name: the generic classification blocks it
        st.role = pm.KEEP
        classifier.define(st, pm.AVERAGER, value)
        if any(scope.kind(key) not in (pm.VARIABLE, None) for key in escaped_reads(value, [], scope)):
            classifier.block(value, "a moving average whose decay or step count is a per-run tensor")
        return True
    method = averager_method(value, scope)
    if method != "apply":
        return False
    why = _not_variables(value, classifier)
    if why:
        classifier.block(value, why)
        return False
    averager = scope.symbols.get(symbol_key(value.func.value) or "")
    if targets is None and not st.defines:
        st.role = pm.KEEP  # makes the shadow variables (see the module docstring)
        if averager is not None:
            averager.built = True
        return True
    if averager is None or not averager.built:
        classifier.block(value, "the moving average's shadow variables are not made at build time (the "
                                "moving-averages rule puts a bare `apply` before the op)")
    st.role = pm.DEFER
    classifier.define(st, pm.OP, value)
    return True


def averager_method(call: cst.Call, scope: "pm.Scope") -> Optional[str]:
    """``"apply"`` for ``ema.apply(...)`` where ``ema`` is a moving average the scope knows, and so on."""
    func = call.func
    if isinstance(func, cst.Attribute) and scope.kind(symbol_key(func.value) or "") == pm.AVERAGER:
        return func.attr.value
    return None


def _not_variables(call: cst.Call, classifier) -> str:
    """Why ``ema.apply(arguments)`` cannot be converted ('' when it averages variables the analysis knows)."""
    var_list = call.args[0].value if call.args and call.args[0].keyword is None else None
    if var_list is None:
        return "a moving average applied without a variable list"
    if isinstance(var_list, cst.Call) and classifier.names.call_name(var_list) in api.VARIABLE_COLLECTIONS:
        return ""
    keys = reads(var_list)
    kinds = {classifier.scope.kind(key) for key in keys}
    if keys and kinds <= {pm.VARIABLE, pm.VARIABLES}:
        return ""
    if any(kind in pm.DEFERRED_KINDS for kind in kinds):
        return ("a moving average of tensors (batch statistics): TF1 started their shadows at zero with a bias "
                "correction; only averages of variables are converted")
    unknown = sorted(key for key in keys if classifier.scope.kind(key) not in (pm.VARIABLE, pm.VARIABLES))
    return (f"a moving average of `{unknown[0] if unknown else code(var_list)}`, which the analysis does not know to "
            "hold variables; only averages of variables are converted")
