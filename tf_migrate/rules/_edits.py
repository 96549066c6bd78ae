"""Editing tools the rules share: statement layout, reads of a name, node swaps.

(``code``, fresh names, argument binding and import insertion are in :mod:`tf_migrate.cst`.)

Rules find what to change with a visitor first, then apply every change in
one pass of :class:`Edits`, which swaps nodes by identity.
"""
from __future__ import annotations

import functools
from typing import Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import writes
from tf_migrate.cst.imports import imports_tensorflow, with_stdlib_import
from tf_migrate.traversal import visit


def int_literal(node: Optional[cst.BaseExpression]) -> Optional[int]:
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    if (isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
            and isinstance(node.expression, cst.Integer)):
        return -int(node.expression.value, 0)
    return None


class Layout(cst.CSTVisitor):
    """Each statement's block, its index there, the compound statement around it and its function."""

    def __init__(self) -> None:
        self.where: Dict[int, Tuple[Sequence[cst.BaseStatement], int, Optional[cst.CSTNode],
                                    Optional[cst.FunctionDef]]] = {}
        self._compounds: List[cst.CSTNode] = []

    def _record(self, body) -> None:
        parent = self._compounds[-1] if self._compounds else None
        function = next((c for c in reversed(self._compounds) if isinstance(c, cst.FunctionDef)), None)
        for index, stmt in enumerate(body):
            self.where[id(stmt)] = (body, index, parent, function)

    def visit_Module(self, node: cst.Module) -> None:
        self._record(node.body)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._record(node.body)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseCompoundStatement):
            self._compounds.append(node)
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        super().on_leave(original_node)
        if isinstance(original_node, cst.BaseCompoundStatement):
            self._compounds.pop()

    def function_of(self, stmt: cst.BaseStatement) -> Optional[cst.FunctionDef]:
        return self.where[id(stmt)][3]

    def following(self, stmt: cst.CSTNode) -> List[cst.BaseStatement]:
        """Statements that run after ``stmt`` in its function (or module), in order."""
        if id(stmt) not in self.where:
            return []
        body, index, parent, _ = self.where[id(stmt)]
        out = list(body[index + 1:])
        if parent is not None and not isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
            out += self.following(parent)
        return out


def loads(node: cst.CSTNode, name: str) -> List[cst.Name]:
    """``name`` read (not bound) inside ``node``."""
    found: List[cst.Name] = []

    class _Loads(cst.CSTVisitor):
        def visit_Attribute(self, attr: cst.Attribute) -> bool:
            visit(attr.value, self)
            return False

        def visit_Arg(self, arg: cst.Arg) -> bool:
            visit(arg.value, self)
            return False

        def visit_AssignTarget(self, target: cst.AssignTarget) -> bool:
            return not isinstance(target.target, cst.Name)

        def visit_For(self, loop: cst.For) -> bool:
            if not isinstance(loop.target, cst.Name):
                visit(loop.target, self)
            for part in (loop.iter, loop.body, loop.orelse):
                if part is not None:
                    visit(part, self)
            return False

        def visit_CompFor(self, comp: cst.CompFor) -> bool:
            for part in [comp.iter, *comp.ifs] + ([comp.inner_for_in] if comp.inner_for_in else []):
                visit(part, self)
            return False

        def _comprehension(self, comp) -> bool:
            """A comprehension that binds ``name`` reads it only in its first iterable."""
            targets, for_in = set(), comp.for_in
            while for_in is not None:
                targets |= _bound(for_in.target)
                for_in = for_in.inner_for_in
            if name not in targets:
                return True
            visit(comp.for_in.iter, self)
            return False

        visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

        def visit_Lambda(self, function: cst.Lambda) -> bool:
            return name not in {p.name.value for p in function.params.params}

        def visit_Param(self, param: cst.Param) -> bool:
            if param.default is not None:
                visit(param.default, self)
            return False

        def visit_FunctionDef(self, function: cst.FunctionDef) -> bool:
            for part in [*function.decorators, function.params, function.body]:
                visit(part, self)
            return False

        def visit_ImportAlias(self, alias: cst.ImportAlias) -> bool:
            return False

        def visit_AsName(self, alias: cst.AsName) -> bool:
            return False

        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                found.append(node)

    visit(node, _Loads())
    return found


def _bound(target: cst.BaseExpression) -> set:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_bound(e.value) for e in target.elements))
    return set()


def dead_after(name: str, later: Sequence[cst.BaseStatement]) -> bool:
    """Whether no later statement reads the value ``name`` has now (rebinding first is fine)."""
    for stmt in later:
        read, bound = bool(loads(stmt, name)), name in writes(stmt)
        if not read and not bound:
            continue
        if isinstance(stmt, cst.SimpleStatementLine):
            return not read
        return bound  # a loop or block that binds it (for name in ...) before using it
    return True


class Edits(cst.CSTTransformer):
    """Node swaps by identity: expressions, whole statements, statements inserted before others."""

    def __init__(self) -> None:
        self.expressions: Dict[int, cst.BaseExpression] = {}
        self.statements: Dict[int, List[cst.BaseStatement]] = {}
        self.before: Dict[int, List[cst.BaseStatement]] = {}

    def __bool__(self) -> bool:
        return bool(self.expressions or self.statements or self.before)

    def on_leave(self, original_node, updated_node):
        updated_node = super().on_leave(original_node, updated_node)
        key = id(original_node)
        if key in self.expressions:
            return self.expressions[key]
        if key not in self.statements and key not in self.before:
            return updated_node
        new = self.statements.get(key, [updated_node])
        before = self.before.get(key, [])
        if before and new:
            lead = getattr(new[0], "leading_lines", ())
            before = [before[0].with_changes(leading_lines=list(lead) + list(before[0].leading_lines))] + before[1:]
            new = [new[0].with_changes(leading_lines=[])] + list(new[1:])
        out = before + list(new)
        return cst.FlattenSentinel(out) if out else cst.RemoveFromParent()


def block_statements(block: cst.BaseSuite) -> List[cst.BaseStatement]:
    """The statements of a block, as lines of their own (``if test: a = 1`` on one line gives ``a = 1``)."""
    if isinstance(block, cst.IndentedBlock):
        return list(block.body)
    return [cst.SimpleStatementLine(list(block.body))]


def pass_if_empty(body: Sequence[cst.BaseStatement]) -> List[cst.BaseStatement]:
    """``body``, or ``pass`` where a rewrite left a block with no statements."""
    return list(body) or [cst.SimpleStatementLine([cst.Pass()])]


def statement(source: str, leading: Sequence[cst.EmptyLine] = ()) -> cst.BaseStatement:
    return cst.parse_statement(source + "\n").with_changes(leading_lines=list(leading))


def comment_lines(nodes: Sequence[cst.CSTNode]) -> List[cst.EmptyLine]:
    """The comment lines inside ``nodes`` (kept when the statements they annotated are replaced)."""
    found: List[cst.EmptyLine] = []

    class _Comments(cst.CSTVisitor):
        def visit_EmptyLine(self, line: cst.EmptyLine) -> None:
            if line.comment is not None:
                found.append(cst.EmptyLine(comment=line.comment))

        def visit_TrailingWhitespace(self, trailing: cst.TrailingWhitespace) -> None:
            if trailing.comment is not None:
                found.append(cst.EmptyLine(comment=trailing.comment))

    for node in nodes:
        visit(node, _Comments())
    return found


def pep8_spaced(body: List[cst.BaseStatement], generated: Set[int], blank: int) -> List[cst.BaseStatement]:
    """PEP 8 blank lines around the generated definitions (two at module level, one inside a function)."""
    out: List[cst.BaseStatement] = []
    for index, node in enumerate(body):
        if id(node) in generated or (index and id(body[index - 1]) in generated):
            lines = list(node.leading_lines)
            empty = 0
            while empty < len(lines) and lines[empty].comment is None:
                empty += 1
            if index:
                node = node.with_changes(leading_lines=[cst.EmptyLine(indent=False)] * blank + lines[empty:])
        out.append(node)
    return out


@functools.lru_cache(maxsize=256)
def _parsed_definitions(source: str) -> Tuple[cst.BaseStatement, ...]:
    """The statements of a helper's source, parsed once per text (nodes are immutable: modules may share them)."""
    return tuple(cst.parse_module(source).body)


def with_module_helper(module: cst.Module, source: str, stdlib: Sequence[str] = ()) -> cst.Module:
    """``source`` (definitions) after the tensorflow import (the module's ``import tensorflow``, if it has one) and
    the imports right after it, PEP 8 spaced;
    ``stdlib``: standard-library modules the definitions use, imported before the module's first import
    where the module does not import them already."""
    body = list(module.body)

    def imports(stmt, test) -> bool:
        return isinstance(stmt, cst.SimpleStatementLine) and any(test(small) for small in stmt.body)

    # after ``import tensorflow as tf`` (not ``from tensorflow.examples... import input_data`` above it)
    position = next((i + 1 for i, stmt in enumerate(body) if imports(
        stmt, lambda small: isinstance(small, cst.Import) and imports_tensorflow(small))), 0) or \
        next((i + 1 for i, stmt in enumerate(body) if imports(stmt, imports_tensorflow)), 0)
    while position < len(body) and imports(body[position], lambda s: isinstance(s, (cst.Import, cst.ImportFrom))):
        position += 1
    helpers = list(_parsed_definitions(source.lstrip("\n")))
    body = pep8_spaced(body[:position] + helpers + body[position:], {id(helper) for helper in helpers}, blank=2)
    module = module.with_changes(body=body)
    for name in stdlib:
        module = with_stdlib_import(module, name)
    return module
