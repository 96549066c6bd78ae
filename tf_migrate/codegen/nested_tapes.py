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
    gradient computed), or None where nested tapes cannot express the run: a gradient in a loop or block,
    or a lower order after a higher one."""
    order_of: dict = {}
    orders: List[int] = []
    for st in statements:
        if st.gradient and not isinstance(st.node, cst.SimpleStatementLine):
            return None
        order = max((order_of.get(key, 0) for key in st.reads), default=0) + (1 if st.gradient else 0)
        if st.gradient:
            orders.append(order)
        order_of.update((key, order) for key in st.defines)
    return orders if all(a <= b for a, b in zip(orders, orders[1:])) else None


def nested_tapes(builder, statements: List["pm.Statement"], plan: RunPlan, fresh,
                 reads_after) -> List[cst.BaseStatement]:
    """One tape per derivative order, nested: the tape of order n records the statements before its last
    gradient statement, which runs outside it but inside the tapes of higher orders, which differentiate
    through it (a gradient penalty, a Jacobian in a loss)::

        with tf.GradientTape() as tape:
            with tf.GradientTape() as inner_tape:
                inner_tape.watch(x)
                y = f(x)
            dy_dx = inner_tape.gradient(y, x)
            loss = g(dy_dx)
        gradients = tape.gradient(loss, variables)

    A tape is persistent where its order takes more than one derivative or records one of its gradient
    statements (ys built in the call, hessians). One persistent tape recording everything, gradient calls
    included, computes the same values, but differentiates the recorded derivatives again: twice as slow
    compiled (a Jacobian penalty)."""
    gradient_statements = [st for st in statements if st.gradient]
    orders = dict(zip(map(id, gradient_statements), derivative_orders(statements)))
    levels = max(orders.values())
    tapes = [fresh("inner_tape") for _ in range(levels - 1)] + [builder.tape]
    watches = []
    for level in range(1, levels + 1):
        at_start: List = []
        after: dict = {}
        stopped_after: dict = {}
        for st in gradient_statements:
            if orders[id(st)] == level:
                starts, afters, stops = builder.watches(statements, plan, only=st)
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
        tape = tapes[level - 1]
        content = [stop(item[1]) if isinstance(item, tuple) else cst.parse_statement(f"{tape}.watch({item})")
                   for item in watches[level - 1][0]]
        content += block
        recording = any(builder.in_context(statements[i]) for i in own)
        end = own[-1] + 1 if recording else own[-1]
        for st in statements[start:end]:
            content += emit(st)
        start = end
        count = sum(builder.gradient_count(statements[i]) for i in own)
        persistent = "persistent=True" if recording or count > 1 else ""
        with_stmt = cst.parse_statement(
            f"with {builder.tf}.GradientTape({persistent}) as {tape}:\n    pass\n")
        block = [with_stmt.with_changes(body=with_stmt.body.with_changes(body=content or with_stmt.body.body))]
    for st in statements[start:]:
        block += emit(st)
    return block
