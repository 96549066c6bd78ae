"""Rename TF1 symbols and keywords to their TF2 names with TF's own tables.

Uses tf_upgrade_v2's tables from the installed wheel (:mod:`tf_migrate.tf_tables`):
``tf.random_normal`` -> ``tf.random.normal``, ``reduction_indices=`` ->
``axis=``, and positional arguments whose order changed in TF2 become
keywords first. A symbol whose only TF2 home is ``tf.compat.v1`` is renamed
there and reported: eager output should not keep it. The tables send every
initializer to ``tf.compat.v1``; a call whose arguments mean the same to the
TF2 initializer keeps the TF2 name (``tf.constant_initializer(0.1)``).
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate import tf_tables
from tf_migrate.report import WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._tf_references import names_tf1_symbols
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit

RULE_ID = "symbol-renames"
# TF's table maps tf.keras.* to Keras 2 names (optimizers.legacy, ...) that Keras 3 lacks.
_KEEP_PREFIXES = ("tf.keras.",)


def _float(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.Float)


# TF1 functions whose TF2 name (tf_upgrade_v2's rename, or the same name) computes something else, and the
# TF2 home of TF1's function: TF2's tf.image.resize samples at half-pixel centers, TF1's resize did not
# (resized images differ in every pixel but the corners).
_HALF_PIXELS = "TF2's tf.image.resize samples at half-pixel centers"
_KEPT_TF1 = {
    "tf.image.resize_images": ("tf.compat.v1.image.resize", _HALF_PIXELS),
    "tf.image.resize": ("tf.compat.v1.image.resize", _HALF_PIXELS),
}

# TF1 names whose TF2 namesake does the same for the arguments a call gives: the v1 initializers
# differ only in ``dtype`` (given by the caller in TF2) and ``verify_shape``, and the constant one
# also in filling a shape from a shorter list, which a single number never needs. Called without a
# dtype, the v1 constant initializer makes float32 and the TF2 one int32 from an int: floats only.
_SAME_IN_TF2 = {
    "tf.constant_initializer": lambda args: len(args) == 1 and not args[0].star and _float(args[0].value) and (
        args[0].keyword is None or args[0].keyword.value == "value"),
    "tf.zeros_initializer": lambda args: not args,
    "tf.ones_initializer": lambda args: not args,
}


class SymbolRenames(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "TF1 names and keywords -> TF2 names, from tf_upgrade_v2's own tables (read, not imported)"
    ORDER = 900

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        tables = tf_tables.load()
        if not tables.symbol_renames:
            ctx.report(None, RULE_ID, WARNING, "TensorFlow is not installed: its rename tables are unavailable")
            return module
        return visit(module, _Renamer(ctx, tables, module))


class _Renamer(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, tables: "tf_tables.Tables", module: cst.Module) -> None:
        self.ctx, self.tables, self.module = ctx, tables, module
        self.kept: set = set()  # ids of callee names whose call means the same in TF2
        self.callees: set = set()  # ids of the names calls call
        self.tf1: Optional[bool] = None  # whether the input is TF1 code (found when first asked)

    def visit_Call(self, node: cst.Call) -> None:
        self.callees.add(id(node.func))
        same = _SAME_IN_TF2.get(self.ctx.names.call_name(node) or "")
        if same is not None and same(list(node.args)):
            self.kept.add(id(node.func))

    def _target(self, node: cst.BaseExpression):
        qualname = self.ctx.names.qualname(node)
        if qualname is None or id(node) in self.kept or not isinstance(node, cst.Attribute) or ".compat.v1." in (dotted_name(node) or "") \
                or qualname.startswith(_KEEP_PREFIXES):
            return None, None
        if qualname in _KEPT_TF1:
            return (qualname, _KEPT_TF1[qualname][0]) if self._tf1_module() else (None, None)
        target = self.tables.symbol_renames.get(qualname)
        if target is None and qualname.startswith("tf.layers.") and qualname[len("tf.layers."):][:1].isupper() \
                and id(node) not in self.callees:
            # A TF1 layer class named, not called (`class Linear(tf.layers.Layer)`): TF2 has it under compat.v1
            # only (its calls are layers-to-keras' to convert). The tables leave the module's other names alone.
            target = "tf.compat.v1" + qualname[len("tf"):]
        return qualname, target

    def _tf1_module(self) -> bool:
        """Whether the file is TF1 code (it names a TF1-only symbol): in TF2 code, TF2's tf.image.resize is meant."""
        if self.tf1 is None:
            self.tf1 = names_tf1_symbols(self.ctx.original_module or self.module, self.ctx.names,
                                         self.tables.symbol_renames)
        return self.tf1

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        qualname, target = self._target(original)
        if target is None:
            return updated
        if qualname in _KEPT_TF1:
            self.ctx.report(original, RULE_ID, WARNING, f"`{qualname}` kept as `{target}`: {_KEPT_TF1[qualname][1]}, "
                            "TF1's did not, and TF2 has no other name for TF1's function")
        elif target.startswith("tf.compat.v1."):
            self.ctx.report(original, RULE_ID, WARNING, f"`{qualname}` has no TF2 name; kept as `{target}`")
        return cst.parse_expression(self.ctx.tf + target[len("tf"):]).with_changes(
            lpar=updated.lpar, rpar=updated.rpar)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        qualname = self.ctx.names.call_name(original)
        if qualname is None:
            return updated
        args = list(updated.args)
        changed = False
        order = self.tables.reorders.get(qualname)
        if order:
            for index, arg in enumerate(args):
                if arg.keyword is not None or arg.star:
                    break
                if index < len(order) and order[index] is not None:
                    args[index] = arg.with_changes(
                        keyword=cst.Name(order[index]),
                        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
                    changed = True
        renames = self.tables.keyword_renames.get(qualname, {})
        for index, arg in enumerate(args):
            if arg.keyword is not None and arg.keyword.value in renames:
                args[index] = arg.with_changes(keyword=cst.Name(renames[arg.keyword.value]))
                changed = True
        # An unchanged call keeps its identity: later rules' caches and the positions of findings stay valid.
        return updated.with_changes(args=args) if changed else updated
