"""The session rule's rewrite of kept statements: run sites become calls of generated functions.

Besides the run sites, it swaps collections for explicit lists, placeholder feed keys (and the keys of
dicts of fed tensors) for the strings the generated functions take as parameter names, and a
placeholder's static ``.shape`` / ``.dtype`` / ``get_shape()`` for its declared values.
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key, writes
from tf_migrate.codegen.replace import replace_nodes
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.cst.names import parameter_name
from tf_migrate.cst.text import code
from tf_migrate.rules._edits import pass_if_empty


class SiteReplacer(cst.CSTTransformer):
    """Swap run sites for generated calls, collections for lists, and placeholder feed keys for strings."""

    def __init__(self, replacements, placeholder_keys, placeholder_calls=None, tf: str = "tf",
                 feed_literals=frozenset(), sessions=frozenset()) -> None:
        self.replacements = replacements
        self.sessions = sessions  # session names: a ``sess.close()`` left in a kept block goes (no session)
        self.placeholders = placeholder_keys
        self.feed_literals = feed_literals  # ids of dicts keyed by tensors a run replaces: every key a string
        self.placeholder_calls = placeholder_calls or {}
        self.tf = tf
        self.shadowed: List[Set[str]] = []  # names a user function binds: its `y` is not the placeholder `y`

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.shadowed.append(set(parameter_names(node.params)) | set(writes(node.body)))
        return True

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.shadowed.pop()
        return updated

    def leave_SimpleStatementLine(self, original, updated: cst.SimpleStatementLine):
        line = updated.body[0] if len(updated.body) == 1 else None
        if isinstance(line, cst.Expr) and isinstance(line.value, cst.Call) and not line.value.args:
            func = line.value.func
            if isinstance(func, cst.Attribute) and func.attr.value == "close" and symbol_key(func.value) in self.sessions:
                return cst.RemoveFromParent()
        return updated

    def leave_IndentedBlock(self, original, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated if updated.body else updated.with_changes(body=pass_if_empty(updated.body))

    def leave_DictElement(self, original: cst.DictElement, updated: cst.DictElement) -> cst.DictElement:
        key = symbol_key(original.key)
        if key in self.placeholders:
            return updated.with_changes(key=cst.SimpleString(repr(parameter_name(key))))
        return updated

    def leave_Dict(self, original: cst.Dict, updated: cst.Dict) -> cst.Dict:
        if id(original) not in self.feed_literals:
            return updated
        return updated.with_changes(elements=[  # `x`, `self.x` and an object's `net.x` are the parameter `x`
            element.with_changes(key=cst.SimpleString(repr(parameter_name(
                source.key.attr.value if isinstance(source.key, cst.Attribute) else symbol_key(source.key)))))
            for element, source in zip(updated.elements, original.elements)])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        replaced = self.replacements.get(id(original))
        if replaced is not None:  # (a run in the feed of this one: `sess.run(update, {x: sess.run(v[i])})`)
            return replace_nodes(replaced, self.replacements)
        if isinstance(updated.func, cst.Attribute) and updated.func.attr.value == "get_shape" and not updated.args:
            static = self._static(original.func.value, "shape")
            if static is not None:
                return static
        return updated

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        return self.replacements.get(id(original), updated)  # `t == ""`: TF1's identity comparison

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.replacements.get(id(original), updated)  # a printed graph value: its description

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        replaced = self.replacements.get(id(original))
        if replaced is not None:
            return replaced
        if original.attr.value in ("shape", "dtype"):
            static = self._static(original.value, original.attr.value)
            if static is not None:
                return static
        return updated

    def _static(self, expr, what: str):
        """tf.TensorShape(declared) / the declared dtype of a placeholder, or None."""
        key = symbol_key(expr) or ""
        call = self.placeholder_calls.get(key)
        if call is None or any(key.split(".")[0] in frame for frame in self.shadowed):
            return None
        positional = [a.value for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        if what == "dtype":
            return keywords.get("dtype", positional[0] if positional else None)
        shape = keywords.get("shape", positional[1] if len(positional) > 1 else None)
        shape_code = code(shape) if shape is not None else "None"
        return cst.parse_expression(f"{self.tf}.TensorShape({shape_code})")

    def leave_SubscriptElement(self, original, updated):
        if isinstance(original.slice, cst.Index):
            key = symbol_key(original.slice.value)
            if key in self.placeholders:
                return updated.with_changes(slice=cst.Index(cst.SimpleString(repr(parameter_name(key)))))
        return updated
