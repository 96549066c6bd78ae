"""Which locals of a function hold eager values: tensors computed from constants and numpy, once.

A function that runs the module's graph may also build ops on what a run returned (MorvanZhou's
``compute_accuracy``: ``y_pre = sess.run(prediction, ...)``, then ``tf.equal(tf.argmax(y_pre, 1), ...)``)
and run those with feeds they do not read. Such a local is an eager tensor in TF2, and the run is its
value. A local computed from the module's variables or graph tensors is not: TF1 recomputed it at
the run, an eager one would be a snapshot. The function's body is not a scope of its own (its runs
are planned with the module's graph), so its locals are judged here, statement by statement.
"""
from __future__ import annotations

from typing import Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.traversal import visit

_RUN_METHODS = ("run", "eval")


def eager_locals(func: cst.FunctionDef, scope: "pm.Scope") -> Set[str]:
    """The locals of ``func`` that only ever hold values computed from its parameters, constants, numpy and
    the results of runs (never from the module's variables, layers or graph tensors)."""
    eager: Set[str] = {p.name.value for p in func.params.params}
    assigned: Set[str] = set()
    tainted: Set[str] = set()
    for statement in _assignments(func.body):
        targets = set(writes(statement))
        assigned |= targets
        if all(_eager_read(key, eager, scope) for key in _value_reads(statement)):
            eager |= targets
        else:
            tainted |= targets
    return (eager - tainted) & (assigned | eager)


def _eager_read(key: str, eager: Set[str], scope: "pm.Scope") -> bool:
    if key in eager:
        return True
    kind = scope.kind(key)
    return kind is None or kind in (pm.EAGER, pm.PYTHON)


def _assignments(body: cst.CSTNode):
    found = []

    class _Walk(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
            if any(isinstance(small, (cst.Assign, cst.AugAssign, cst.AnnAssign)) for small in node.body):
                found.append(node)
            return False

        def visit_For(self, node: cst.For) -> None:
            found.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(node.target)], node.iter)]))

        def visit_FunctionDef(self, _) -> bool:
            return False

        visit_ClassDef = visit_Lambda = visit_FunctionDef

    visit(body, _Walk())
    return found


def _value_reads(statement: cst.SimpleStatementLine) -> Set[str]:
    """What the assignment's values read, leaving out what runs read (a run's result is numpy)."""
    keys: Set[str] = set()

    class _Walk(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> bool:
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in _RUN_METHODS:
                return False
            return True

        def visit_Name(self, name: cst.Name) -> None:
            keys.add(name.value)

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            keys.update(reads(attribute))
            return False

        def visit_Arg(self, arg: cst.Arg) -> bool:
            visit(arg.value, self)
            return False

    for small in statement.body:
        value = getattr(small, "value", None)
        if value is not None:
            visit(value, _Walk())
        if isinstance(small, cst.AugAssign):
            keys |= reads(small.target)
    return keys
