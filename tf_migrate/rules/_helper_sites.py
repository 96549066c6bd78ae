"""Where a module calls the helpers ``helper-modules`` may build as ``tf.Module`` classes, and what stands in the way.

Each call is a :class:`Site`: the statement that would build its instance, the function or main guard it is in,
the ``for`` loop whose body holds it (an instance per iteration), the order Python evaluates it in among the
statement's calls, and why it cannot become an instance call (in a nested function, a lambda, a loop's header or
a ``while`` loop). Uses other than calls are counted: a helper passed or stored as a value keeps its function form.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import callee_name
from tf_migrate.tfnames import ImportedFunction, dotted_name

_LOOPS = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


@dataclass
class Site:
    call: cst.Call
    statement: Optional[cst.SimpleStatementLine]  # where the instance is built (None: not a plain statement)
    function: Optional[cst.CSTNode]  # the module-level function or main-guard scope it is in (None: module code)
    trouble: str = ""  # why this call cannot become an instance call
    # The loop whose body holds the call's statement: each iteration builds its instance there, and split-build-loops
    # makes them in a first loop (a list), called by a second.
    loop: Optional[cst.For] = None
    order: int = 0  # when Python evaluates it among the statement's calls (inner calls first)


@dataclass
class Helper:
    func: Optional[cst.FunctionDef]  # None: imported, with no tf.Module form (its module uses it too)
    sites: List[Site] = field(default_factory=list)
    other_uses: int = 0
    imported: Optional[ImportedFunction] = None  # a helper of another module of the tree (rules/_tree_helpers)


class SiteFinder(cst.CSTVisitor):
    """Every use of the candidate helpers, with the block it sits in."""

    def __init__(self, helpers: Dict[str, Helper], own_scope_blocks: Set[int]) -> None:
        self.helpers = helpers
        self.own_scope_blocks = own_scope_blocks  # main guards analysed as scopes: their calls are in them
        self.function: Optional[cst.CSTNode] = None
        self.statement: Optional[cst.SimpleStatementLine] = None
        self.context: List[cst.CSTNode] = []
        self.open: Dict[int, Site] = {}
        self.finished = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.statement = None
        if self.function is None and not self.context:
            self.function = node
        else:
            self.context.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node is self.function:
            self.function = None
        else:
            self.context.pop()

    def visit_If(self, node: cst.If) -> None:
        self.statement = None
        if id(node) in self.own_scope_blocks and self.function is None and not self.context:
            self.function = node

    def leave_If(self, node: cst.If) -> None:
        if node is self.function:
            self.function = None

    def visit_For(self, node: cst.CSTNode) -> None:  # _LOOPS, lambdas and classes: the compound statements first
        self.context.append(node)
        self.statement = None

    def visit_ListComp(self, node: cst.CSTNode) -> None:
        self.context.append(node)

    def leave_For(self, node: cst.CSTNode) -> None:
        self.context.pop()

    def visit_Try(self, node: cst.CSTNode) -> None:  # the other compound statements
        self.statement = None

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.statement = node

    def leave_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.statement = None

    visit_While = visit_ClassDef = visit_For
    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda = visit_ListComp
    leave_While = leave_ClassDef = leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = leave_Lambda \
        = leave_For
    visit_TryStar = visit_With = visit_Match = visit_Try

    def visit_Call(self, node: cst.Call) -> None:
        helper = self.helpers.get(callee_name(node))
        if helper is None:
            return
        site = Site(node, self.statement, self.function)
        if self._in_loop_body():
            site.loop = self.context[0]
        elif any(isinstance(c, _LOOPS) for c in self.context):
            site.trouble = "it is called in a loop (each iteration made new variables in TF1)"
        elif self.context:
            site.trouble = "it is called inside a nested function, lambda or class"
        elif self.statement is None:
            site.trouble = "it is called in the header of a compound statement"
        helper.sites.append(site)
        self.open[id(node)] = site

    def _in_loop_body(self) -> bool:
        """Whether the call is in a line of its own directly in the body of one ``for`` loop (nothing else around)."""
        loop = self.context[0] if len(self.context) == 1 else None
        return (isinstance(loop, cst.For) and self.statement is not None and loop.orelse is None
                and isinstance(loop.body, cst.IndentedBlock) and any(s is self.statement for s in loop.body.body))

    def leave_Call(self, node: cst.Call) -> None:
        site = self.open.pop(id(node), None)
        if site is not None:
            self.finished += 1
            site.order = self.finished

    def visit_Name(self, node: cst.Name) -> None:
        helper = self.helpers.get(node.value)
        if helper is not None:
            helper.other_uses += 1

    def visit_Attribute(self, node: cst.Attribute) -> None:
        helper = self.helpers.get(dotted_name(node) or "")  # ``model.inference``: of a module imported whole
        if helper is not None:
            helper.other_uses += 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False  # the import of a helper of another module is not a use of it
