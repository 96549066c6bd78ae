"""The read/update order of ``sess.run`` fetches, pinned for ``tf_migrate.verify``.

In TF1, ``sess.run([train_op, W])`` runs the update of ``W`` and the read of ``W``
with no order between them: the value fetched may be the old or the new one. A
fetched tensor is *ambiguous* when it reads a variable that another fetched
element writes (an ``Assign*``, ``Apply*`` or ``Scatter*`` op on it) and neither
the read nor the write depends on the other. Reads that the write needs (the loss
that the gradients come from) are ordered and not ambiguous.

The legacy run's ``Session.run`` evaluates ambiguous tensors in a separate run
with the same feed, either before (``pre``: read, then update) or after
(``post``: update, then read) the requested run, and logs an ``ambiguous`` event.
The verifier runs the legacy program with ``pre`` first and, only when such an
event was logged, once more with ``post``; the migrated output is equivalent if
it matches either. A program must pick one order throughout.

Two writes of one variable in the same run with no order between them (an optimizer step and a
clipping ``assign`` fetched together, as WGAN code does) leave the variable's value to the scheduler:
no second run can pin that, so such a run logs ``racing`` and the verifier answers not comparable.

An update is never evaluated a second time to pin an order: that would apply it
twice. When the value an update writes is computed from a variable that another
fetched update writes, with no order between the two (hand-written backprop
fetched as ``[tf.assign(W2, ...), tf.assign(W1, f(W2))]``), the run logs ``racing``
with the read ("W1 reads W2"): TF1's scheduler picked the value, and the verifier
accepts equal output but answers not comparable for other output.

``Session.run`` called from a thread other than the main one logs ``threads`` once:
worker threads that share variables (A3C) interleave as the OS schedules them, so
no run of the program repeats another, and the verifier answers not comparable
for other output.

Ambiguous tensors whose computation holds other stateful ops (random ops, queue
dequeues, assignments) cannot be evaluated twice without changing the program:
such a run logs ``unresolvable`` and the verifier answers not comparable.
"""

import threading

_VARIABLE_OPS = {"VariableV2", "Variable", "VarHandleOp"}
_READ_SAFE = _VARIABLE_OPS | {
    "ReadVariableOp", "Placeholder", "PlaceholderWithDefault", "Const", "VarIsInitializedOp",
}
_WRITE_PREFIXES = ("Assign", "Apply", "ResourceApply", "SparseApply", "ResourceSparseApply",
                   "Scatter", "ResourceScatter")


def _is_write(op):
    return op.type.startswith(_WRITE_PREFIXES)


def _ancestors(op):
    seen = {op}
    stack = [op]
    while stack:
        current = stack.pop()
        for parent in [t.op for t in current.inputs] + list(current.control_inputs):
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def _variable_of(tensor):
    op = tensor.op
    while op.type in ("Identity", "RefIdentity") and op.inputs:
        op = op.inputs[0].op
    return op if op.type in _VARIABLE_OPS else None


def _writes(ops):
    writes = {}
    for op in ops:
        if _is_write(op) and op.inputs:
            variable = _variable_of(op.inputs[0])
            if variable is not None:
                writes.setdefault(variable, []).append(op)
    return writes


def _reads(element, ancestors):
    """(reading op or None for a fetched ref variable, variable op) pairs of a fetch.

    Identity ops are seen through: ``W/read`` of a ref variable aliases its buffer,
    so the value is taken when a consumer of the identity runs.
    """
    reads = []
    if _variable_of(element) is not None:
        reads.append((None, _variable_of(element)))
    for op in ancestors:
        if op.type in ("Identity", "RefIdentity") or _is_write(op):
            continue
        for tensor in op.inputs:
            variable = _variable_of(tensor)
            if variable is not None:
                reads.append((op, variable))
    return reads


def find_ambiguous(elements):
    """Indices of fetched tensors whose value depends on TF1's unordered read/update.

    Fetches that hold an update themselves are left out: they cannot be run twice
    (:func:`racing_reads` covers what they read).
    """
    ancestors = [_ancestors(getattr(e, "op", e)) for e in elements]
    writes = _writes(set().union(*ancestors)) if ancestors else {}
    if not writes:
        return []
    ambiguous = []
    for index, element in enumerate(elements):
        if not hasattr(element, "op") or any(_is_write(op) for op in ancestors[index]):
            continue
        for reader, variable in _reads(element, ancestors[index]):
            for write in writes.get(variable, ()):
                if reader is not None and (reader in _ancestors(write) or write in ancestors[index]):
                    continue
                if reader is None and write in ancestors[index]:
                    continue
                ambiguous.append(index)
                break
            else:
                continue
            break
    return ambiguous


def racing_writes(elements):
    """Names of variables that two fetched writes update with no order between them."""
    ancestors = set().union(*[_ancestors(getattr(e, "op", e)) for e in elements]) if elements else set()
    racing = []
    for variable, ops in _writes(ancestors).items():
        before = {op: _ancestors(op) for op in ops}
        if any(a is not b and a not in before[b] and b not in before[a] for a in ops for b in ops):
            racing.append(variable.name)
    return racing


def racing_reads(elements):
    """``"A reads B"`` for each fetched update of A computed from a variable B that another
    fetched update writes, with no order between that read and that write."""
    union = set().union(*[_ancestors(getattr(e, "op", e)) for e in elements]) if elements else set()
    writes = _writes(union)
    before = {op: _ancestors(op) for ops in writes.values() for op in ops}
    racing = []
    for variable, ops in writes.items():
        for write in ops:
            for reader, read_variable in _reads_of_update(before[write]):
                for other in writes.get(read_variable, ()):
                    if other is write or other in before[write] or reader in before[other]:
                        continue
                    pair = f"{variable.name} reads {read_variable.name}"
                    if pair not in racing:
                        racing.append(pair)
    return racing


def _reads_of_update(ancestors):
    """(reading op, variable op) pairs among an update's ``ancestors``; the update reads its value inputs."""
    for op in ancestors:
        if op.type in ("Identity", "RefIdentity"):
            continue
        for tensor in op.inputs[1:] if _is_write(op) else op.inputs:
            variable = _variable_of(tensor)
            if variable is not None:
                yield op, variable


def _resolvable(element):
    """Whether ``element`` can be evaluated again without side effects (variable writes count,
    though TF marks ref ``Assign`` ops stateless)."""
    return all(
        op.type in _READ_SAFE or not (op.op_def.is_stateful or _is_write(op))
        for op in _ancestors(element.op)
    )



def install(tf, log, order):
    """Wraps ``Session.run`` of this (legacy) process; ``order`` is ``pre`` or ``post``."""
    from tensorflow.python.client import session
    from tensorflow.python.util import nest

    original = session.BaseSession.run
    plans = {}
    threads_seen = []

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if not threads_seen and threading.current_thread() is not threading.main_thread():
            threads_seen.append(True)
            log.write(event="threads", where=log.where())
        flat = nest.flatten(fetches)
        try:
            elements = [self.graph.as_graph_element(f, allow_tensor=True, allow_operation=True) for f in flat]
        except (TypeError, ValueError, KeyError):
            return original(self, fetches, feed_dict, options, run_metadata)
        key = (id(self.graph), tuple(e.name for e in elements))
        if key not in plans:
            plans[key] = find_ambiguous(elements), racing_writes(elements), racing_reads(elements)
        ambiguous, racing, racing_read = plans[key]
        if racing or racing_read:
            log.write(event="racing", where=log.where(), variables=racing, reads=racing_read)
        if not ambiguous:
            return original(self, fetches, feed_dict, options, run_metadata)
        where = log.where()
        reads = [elements[i] for i in ambiguous]
        if not all(_resolvable(e) for e in reads):
            log.write(event="unresolvable", where=where, fetches=[e.name for e in reads])
            return original(self, fetches, feed_dict, options, run_metadata)
        log.write(event="ambiguous", where=where, fetches=[e.name for e in reads], order=order)
        if order == "pre":
            values = original(self, reads, feed_dict)
            result = original(self, fetches, feed_dict, options, run_metadata)
        else:
            result = original(self, fetches, feed_dict, options, run_metadata)
            values = original(self, reads, feed_dict)
        flat_result = nest.flatten(result)
        for index, value in zip(ambiguous, values):
            flat_result[index] = value
        return nest.pack_sequence_as(result, flat_result)

    run.__wrapped__ = original
    session.BaseSession.run = run
