"""A TF op built by a statement that drops it -> gone: TF1 never ran it.

    def multilayer_dnn(X):
        ...
        tf.Print(out, [tf.argmax(out, 1)], 'Predicted value (not printed) = ')      ->   (removed)
        return tf.Print(out, [tf.argmax(out, 1)], 'Predicted value = ')                return tf.Print(...)

TF1 ran an op only when a run fetched it or a fetched op depended on it: an update, print or Python call built as a
statement of its own (``tf.assign_add(counter, 1)``, ``tf.Print(...)``, ``tf.py_func(...)``) was built and never
ran. TF2 runs such an op where it stands, at every call of the code around it (a run's function, or the graph code
the program keeps): the counter would count, the print would print. Only calls of TensorFlow's own functions (not
a method, whose object the text does not type), and not in a program that turns eager execution on
(``tf.enable_eager_execution()``: TF1 ran each op as built there). Eager mode only: compat output keeps TF1's
semantics, and the statement with them.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.cells import shown_expressions
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "unrun-ops"
# TF1 functions whose op changes state or acts outside the graph when it runs.
_UNRUN = {"tf.Print", "tf.print", "tf.py_func", "tf.numpy_function", "tf.py_function", "tf.assign", "tf.assign_add",
          "tf.assign_sub", "tf.scatter_update", "tf.scatter_add", "tf.scatter_sub", "tf.scatter_mul",
          "tf.scatter_div", "tf.scatter_nd_update", "tf.scatter_nd_add", "tf.scatter_nd_sub", "tf.write_file",
          "tf.io.write_file"}


class UnrunOps(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "an update or print op built by a statement that drops it (TF1 never ran it) -> removed"
    ORDER = 1  # before the inline rules move function bodies, and every rule that reads what graph code runs
    TRIGGERS = ("Print", "print", "assign", "scatter_", "py_func", "numpy_function", "py_function", "write_file")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if any(ctx.names.call_name(call) in api.EAGER_SWITCHES for call in all_calls(module)):
            return module
        shown = shown_expressions(module) if ctx.path.endswith(".ipynb") else set()  # (a cell shows its last value)
        return visit(module, _Bodies(ctx, shown, _passed_functions(module)))


class _Bodies(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, shown, passed: Set[str]) -> None:
        self.ctx, self.shown, self.passed = ctx, shown, passed
        # depth of functions TF traced itself (``@tf.function``, ``defun``: their ops all ran) or that are passed
        # as values (``dataset.map(parse)``, ``tf.py_func(f, ...)``: called by what the text does not follow)
        self.traced = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self._skipped(node):
            self.traced += 1

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if self._skipped(original):
            self.traced -= 1
        return updated

    def _skipped(self, node: cst.FunctionDef) -> bool:
        return node.name.value in self.passed or any(_traces(decorator.decorator) for decorator in node.decorators)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = self._without(updated.body)
        return updated if body is None else updated.with_changes(body=body)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        body = self._without(updated.body)
        if body is None:
            return updated
        return updated.with_changes(body=body or [cst.SimpleStatementLine([cst.Pass()])])

    def _without(self, body: Sequence[cst.BaseStatement]) -> Optional[List[cst.BaseStatement]]:
        """``body`` without its lines that only build an op and drop it (None: no such line)."""
        if self.traced:
            return None
        kept: List[cst.BaseStatement] = []
        carried: List[cst.EmptyLine] = []  # the comments above a removed line, for the next line
        removed = False
        for line in body:
            name = self._dropped_op(line)
            if name is None:
                kept.append(line.with_changes(leading_lines=[*carried, *line.leading_lines]) if carried else line)
                carried = []
                continue
            removed = True
            carried.extend(line.leading_lines)
            self.ctx.report(line, RULE_ID, INFO, f"`{name}(...)` built an op the statement drops: TF1 never ran it, "
                                                 "TF2 would at each call; removed")
        return kept if removed else None

    def _dropped_op(self, line: cst.BaseStatement) -> Optional[str]:
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)
                and isinstance(line.body[0].value, cst.Call)) or id(line.body[0]) in self.shown:
            return None
        name = self.ctx.names.call_name(line.body[0].value)
        return name if name in _UNRUN else None


def _passed_functions(module: cst.Module) -> Set[str]:
    """Names read other than as the function of a call (``dataset.map(parse)``): functions passed as values."""
    called: Set[int] = set()
    found: Set[str] = set()

    class _Reads(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            called.add(id(call.func))

        def visit_Name(self, name: cst.Name) -> None:
            if id(name) not in called:
                found.add(name.value)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            called.add(id(node.name))  # (its own name, where it is defined)

        def visit_Attribute(self, node: cst.Attribute) -> None:
            called.add(id(node.attr))  # (``x.parse`` names an attribute, not the function)

    visit(module, _Reads())
    return found


def _traces(decorator: cst.BaseExpression) -> bool:
    """``@tf.function``, ``@tf.contrib.eager.defun``, ``@function(...)``: TF traced the body and ran its ops."""
    target = decorator.func if isinstance(decorator, cst.Call) else decorator
    name = target.attr.value if isinstance(target, cst.Attribute) else target.value if isinstance(target, cst.Name) \
        else ""
    return name in ("function", "defun", "Defun")
