"""A placeholder made as a local of ``__init__`` and kept on the object under another name -> made on the object.

    x = tf.placeholder(tf.float32, [dim])                 self.x = tf.placeholder(tf.float32, [dim])
    bmu_loc = self.get_bmu_loc(x)               ->        bmu_loc = self.get_bmu_loc(self.x)
    self.x = x

BinRoot's SOM and autoencoders (TensorFlow-Book) make their placeholders as locals, build with them, and store
them on the object for the methods that feed them (``feed_dict={self.x: data_x}``). TF1 fed one tensor under
either name; the class analysis knows a placeholder by the name that binds it, so a run feeding ``self.x`` and a
graph reading ``x`` asked for two parameters of one name, and the file stayed compat. Binding the placeholder to
the attribute where it is made, and reading it by that name, is the same program.

Only in ``__init__``, at its top level: the local is bound once there (not a parameter, not bound by a
comprehension, lambda or nested function), to a ``tf.placeholder`` / ``tf.placeholder_with_default`` call, and
stored once by ``self.attr = local`` into an attribute ``__init__`` binds nowhere else.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import symbol_key, writes
from tf_migrate.cst.names import all_names, name_mentions
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "placeholder-aliases"


class PlaceholderAliases(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "x = tf.placeholder(...) then self.x = x in __init__ -> self.x = tf.placeholder(...), read as self.x"
    ORDER = 3  # after inline-build-methods (the build methods' bodies are in __init__), before the class analysis
    TRIGGERS = ("placeholder",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Classes(ctx))


class _Classes(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if updated.name.value != "__init__" or not isinstance(updated.body, cst.IndentedBlock):
            return updated
        body = list(updated.body.body)
        params = {p.name.value for p in updated.params.params}
        found_any = False
        while True:
            found = _aliases(body, params, self.ctx)
            if not found:
                break
            local, made, stored, attribute = found[0]
            found_any = True
            self.ctx.report(original, RULE_ID, INFO, f"placeholder `{local}` kept as `{attribute}`: made there, "
                                                     "read by that name")
            renamed = _Rename(local, attribute)
            new_body = []
            for index, line in enumerate(body):
                if index == stored:
                    continue
                if index == made:
                    assign = line.body[0]
                    line = line.with_changes(body=[assign.with_changes(
                        targets=[cst.AssignTarget(cst.parse_expression(attribute))])])
                    new_body.append(line)
                    continue
                new_body.append(visit(line, renamed))
            body = new_body
        if not found_any:
            return updated  # (the same node: what later rules computed for the module stays valid)
        return updated.with_changes(body=updated.body.with_changes(body=body))


def _aliases(body: List[cst.BaseStatement], params, ctx: RuleContext) -> List[Tuple[str, int, int, str]]:
    """(local, index of the line making it, index of ``self.attr = local``, ``self.attr``), the first one only
    (the rule runs again on what it wrote: indices move)."""
    made: Dict[str, int] = {}
    for index, line in enumerate(body):
        assign = _single_assign(line)
        if assign is None:
            continue
        target, value = assign
        if isinstance(target, cst.Name) and isinstance(value, cst.Call) \
                and ctx.names.call_name(value) in api.PLACEHOLDERS - {"tf.sparse_placeholder"}:
            made[target.value] = index
            continue
        key = symbol_key(target)
        if key and key.startswith("self.") and key.count(".") == 1 and isinstance(value, cst.Name) \
                and value.value in made and value.value not in params:
            local = value.value
            bound = sum(1 for other in body for k in writes(other) if k == local)
            stored = sum(1 for other in body for k in writes(other) if k == key)
            shadowed = any(local in all_names(other) and not isinstance(other, cst.SimpleStatementLine)
                           and _binds_inside(other, local) for other in body)
            if bound == 1 and stored == 1 and not shadowed and name_mentions(body[index], local) == 1:
                return [(local, made[local], index, key)]
    return []


def _single_assign(line: cst.BaseStatement) -> Optional[Tuple[cst.BaseExpression, cst.BaseExpression]]:
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign) \
            and len(line.body[0].targets) == 1:
        return line.body[0].targets[0].target, line.body[0].value
    return None


def _binds_inside(node: cst.CSTNode, name: str) -> bool:
    """Whether a nested function, lambda or comprehension in ``node`` binds ``name``."""
    found = []

    class _Find(cst.CSTVisitor):
        def visit_Param(self, param: cst.Param) -> None:
            if param.name.value == name:
                found.append(param)

        def visit_CompFor(self, comp: cst.CompFor) -> None:
            if name in {k for k in writes(comp.target)} or (isinstance(comp.target, cst.Name)
                                                            and comp.target.value == name):
                found.append(comp)

    visit(node, _Find())
    return bool(found)


class _Rename(cst.CSTTransformer):
    """Reads of the local ``name`` -> the attribute (not attribute names or keywords)."""

    def __init__(self, name: str, attribute: str) -> None:
        self.name, self.attribute = name, attribute

    def leave_Name(self, original: cst.Name, updated: cst.Name):
        return cst.parse_expression(self.attribute) if updated.value == self.name else updated

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return False  # (only the object part is renamed, in leave_Attribute: `a.x` keeps its `x`)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(value=visit(original.value, self))

    def visit_Arg(self, node: cst.Arg) -> bool:
        return True

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        return updated.with_changes(keyword=original.keyword)
