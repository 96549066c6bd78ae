"""tf.nn.softmax_cross_entropy_with_logits: labels that may carry a gradient get ``tf.stop_gradient``.

    labels = tf.nn.softmax(tf.matmul(x, V))            (computed from a variable)
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
becomes
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(labels), logits=logits)

TF1's function sent no gradient to ``labels``; TF2's, under the same name, does (it is TF1's
``_v2``). A program whose labels are computed from trainable values (distillation, soft targets,
a GAN's or an actor's own outputs) would train those values too after migration, and print other
numbers. Labels that are only placeholders (or literals, or TF and module constants built from
them) carry no gradient either way and are left as they are, so the usual ``labels=y`` reads the
same in the output. The rule runs on eager output only: compat output keeps TF1's function. A module that names no
TF1-only symbol is TF2 code already (this tool's own output, run again): left alone.
"""
from __future__ import annotations

from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.report import INFO
from tf_migrate import tf_tables
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._tf_references import names_tf1_symbols
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit

RULE_ID = "softmax-labels"
_FUNCTION = "tf.nn.softmax_cross_entropy_with_logits"
_PLACEHOLDERS = ("tf.placeholder", "tf.placeholder_with_default", "tf.sparse_placeholder")
_NUMERIC_LIBRARIES = {"numpy", "math", "random", "scipy", "pandas"}


class SoftmaxLabels(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.nn.softmax_cross_entropy_with_logits(labels=L) -> labels=tf.stop_gradient(L) where L may "
                   "depend on variables (TF1's sent no gradient to its labels)")
    ORDER = 30  # on TF1 code: the placeholders that make labels inputs are still there
    TRIGGERS = ("softmax_cross_entropy_with_logits",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if not names_tf1_symbols(ctx.original_module or module, ctx.names, tf_tables.load().symbol_renames):
            return module  # TF2 code (a second run on this tool's output): the name is TF2's function already
        return visit(module, _Wrap(ctx, *_input_keys(module, ctx)))


def _input_keys(module: cst.Module, ctx: RuleContext) -> Tuple[Set[Tuple[int, str]], Set[Tuple[int, str]]]:
    """((scope, key) of the names (and ``self.`` attributes, scope 0) whose every binding in that scope is a
    placeholder, a constant, a literal, or a numeric library (numpy) or a value of one: values no gradient
    reaches, (scope, key) of every binding). A scope is a function or class (the id of its node), or the
    module (0)."""
    bindings: Dict[Tuple[int, str], List[bool]] = {}
    modules: Set[str] = set()  # names bound to numeric libraries (np)

    class _Find(cst.CSTVisitor):
        def __init__(self) -> None:
            self.scopes: List[int] = [0]

        def _bind(self, target: cst.BaseExpression, is_input: bool) -> None:
            if isinstance(target, (cst.Tuple, cst.List)):
                for element in target.elements:
                    self._bind(element.value, False)
                return
            key = symbol_key(target)
            if key:
                scope = 0 if key.startswith("self.") else self.scopes[-1]
                bindings.setdefault((scope, key), []).append(is_input)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.scopes.append(id(node))

        def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.scopes.pop()

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            self.scopes.append(id(node))

        def leave_ClassDef(self, node: cst.ClassDef) -> None:
            self.scopes.pop()

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                self._bind(target.target, _no_gradient(node.value, ctx, modules))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._bind(node.target, False)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._bind(node.target, False)

        def visit_For(self, node: cst.For) -> None:
            self._bind(node.target, False)

        def visit_Param(self, node: cst.Param) -> None:
            self._bind(node.name, False)

        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                self._import(alias, dotted_name(alias.name) or "")

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            module_name = dotted_name(node.module) if node.module is not None and not node.relative else ""
            for alias in node.names if isinstance(node.names, (list, tuple)) else ():
                self._import(alias, module_name or "")

        def _import(self, alias: cst.ImportAlias, module_name: str) -> None:
            """A numeric library's names are values no gradient reaches; any other import's may be graph code."""
            bound = alias.asname.name if alias.asname is not None else alias.name
            while isinstance(bound, cst.Attribute):
                bound = bound.value
            if isinstance(bound, cst.Name):
                numeric = module_name.split(".")[0] in _NUMERIC_LIBRARIES
                if numeric:
                    modules.add(bound.value)
                bindings.setdefault((self.scopes[-1], bound.value), []).append(numeric)

    visit(module, _Find())
    return {key for key, inputs in bindings.items() if all(inputs)}, set(bindings)


def _no_gradient(value: cst.BaseExpression, ctx: RuleContext, modules: Set[str]) -> bool:
    """A placeholder, a TF constant, a literal, or a call of a numeric library's (``np.eye(10)``)."""
    if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(value, (cst.List, cst.Tuple)):
        return all(not isinstance(e, cst.StarredElement) and _no_gradient(e.value, ctx, modules)
                   for e in value.elements)
    if isinstance(value, cst.Subscript):  # np.eye(10)[labels]
        return _no_gradient(value.value, ctx, modules)
    if isinstance(value, cst.BinaryOperation):  # smoothed: np.eye(10)[y] * 0.9 + 0.01
        return _no_gradient(value.left, ctx, modules) and _no_gradient(value.right, ctx, modules)
    if not isinstance(value, cst.Call):
        return False
    qualname = ctx.names.call_name(value)
    if qualname is not None:
        return qualname in _PLACEHOLDERS or qualname == "tf.constant"
    root = value.func
    while isinstance(root, cst.Attribute):
        root = root.value
    return isinstance(root, cst.Name) and root.value in modules and root is not value.func


class _Wrap(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, inputs: Set[Tuple[int, str]], bound: Set[Tuple[int, str]]) -> None:
        self.ctx, self.inputs, self.bound = ctx, inputs, bound
        self.scopes: List[int] = [0]
        self.classes: Set[int] = set()  # the scopes that are class bodies

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.append(id(node))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.scopes.pop()
        return updated

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scopes.append(id(node))
        self.classes.add(id(node))

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.scopes.pop()
        return updated

    def _is_input(self, key: str) -> bool:
        """Whether the binding ``key`` reads here (its innermost scope that binds it, else the module's) is one."""
        if key.startswith("self."):
            return (0, key) in self.inputs
        visible = [s for i, s in enumerate(self.scopes[1:], 1)  # a method does not see its class body's names
                   if s not in self.classes or i == len(self.scopes) - 1]
        scope = next((s for s in reversed(visible) if (s, key) in self.bound), 0)
        return (scope, key) in self.inputs

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if self.ctx.names.call_name(original) != _FUNCTION:
            return updated
        args = list(updated.args)
        for index, arg in enumerate(args):
            if arg.keyword is None or arg.keyword.value != "labels" or not self._may_carry_gradient(arg.value):
                continue
            wrapped = cst.parse_expression(f"{self.ctx.tf}.stop_gradient(_)").with_changes(
                args=[cst.Arg(arg.value)])
            args[index] = arg.with_changes(value=wrapped)
            self.ctx.report(original, RULE_ID, INFO,
                            "labels wrapped in tf.stop_gradient: TF1's softmax_cross_entropy_with_logits sent no "
                            "gradient to its labels, TF2's does")
            return updated.with_changes(args=args)
        return updated

    def _may_carry_gradient(self, labels: cst.BaseExpression) -> bool:
        if isinstance(labels, cst.Call) and self.ctx.names.call_name(labels) == "tf.stop_gradient":
            return False
        return not all(self._is_input(key) for key in _roots(labels, self.ctx))


def _roots(expression: cst.BaseExpression, ctx: RuleContext) -> Set[str]:
    """The names and ``self.`` attributes an expression reads, but for TF's own API (``tf.one_hot``)."""
    found: Set[str] = set()

    class _Read(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if ctx.names.qualname(node) is not None:
                return False  # tf.float32, tf.one_hot: TF's, not the program's values
            key = symbol_key(node)
            if key and key.startswith("self."):
                found.add(key)
            else:
                visit(node.value, self)  # ``data.labels`` reads ``data``; ``labels`` is no name of its own
            return False

        def visit_Name(self, node: cst.Name) -> None:
            if node.value not in ("True", "False", "None"):
                found.add(node.value)

        def visit_Arg(self, node: cst.Arg) -> bool:
            visit(node.value, self)  # a keyword's name is not a read
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            found.add("<lambda>")  # what a lambda reads is not followed: wrap
            return False

    visit(expression, _Read())
    return found
