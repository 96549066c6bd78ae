"""A method's body in place of one call of it (``analysis.build_methods`` says which calls qualify).

    self.a = self._build_a(self.S, scope='eval', trainable=True)
becomes, for ``def _build_a(self, s, scope, trainable)``,
    with tf.variable_scope('eval'):
        net = tf.layers.dense(self.S, 30, trainable=True)
        self.a = tf.multiply(net, self.a_bound)

Parameters bound to a name, an attribute of a name or a literal are replaced by it; other
arguments are computed once, into a local named after the parameter, before the body. The
method's locals keep their names unless the caller already uses them (then they get fresh ones,
so a second call's ``net`` is ``net_2``). A returned local that is bound once becomes the call's
target itself (``return s, a`` into ``self.s, self.a = ...`` binds ``self.s`` where ``s`` was bound),
so no second name is made for a placeholder; other returned values are assigned to the target at
the end.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.build_methods import BuildCall, tail_return
from tf_migrate.analysis.symbols import reads, symbol_key, target_keys, writes
from tf_migrate.codegen.replace import NameSubstitution
from tf_migrate.cst.names import fresh
from tf_migrate.traversal import visit

_LITERALS = (cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary, cst.ConcatenatedString)


class NotInlinable(Exception):
    """The call cannot be run in place (a comprehension or lambda reuses a name the inline renames)."""


def inline_call(site: BuildCall, taken: Set[str]) -> List[cst.BaseStatement]:
    """The statements that run ``site.method``'s body where ``site.statement`` stood; ``taken`` (the names the
    caller's code uses) gains the names they bind."""
    method = site.method
    statements = list(method.body.body)
    if len(statements) > 1 and _docstring(statements[0]):  # the method's documentation, not its work
        statements = statements[1:]
    body_writes = set(writes(method.body))
    locals_ = {key for key in body_writes if "." not in key}
    mapping: Dict[str, cst.BaseExpression] = {}
    prologue: List[cst.BaseStatement] = []
    for param, argument in site.arguments.items():
        if param not in body_writes and _stable(argument) and not (reads(argument) & body_writes):
            mapping[param] = argument
        else:
            local = fresh(param, taken)
            prologue.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(local))], argument)]))
            mapping[param] = cst.Name(local)
    returned = tail_return(statements)
    assignments = _returned_pairs(site, returned)
    bound_once = _bound_once(method.body)
    for target, value in list(assignments):
        name = value.value if isinstance(value, cst.Name) else None
        if name in locals_ and name in bound_once and name not in mapping and symbol_key(target) is not None \
                and not _reads_before_binding(statements, name):
            mapping[name] = target  # `s = tf.placeholder(...)`, returned into self.s: bind self.s there
            assignments.remove((target, value))
    throwaway = {"_"} if _only_bound(method.body, "_") else set()  # `_, loss = ...`: nobody reads it
    for local in sorted(locals_ - set(mapping)):
        if local in taken and local not in throwaway:
            mapping[local] = cst.Name(fresh(local, taken))
        else:
            taken.add(local)
    if _Shadowed.names(statements) & set(mapping):
        raise NotInlinable(f"a comprehension or lambda in `{method.name.value}` binds a name the inline renames")
    substitute = NameSubstitution(mapping)
    # The targets are the caller's names: only the returned values are the method's.
    tail = [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(target)], visit(value, substitute))])
            for target, value in assignments]
    replaced = _replace_tail(statements, returned, tail)  # (which may give tail[0] the return's leading lines)
    substitute.skip = {id(statement) for statement in tail}
    body = prologue + [visit(statement, substitute) for statement in replaced]
    if not body:
        body = [cst.SimpleStatementLine([cst.Pass()])]
    body[0] = body[0].with_changes(leading_lines=[*site.statement.leading_lines, *body[0].leading_lines])
    return body


def _docstring(line: cst.BaseStatement) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr) \
        and isinstance(line.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _stable(argument: cst.BaseExpression) -> bool:
    """A value that reads the same at each use: a name, an attribute of a name, a literal."""
    if isinstance(argument, cst.Name) or isinstance(argument, _LITERALS):
        return True
    if isinstance(argument, cst.UnaryOperation) and isinstance(argument.operator, cst.Minus):
        return isinstance(argument.expression, (cst.Integer, cst.Float))
    return isinstance(argument, cst.Attribute) and symbol_key(argument) is not None


def _returned_pairs(site: BuildCall, returned: Optional[cst.Return]):
    """(target, value) assignments the call's target gets from the returned value."""
    if site.target is None or returned is None or returned.value is None:
        return []
    target, value = site.target, returned.value
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements) \
            and all(isinstance(e, cst.Element) for e in value.elements):
        return [(t.value, v.value) for t, v in zip(target.elements, value.elements)]
    return [(target, value)]


def _replace_tail(statements, returned: Optional[cst.Return], tail: List[cst.BaseStatement]):
    """``statements`` with the tail ``return`` replaced by ``tail`` (in the ``with`` block it stands in)."""
    if returned is None:
        return statements + tail
    last = statements[-1]
    if isinstance(last, cst.With):
        inner = _replace_tail(list(last.body.body), returned, tail)
        if not inner:
            inner = [cst.SimpleStatementLine([cst.Pass()])]
        return statements[:-1] + [last.with_changes(body=last.body.with_changes(body=inner))]
    if tail:
        tail[0] = tail[0].with_changes(leading_lines=last.leading_lines)
    return statements[:-1] + tail


def _bound_once(body: cst.CSTNode) -> Set[str]:
    """Names bound exactly once in ``body``, by a plain assignment (not a loop, ``+=`` or ``with ... as``)."""
    counts: Dict[str, int] = {}
    plain: Set[str] = set()

    class _Bindings(cst.CSTVisitor):
        def _count(self, target, is_plain: bool) -> None:
            if isinstance(target, (cst.Tuple, cst.List)):
                for element in target.elements:
                    self._count(element.value, is_plain)
            elif isinstance(target, cst.Name):
                counts[target.value] = counts.get(target.value, 0) + 1
                if is_plain:
                    plain.add(target.value)

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                self._count(target.target, len(node.targets) == 1)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._count(node.target, False)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._count(node.target, False)

        def visit_For(self, node: cst.For) -> None:
            self._count(node.target, False)

        def visit_AsName(self, node: cst.AsName) -> None:
            self._count(node.name, False)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            self._count(node.target, False)

    visit(body, _Bindings())
    return {name for name, count in counts.items() if count == 1 and name in plain}


def _reads_before_binding(statements, name: str) -> bool:
    """Whether code reads ``name`` before the statement that binds it (then it named something else)."""
    return _scan_reads(statements, name) is not False


def _scan_reads(statements, name: str):
    """True: read first; False: bound first; None: neither (``with`` blocks are looked into)."""
    for statement in statements:
        if isinstance(statement, cst.With):
            if any(name in reads(item.item) for item in statement.items):
                return True
            found = _scan_reads(list(statement.body.body), name)
            if found is not None:
                return found
            continue
        binds = name in writes(statement)
        if name in reads(statement) and not (binds and isinstance(statement, cst.SimpleStatementLine)
                                             and _binding_reads_only_value(statement, name)):
            return True
        if binds:
            return False
    return None


def _binding_reads_only_value(statement: cst.SimpleStatementLine, name: str) -> bool:
    small = statement.body[0] if len(statement.body) == 1 else None
    return isinstance(small, cst.Assign) and name not in reads(small.value)


def _only_bound(body: cst.CSTNode, name: str) -> bool:
    """Whether every mention of ``name`` in ``body`` is an assignment's or a loop's target."""
    targets: Set[int] = set()

    class _Targets(cst.CSTVisitor):
        def _take(self, target: cst.CSTNode) -> None:
            targets.update(id(node) for node in _names_in(target) if node.value == name)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self._take(node.target)

        def visit_For(self, node: cst.For) -> None:
            self._take(node.target)

    visit(body, _Targets())
    return all(id(node) in targets for node in _names_in(body) if node.value == name)


def _names_in(node: cst.CSTNode):
    """The ``cst.Name`` nodes under ``node`` that name values (not attributes' names or keywords)."""
    if isinstance(node, cst.Name):
        yield node
    elif isinstance(node, cst.Attribute):
        yield from _names_in(node.value)
    elif isinstance(node, cst.Arg):
        yield from _names_in(node.value)
    else:
        for child in node.children:
            yield from _names_in(child)


class _Shadowed(cst.CSTVisitor):
    """Names that comprehensions and lambdas bind for themselves."""

    def __init__(self) -> None:
        self.found: Set[str] = set()

    @classmethod
    def names(cls, statements) -> Set[str]:
        finder = cls()
        for statement in statements:
            visit(statement, finder)
        return finder.found

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.found |= set(target_keys(node.target))

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.found |= {p.name.value for p in node.params.params}

