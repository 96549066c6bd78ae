"""A visitor that knows the functions and classes around the node it visits."""
from __future__ import annotations

from typing import List, Union

import libcst as cst


class EnclosingDefs(cst.CSTVisitor):
    """``self.stack``: the ``def``s and ``class``es around the visited node, outermost first. Subclasses that
    visit those nodes too call ``super()``'s methods."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: List[Union[cst.FunctionDef, cst.ClassDef]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.stack.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.stack.pop()
