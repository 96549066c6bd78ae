"""Graph-building methods that ``__init__`` calls once: which ones, and ``__init__`` with their bodies in place.

Models often split graph building out of ``__init__`` (``_build_net()``, ``add_placeholders()``,
``self.pred = self._prediction_op()``). When such a method takes no argument but ``self``, is
called once, from ``__init__``, as a statement or as the value of one assignment, and returns at
most one value from its last statement, running it is running its body at the call: its body is
put in place of the call (``rules/inline_build_methods``) and the class converts as one whose
``__init__`` builds the graph.
Its locals must not clash with ``__init__``'s; nothing else in the class may name it, and it must be
private (``_name``: code outside the class does not call it), since the converted class no longer
has it; and the class must not inherit from anything but ``object`` (a base class could call it).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.statement_facts import call_statement
from tf_migrate.analysis.symbols import reads, writes


def inline_build_methods(cls: cst.ClassDef, init: cst.FunctionDef,
                         accept: Callable[[cst.FunctionDef], bool] = lambda method: True,
                         ) -> Tuple[List[cst.BaseStatement], List[cst.FunctionDef]]:
    """``__init__``'s body with each eligible build-method call replaced by the method's body, and those methods.

    ``accept`` says which otherwise eligible methods to inline (the rule: those that build graph).
    """
    if any(not (isinstance(base.value, cst.Name) and base.value.value == "object") for base in cls.bases):
        return list(init.body.body), []
    methods = {m.name.value: m for m in cls.body.body if isinstance(m, cst.FunctionDef)}
    mentions = _attribute_mentions(cls)
    taken: Set[str] = set(reads(init.body)) | set(writes(init.body)) | {p.name.value for p in init.params.params}
    body: List[cst.BaseStatement] = []
    inlined: List[cst.FunctionDef] = []
    for statement in init.body.body:
        call = _build_call(statement)
        method = methods.get(call[1]) if call is not None else None
        private = (method is not None and method.name.value.startswith("_") and not method.name.value.endswith("__")
                   and accept(method))
        expanded = _expand(statement, call[0], method, taken) if private and mentions.get(
            method.name.value) == 1 else None
        if expanded is None:
            body.append(statement)
            continue
        body.extend(expanded)
        inlined.append(method)
        taken |= _locals(method)
    return body, inlined


def _build_call(statement: cst.BaseStatement) -> Optional[Tuple[Optional[cst.AssignTarget], str]]:
    """(target, method) of ``self.m()`` or ``target = self.m()`` as the whole statement."""
    found = call_statement(statement)
    if found is None:
        return None
    target, value = found
    if not (not value.args and isinstance(value.func, cst.Attribute)
            and isinstance(value.func.value, cst.Name) and value.func.value.value == "self"):
        return None
    return target, value.func.attr.value


def _expand(statement: cst.SimpleStatementLine, target: Optional[cst.AssignTarget], method: cst.FunctionDef,
            taken: Set[str]) -> Optional[List[cst.BaseStatement]]:
    params = method.params
    if (method.decorators or method.asynchronous or len(params.params) != 1
            or isinstance(params.star_arg, (cst.Param, cst.ParamStar))
            or params.kwonly_params or params.star_kwarg is not None or params.posonly_params):
        return None
    statements = list(method.body.body)
    returned: Optional[cst.BaseExpression] = None
    last = statements[-1] if statements else None
    if (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return)):
        returned = last.body[0].value
        statements = statements[:-1]
    if not_straight(statements) or (target is None and returned is not None and not isinstance(returned, cst.Name)):
        return None  # a value computed only to be dropped would be one statement more to keep: refused
    if target is not None and returned is None:
        return None  # `x = self.m()` of a method returning None: rare, and nothing to inline it as
    if _locals(method) & taken or method.params.params[0].name.value != "self":
        return None
    if statements:
        statements[0] = statements[0].with_changes(
            leading_lines=[*statement.leading_lines, *statements[0].leading_lines])
    if target is not None:
        statements.append(cst.SimpleStatementLine([cst.Assign([target], returned)]))
    return statements


def _locals(method: cst.FunctionDef) -> Set[str]:
    return {key for key in writes(method.body) if "." not in key}


def _attribute_mentions(cls: cst.ClassDef) -> Dict[str, int]:
    counts: Dict[str, int] = {}

    class Count(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            counts[node.attr.value] = counts.get(node.attr.value, 0) + 1

    cls.visit(Count())
    return counts


def not_straight(statements: List[cst.BaseStatement]) -> bool:
    """Whether inlining ``statements`` would change what they do: a return (other than a last one,
    which the caller has taken off), a yield, ``global``/``nonlocal``, or a nested ``def``."""
    return _Forbidden.found(statements)


class _Forbidden(cst.CSTVisitor):
    """A return other than the last statement, a yield, global or nonlocal: the body is not a straight inline."""

    def __init__(self) -> None:
        self.hit = False

    @classmethod
    def found(cls, statements: List[cst.BaseStatement]) -> bool:
        finder = cls()
        for statement in statements:
            statement.visit(finder)
        return finder.hit

    def visit_Return(self, node) -> None:
        self.hit = True

    def visit_Yield(self, node) -> None:
        self.hit = True

    def visit_Global(self, node) -> None:
        self.hit = True

    def visit_Nonlocal(self, node) -> None:
        self.hit = True

    def visit_FunctionDef(self, node) -> bool:
        self.hit = True  # a nested def's returns are its own, but it closes over the method's locals: refused
        return False

    def visit_Lambda(self, node) -> bool:
        return False
