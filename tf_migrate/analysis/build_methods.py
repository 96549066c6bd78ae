"""Graph-building methods that ``__init__`` runs: which calls of them can be run in place.

Models often split graph building out of ``__init__`` (``_build_net()``, ``add_placeholders()``,
``self.pred = self._prediction_op()``), and agents build the same network twice with other
arguments (``self.a = self._build_a(self.S, scope='eval', trainable=True)`` and again for the
target network). Running such a method is running its body at the call, with its parameters
bound to the call's arguments: the body is put in place of each call
(``rules/inline_build_methods``, made by ``codegen/inline_calls``) and the class converts as one
whose ``__init__`` builds the graph.

A method qualifies when code outside the class does not name it (it is private, ``_name``, or no
``obj.name`` stands anywhere else in the module: the converted class no longer has it), every mention of it in the class is a call from
``__init__`` (as a statement, or as the value of one assignment, at the top of ``__init__`` or in
its ``with`` blocks), it takes ``self`` and plain parameters, and its only ``return`` is its last
statement (inside ``with`` blocks is fine). Every call must bind every parameter without a
default, or pass one ``**mapping`` (each parameter then reads its entry). The class must not inherit from anything but ``object`` (a base class could call it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.statement_facts import call_statement
from tf_migrate.cst.arguments import bind_with_defaults
from tf_migrate.cst.names import attribute_mentions, name_mentions
from tf_migrate.traversal import visit


@dataclass
class BuildCall:
    """One call of a build method that can be replaced by the method's body."""

    statement: cst.SimpleStatementLine
    target: Optional[cst.BaseAssignTargetExpression]  # None: a call as a statement
    method: cst.FunctionDef
    arguments: Dict[str, cst.BaseExpression]  # parameter -> the expression it is bound to (defaults filled in)


def build_calls(cls: cst.ClassDef, init: cst.FunctionDef,
                accept: Callable[[cst.FunctionDef], bool] = lambda method: True,
                named_outside: Optional[Set[str]] = None) -> List[BuildCall]:
    """The calls in ``init`` that can be run in place, each method's calls all together or not at all.

    ``accept`` says which otherwise eligible methods to take (the rule: those that build graph);
    ``named_outside``: the attribute names the module's code outside the class reads (None: not known,
    so only private methods qualify)."""
    if not plain_class(cls):
        return []
    methods = {m.name.value: m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m is not init}
    mentions = attribute_mentions(cls)
    by_method: Dict[str, List[BuildCall]] = {}
    refused: Set[str] = set()
    for statement in _statements(init.body.body):
        found = call_statement(statement)
        if found is None:
            continue
        target, call = found
        name = self_method(call)
        method = methods.get(name) if name is not None else None
        if method is None or name in refused:
            continue
        site = _site(statement, target, call, method) if _eligible(method, named_outside) and accept(method) \
            else None
        if site is None:
            refused.add(name)
            continue
        by_method.setdefault(name, []).append(site)
    return [site for name, sites in by_method.items()
            if name not in refused and mentions.get(name) == len(sites) for site in sites]


def plain_class(cls: cst.ClassDef) -> bool:
    """A class with no base but ``object``: no base class calls its methods (nor is it an eager ``tf.Module``)."""
    return all(isinstance(base.value, cst.Name) and base.value.value == "object" for base in cls.bases)


def nested_build_calls(method: cst.FunctionDef, accept: Callable[[cst.FunctionDef], bool]) -> List[BuildCall]:
    """Calls of functions that ``method`` defines in its body and that can be run in place, each function's calls
    all together or not at all.

    ``def build_layers(s, c_names): ...`` then ``self.q_eval = build_layers(self.s, c_names)`` for the eval network
    and again for the target network: the function is defined at the top level of the body, takes plain
    parameters, has no decorators, its body is a straight inline (:func:`inlinable`), ``accept`` takes it, and the
    method names it nowhere but in such calls after its ``def`` (as a statement, or the value of one assignment, at
    the top of the body or in its ``with`` blocks). The body reads the method's locals where each call stands, as
    the closure read them when called."""
    body = list(method.body.body)
    found: List[BuildCall] = []
    for index, function in enumerate(body):
        if not isinstance(function, cst.FunctionDef) or not _plain(function) or not accept(function):
            continue
        name = function.name.value
        sites: List[BuildCall] = []
        for statement in _statements(body[index + 1:]):
            hit = call_statement(statement)
            if hit is None or not (isinstance(hit[1].func, cst.Name) and hit[1].func.value == name):
                continue
            site = _site(statement, hit[0], hit[1], function, skip_self=False)
            if site is None:
                sites = []
                break
            sites.append(site)
        if sites and name_mentions(method.body, name) == len(sites) + 1:  # the calls and the def's own name
            found.extend(sites)
    return found


def _plain(function: cst.FunctionDef) -> bool:
    params = function.params
    return not (function.decorators or function.asynchronous or isinstance(params.star_arg, (cst.Param, cst.ParamStar))
                or params.kwonly_params or params.star_kwarg is not None or params.posonly_params) \
        and inlinable(function)


def tail_return(statements) -> Optional[cst.Return]:
    """The ``return`` that ends ``statements``, directly or as the last statement of ``with`` blocks."""
    last = statements[-1] if statements else None
    if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return):
        return last.body[0]
    if isinstance(last, cst.With):
        return tail_return(list(last.body.body))
    return None


def inlinable(function: cst.FunctionDef) -> bool:
    """Whether the body runs the same in place of a call: no return but the tail one, no yield, no
    ``global``/``nonlocal``, no nested ``def`` or class."""
    statements = list(function.body.body)
    return not _Forbidden.found(statements, tail_return(statements))


def _statements(body) -> List[cst.BaseStatement]:
    """``body``'s statements and those of its ``with`` blocks, in order."""
    found = []
    for statement in body:
        if isinstance(statement, cst.With):
            found.extend(_statements(statement.body.body))
        else:
            found.append(statement)
    return found


def self_method(call: cst.Call) -> Optional[str]:
    """``m`` of a call ``self.m(...)``, else None."""
    func = call.func
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        return func.attr.value
    return None


def _eligible(method: cst.FunctionDef, named_outside: Optional[Set[str]]) -> bool:
    params = method.params
    name = method.name.value
    hidden = name.startswith("_") or (named_outside is not None and name not in named_outside)
    if (not hidden or name.endswith("__") or method.decorators or method.asynchronous
            or not params.params or params.params[0].name.value != "self"
            or isinstance(params.star_arg, (cst.Param, cst.ParamStar)) or params.kwonly_params
            or params.star_kwarg is not None or params.posonly_params):
        return False
    statements = list(method.body.body)
    tail = tail_return(statements)
    return not _Forbidden.found(statements, tail)


def _site(statement, target, call: cst.Call, method: cst.FunctionDef, skip_self: bool = True) -> Optional[BuildCall]:
    params = method.params.params[1:] if skip_self else method.params.params
    bound = bind_with_defaults(call, params)
    if bound is None:
        bound = _bind_mapping(call, params)
    if bound is None or any(not _is_false(bound.get(param)) for param in _scope_switches(method)):
        return None  # a call that reuses the variables another call made (or wraps them in a getter)
    returned = tail_return(list(method.body.body))
    value = returned.value if returned is not None else None
    if target is not None and value is None:
        return None  # `x = self.m()` of a method returning None: nothing to bind x to
    if target is None and value is not None and not isinstance(value, cst.Name):
        return None  # a value computed only to be dropped would be one statement more to keep: refused
    if target is not None and not _simple_target(target.target):
        return None
    return BuildCall(statement, target.target if target is not None else None, method, bound)


def _bind_mapping(call: cst.Call, params) -> Optional[Dict[str, cst.BaseExpression]]:
    """A call of one ``**mapping`` argument (a name or an attribute of one, ``self._initialize_weights(
    **self.network_architecture)``): each parameter bound to its entry, ``mapping["p"]`` (``mapping.get("p",
    default)`` where it has a default). Where the call ran in TF1, the mapping held these keys."""
    if len(call.args) != 1 or call.args[0].star != "**" or not isinstance(call.args[0].value, (cst.Name, cst.Attribute)):
        return None
    mapping = call.args[0].value
    if isinstance(mapping, cst.Attribute) and not isinstance(mapping.value, cst.Name):
        return None
    bound: Dict[str, cst.BaseExpression] = {}
    for param in params:
        key = cst.SimpleString(repr(param.name.value))
        bound[param.name.value] = cst.Subscript(mapping, [cst.SubscriptElement(cst.Index(key))]) \
            if param.default is None else cst.Call(cst.Attribute(mapping, cst.Name("get")),
                                                   [cst.Arg(key), cst.Arg(param.default)])
    return bound


def _scope_switches(method: cst.FunctionDef) -> Set[str]:
    """Parameters the body passes as ``reuse=`` or ``custom_getter=`` (to ``tf.variable_scope``): a call that
    sets one shares or wraps variables another call made, which running the body in place would make anew."""
    switches: Set[str] = set()

    class _Keywords(cst.CSTVisitor):
        def visit_Arg(self, arg: cst.Arg) -> None:
            if (arg.keyword is not None and arg.keyword.value in ("reuse", "custom_getter")
                    and isinstance(arg.value, cst.Name)):
                switches.add(arg.value.value)

    visit(method.body, _Keywords())
    return switches


def _is_false(value: Optional[cst.BaseExpression]) -> bool:
    return isinstance(value, cst.Name) and value.value in ("None", "False")


def _simple_target(target) -> bool:
    if isinstance(target, cst.Tuple):
        return all(isinstance(e, cst.Element) and _simple_target(e.value) for e in target.elements)
    return isinstance(target, cst.Name) or (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name))


def not_straight(statements: List[cst.BaseStatement]) -> bool:
    """Whether inlining ``statements`` would change what they do: a return (other than a last one,
    which the caller has taken off), a yield, ``global``/``nonlocal``, or a nested ``def``."""
    return _Forbidden.found(statements)


class _Forbidden(cst.CSTVisitor):
    """A return other than the tail one, a yield, global or nonlocal: the body is not a straight inline."""

    def __init__(self, allowed: Optional[cst.Return] = None) -> None:
        self.hit = False
        self.allowed = allowed

    @classmethod
    def found(cls, statements: List[cst.BaseStatement], allowed: Optional[cst.Return] = None) -> bool:
        finder = cls(allowed)
        for statement in statements:
            visit(statement, finder)
        return finder.hit

    def visit_Return(self, node) -> None:
        if node is not self.allowed:
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

    def visit_ClassDef(self, node) -> bool:
        self.hit = True
        return False

    def visit_Lambda(self, node) -> bool:
        return False
