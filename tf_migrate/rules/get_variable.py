"""tf.get_variable(name, shape, initializer=...) -> tf.Variable(initializer(shape), name=...).

TF1's default initializer for get_variable is glorot_uniform (zeros for
non-float dtypes); it is written out. Variable reuse through scopes is the
variable-store rule's job; a ``get_variable`` it left under a scope that may reuse variables (``reuse=True``,
``AUTO_REUSE``, after ``scope.reuse_variables()``: in a class's ``__init__``, which that rule does not resolve)
is left as it was, and the file stays compat: made a new ``tf.Variable``, a lookup would train a second variable.
"""
from __future__ import annotations

from typing import Dict, List

import libcst as cst

from tf_migrate.analysis.reused_scopes import scope_reuse
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "get-variable"
_ORDER = ["name", "shape", "dtype", "initializer", "regularizer", "trainable", "collections",
          "caching_device", "partitioner", "validate_shape", "use_resource", "custom_getter",
          "constraint", "synchronization", "aggregation"]
_INT_DTYPES = ("int", "bool", "uint")
_REGULARIZATION_READS = ("get_regularization_loss", "REGULARIZATION_LOSSES", "regularization_losses", "get_total_loss")


class GetVariableToVariable(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.get_variable -> tf.Variable with TF1's initializer (glorot_uniform by default)"
    ORDER = 10
    TRIGGERS = ("get_variable",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _GetVariable(ctx))


class _GetVariable(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.reusing: List[bool] = []  # per enclosing `with` item: a variable scope that may reuse variables

    def visit_With(self, node: cst.With) -> None:
        self.reusing.extend(_may_reuse(item.item, self.ctx) for item in node.items)

    def leave_With(self, original: cst.With, updated: cst.With) -> cst.With:
        del self.reusing[len(self.reusing) - len(original.items):]
        return updated

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "reuse_variables" and self.reusing:
            self.reusing[-1] = True  # `scope.reuse_variables()`: later lookups in the scope reuse

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) != "tf.get_variable":
            return updated
        if any(self.reusing):  # a lookup of a variable made before, or a new one: variable-store resolves those
            self.ctx.block(original, "tf.get_variable under a variable scope that may reuse variables, which the "
                                     "variable-store rule did not resolve here")
            return updated
        bound: Dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(updated.args):
            if arg.star:
                return updated
            key = arg.keyword.value if arg.keyword is not None else _ORDER[index]
            if not (isinstance(arg.value, cst.Name) and arg.value.value == "None"):
                bound[key] = arg.value  # (`initializer=None`, `regularizer=None`: TF1's defaults, as if not given)
        tf = self.ctx.tf
        shape, dtype, init = bound.get("shape"), bound.get("dtype"), bound.get("initializer")
        if shape is None and init is None:
            return updated  # a lookup the variable-store rule could not resolve: stays TF1
        dtype_code = code(dtype) if dtype is not None else None
        if init is None:
            is_int = dtype_code is not None and any(t in dtype_code for t in _INT_DTYPES)
            init_code = f"{tf}.zeros_initializer()" if is_int else f"{tf}.keras.initializers.GlorotUniform()"
        else:
            init_code = code(init) + ("()" if _initializer_class(init, self.ctx.names) else "")
        if shape is None:
            value = init_code  # the initializer is a value (tensor or array)
        else:
            dtype_arg = f", dtype={dtype_code}" if dtype_code else ""
            # TF1 read a number as a one-dimensional shape (`tf.get_variable('v', (1))`); Keras' initializers
            # take a sequence (they crashed: "'int' object is not iterable")
            shape_code = f"[{shape.value}]" if isinstance(shape, cst.Integer) else code(shape)
            value = f"{init_code}({shape_code}{dtype_arg})"
        if "regularizer" in bound and any(read in self.ctx.original_source for read in _REGULARIZATION_READS):
            # tf.Variable has no regularizer: the losses the program reads back would lose this term
            self.ctx.block(original, "tf.get_variable(regularizer=...) whose regularization loss the program reads")
            return updated
        extra = "".join(f", {k}={code(bound[k])}" for k in ("name", "trainable") if k in bound)
        if shape is None and dtype_code:
            extra += f", dtype={dtype_code}"
        self.ctx.report(original, RULE_ID, INFO, "tf.get_variable -> tf.Variable with the same initializer")
        return cst.parse_expression(f"{tf}.Variable({value}{extra})")


def _initializer_class(init: cst.BaseExpression, names) -> bool:
    """``initializer=tf.random_normal_initializer``: TensorFlow's initializer class itself, which TF1's get_variable
    instantiated with its defaults before calling it (called with the shape, as an object is, it crashed)."""
    qualname = names.qualname(init) if isinstance(init, (cst.Name, cst.Attribute)) else None
    if qualname is None or qualname.startswith("tf.contrib."):  # (contrib's `xavier_initializer` is a function)
        return False
    return qualname.endswith("_initializer") or qualname.startswith(("tf.keras.initializers.", "tf.initializers."))


def _may_reuse(item: cst.BaseExpression, ctx: RuleContext) -> bool:
    """``tf.variable_scope(..., reuse=...)`` with a reuse other than False or None."""
    given = scope_reuse(item, ctx.names)
    return given is not None and not (isinstance(given, cst.Name) and given.value in ("False", "None"))
