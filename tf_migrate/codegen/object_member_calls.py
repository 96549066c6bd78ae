"""An object's members in a run of the scope that built the object (analysis/object_members).

The run's slice computes them with one statement (``model.loss = model.<mark>(x=model.x)``, from
:func:`tf_migrate.analysis.slicing.member_statement`). The generated function calls the method the object's
class generates for them instead (``model.compute_loss(x=model.x)``), and names the members as its own
locals and parameters: ``loss = model.compute_loss(x=x)``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.flatten import FlatStatement
from tf_migrate.analysis.slicing import RunPlan, member_parts
from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.codegen.replace import rename_keys
from tf_migrate.cst.names import fresh, parameter_name


def with_object_members(plan: RunPlan, method_for: Callable) -> RunPlan:
    """``plan`` with each statement computing an object's members calling the method its class generates for them
    (``method_for(statement)``: that call)."""
    statements = []
    for st in plan.statements:
        if member_parts(st) is not None:
            assign = st.node.body[0]
            node = st.node.with_changes(body=[assign.with_changes(value=method_for(st))])
            st = replace(st, flat=FlatStatement(node))
        statements.append(st)
    return replace(plan, statements=statements)


def local_members(function: cst.FunctionDef, plan: RunPlan, scope: "pm.Scope") -> cst.FunctionDef:
    """``function`` with the objects' members it reads as its own names: fed placeholders as the parameters the
    builder named after them, per-run values as locals of their own names (``loss``) unless the function already
    reads or binds a plain name of that name."""
    mapping: Dict[str, str] = {}
    used = {key for key in reads(function) | set(writes(function.body)) if "." not in key}
    for key, _ in plan.fed:
        symbol = scope.symbols.get(key)
        if symbol is not None and symbol.member_of:
            mapping[key] = parameter_name(key)
    for st in plan.statements:
        if member_parts(st) is not None or any(scope.symbols.get(k) is not None and scope.symbols[k].member_of
                                               for k in st.defines):
            for key in st.defines:
                if key not in mapping:
                    local = fresh(key.split(".", 1)[1], used)
                    used.add(local)
                    mapping[key] = local
    return rename_keys(function, mapping)
