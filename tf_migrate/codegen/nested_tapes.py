"""Nested gradient tapes: one per derivative order, for runs that differentiate derivatives.

TF1 differentiates anything in the graph, derivatives included: a gradient penalty or a Jacobian in a
loss is one more ``tf.gradients`` call. A tape records only what runs inside it, so each derivative order
gets its own tape, the lower orders inside the higher ones; see :func:`nested_tapes`. Runs whose
gradients do not build on each other keep one tape (:class:`tf_migrate.codegen.function_builder.FunctionBuilder`).
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.slicing import RunPlan


def derivative_orders(statements: List["pm.Statement"]) -> Optional[List[int]]:
    """The order of each gradient statement (1: a first derivative; n + 1: a derivative of what an order-n
    gradient computed), or None where nested tapes cannot express the run: a gradient in a loop or block."""
    order_of: dict = {}
    orders: List[int] = []
    for st in statements:
        if st.gradient and not isinstance(st.node, cst.SimpleStatementLine):
            return None
        order = max((order_of.get(key, 0) for key in st.reads), default=0) + (1 if st.gradient else 0)
        if st.gradient:
            orders.append(order)
        order_of.update((key, order) for key in st.defines)
    return orders


def nested_tapes(builder, statements: List["pm.Statement"], plan: RunPlan, fresh,
                 reads_after) -> Optional[List[cst.BaseStatement]]:
    """One tape per derivative order, nested (None where the run has no derivative of a derivative, or
    where a higher order's tape would have to record its own gradients: one persistent tape then). The tape of order n records the statements before its first
    gradient statement, which runs outside it but inside the tapes of higher orders, which differentiate
    through it (a gradient penalty, a Jacobian in a loss, a Hessian)::

        with tf.GradientTape() as tape:
            with tf.GradientTape() as inner_tape:
                inner_tape.watch(x)
                y = f(x)
            dy_dx = inner_tape.gradient(y, x)
            loss = g(dy_dx)
        gradients = tape.gradient(loss, variables)

    A tape stays open past its first gradient statement where one of its gradients differentiates a value
    computed later, or must run inside it (ys built in the call): then it records those gradients too, and
    is persistent, as it is where its order takes more than one derivative. One persistent tape recording
    everything, gradient calls included, computes the same values, but differentiates the recorded
    derivatives again: twice as slow compiled (a Jacobian penalty)."""
    gradient_statements = [st for st in statements if st.gradient]
    found = derivative_orders(statements)
    if found is None or max(found) < 2:
        return None
    orders = dict(zip(map(id, gradient_statements), found))
    levels = max(orders.values())
    closings: List[int] = []
    for level in range(1, levels + 1):
        own = [i for i, st in enumerate(statements) if st.gradient and orders[id(st)] == level]
        closings.append(_closing(builder, statements, own, closings[-1] if closings else 0))
        if level > 1 and any(i < closings[-2] or (i < closings[-1] and not builder.tapes.in_context(statements[i]))
                             for i in own):
            return None  # a derivative of a derivative recorded by a lower order's tape or by its own without
            # need (a first derivative of a value computed after it): one persistent tape is simpler
    tapes = [fresh("inner_tape") for _ in range(levels - 1)] + [builder.tape]
    watches = []
    for level in range(1, levels + 1):
        at_start: List = []
        after: dict = {}
        stopped_after: dict = {}
        for st in gradient_statements:
            if orders[id(st)] == level:
                starts, afters, stops = builder.tapes.watches(statements, plan, only=st)
                at_start += [item for item in starts if item not in at_start]
                for index, keys in afters.items():
                    after.setdefault(index, []).extend(k for k in keys if k not in after[index])
                for index, keys in stops.items():
                    stopped_after.setdefault(index, []).extend(k for k in keys if k not in stopped_after[index])
        watches.append((at_start, after, stopped_after))
    outer = builder.tape

    def stop(key: str) -> cst.BaseStatement:
        return cst.parse_statement(f"{key} = {builder.tf}.stop_gradient({key})")

    def emit(st) -> List[cst.BaseStatement]:
        builder.tape = tapes[orders[id(st)] - 1] if st.gradient else outer
        try:
            out = builder.lower(st, fresh)
        finally:
            builder.tape = outer
        for level, (_, after, stopped_after) in enumerate(watches):
            out.extend(stop(key) for key in stopped_after.get(st.index, []))
            out.extend(cst.parse_statement(f"{tapes[level]}.watch({key})") for key in after.get(st.index, []))
        out.extend(cst.parse_statement(line) for line in reads_after.get(st.index, []))
        return out

    block: List[cst.BaseStatement] = []
    start = 0
    for level in range(1, levels + 1):
        own = [i for i, st in enumerate(statements) if st.gradient and orders[id(st)] == level]
        end = closings[level - 1]
        tape = tapes[level - 1]
        content = [stop(item[1]) if isinstance(item, tuple) else cst.parse_statement(f"{tape}.watch({item})")
                   for item in watches[level - 1][0]]
        content += block
        for st in statements[start:end]:
            content += emit(st)
        start = end
        inside = [i for i in own if i < end]  # gradients its tape records: ys built in the call, or ys built later
        count = sum(builder.tapes.gradient_count(statements[i]) for i in own)
        persistent = "persistent=True" if count > 1 or inside else ""
        with_stmt = cst.parse_statement(f"with {builder.tf}.GradientTape({persistent}) as {tape}:\n    pass\n")
        block = [with_stmt.with_changes(body=with_stmt.body.with_changes(body=content or with_stmt.body.body))]
    for st in statements[start:]:
        block += emit(st)
    return block


def _closing(builder, statements: List["pm.Statement"], own: List[int], start: int) -> int:
    """Where the tape of the gradient statements ``own`` closes: at the first of them, unless one of them
    must run inside it (ys built in the call) or differentiates a value computed later, or the tape inside
    it closes later (``start``)."""
    end = max(start, own[0])
    for i in own:
        if builder.tapes.in_context(statements[i]):
            end = max(end, i + 1)
        keys = builder.tapes.differentiated_keys(statements[i])
        defined = [j for j in range(i) if keys & set(statements[j].defines)]
        if defined:
            end = max(end, defined[-1] + 1)
    return end
