"""User ``tf.Module`` subclasses whose variables are all made in ``__init__``.

An instance of such a class owns its variables from its construction, as a
Keras layer that was built: the program model gives it the ``layer`` kind,
built. Its variables are listed one by one (``net.w, net.b``) wherever TF1
listed variables (``tf.trainable_variables()``, ``minimize`` without
``var_list``), because ``tf.Module.trainable_variables`` orders them by
attribute name and TF1 by creation, which gradients lists and optimizer slots
follow.
"""
from __future__ import annotations

from typing import List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames

Members = Tuple[Tuple[str, bool], ...]  # (attribute, trainable) in creation order


def _creates_variables(call: cst.Call, names: TFNames, variable_functions: Set[str]) -> bool:
    return names.call_name(call) in api.VARIABLE_CONSTRUCTORS or (
        isinstance(call.func, cst.Name) and call.func.value in variable_functions)


def _member(line: cst.BaseStatement, names: TFNames, variable_functions: Set[str]) -> Optional[Tuple[str, bool]]:
    """``self.w = tf.Variable(...)`` (or ``= helper(...)`` that returns a variable): (``w``, trainable)."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)):
        return None
    assign = line.body[0]
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self"
            and isinstance(assign.value, cst.Call) and _creates_variables(assign.value, names, variable_functions)):
        return None
    trainable = argument(assign.value, "trainable")
    return target.attr.value, not (isinstance(trainable, cst.Name) and trainable.value == "False")


def module_members(cls: cst.ClassDef, names: TFNames, variable_functions: Set[str]) -> Optional[Members]:
    """The variables of a ``tf.Module`` subclass, when ``__init__`` makes every one of them at its top level."""
    if not any(names.qualname(base.value) == "tf.Module" for base in cls.bases):
        return None
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None:
        return None
    members: List[Tuple[str, bool]] = []
    for line in init.body.body:
        member = _member(line, names, variable_functions)
        if member is not None:
            members.append(member)
    made = [c for c in all_calls(cls) if _creates_variables(c, names, variable_functions)]
    return tuple(members) if members and len(made) == len(members) else None


def instance_members(call: cst.Call, scope: "pm.Scope", names: TFNames) -> Optional[Members]:
    """The variables of the object ``call`` builds, when it is such a module of this file."""
    if not isinstance(call.func, cst.Name) or call.func.value not in scope.class_defs:
        return None
    return module_members(scope.class_defs[call.func.value], names, scope.variable_functions)


def member_list(key: str, symbol: "pm.Symbol", trainable_only: bool) -> List[str]:
    """``net.w``, ``net.b``...: the instance's variables as code, in creation order."""
    return [f"{key}.{attr}" for attr, trainable in symbol.members if trainable or not trainable_only]
