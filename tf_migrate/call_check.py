"""Calls that Python would refuse with a TypeError: too many positionals, unknown keywords, missing arguments.

Part of the output self-check (tf_migrate/selfcheck.py). The rewrite generates functions and methods and
changes the parameters of others, so a call it forgets to update fails only when the program reaches it.
This pass finds those calls statically, with the standard library's ``ast``:

- only calls it can resolve for sure: ``f(...)`` where the scope that binds ``f`` binds it once, to a
  ``def``; and ``self.m(...)`` in a method whose first parameter is ``self``, where the class body
  defines ``m`` once and nothing in the module assigns an attribute ``m`` or overrides ``m`` in a subclass;
- a function with a decorator other than ``staticmethod`` / ``classmethod`` / ``tf.function`` (which keep
  the signature) is skipped: the decorator may change what it accepts;
- a call with ``*args`` or ``**kwargs`` is checked as far as the known arguments go;
- ``call_compiled(run_y, x=...)``, the generated helper that calls a compiled function through its
  concrete function, is checked as the call ``run_y(x=...)``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                  ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
# `match` patterns that bind a name (``case P() as p``, ``case [*rest]``, ``case {**rest}``); Python 3.9 has none.
_PATTERN_REST = tuple(getattr(ast, kind) for kind in ("MatchMapping",) if hasattr(ast, kind))
_PATTERN_CAPTURES = tuple(getattr(ast, kind) for kind in ("MatchAs", "MatchStar") if hasattr(ast, kind)) + _PATTERN_REST


@dataclass(frozen=True)
class BadCall:
    """A call the callee's signature refuses."""

    function: str  # "run_loss" or "Agent.train"
    problem: str  # TypeError's wording without the function's name: "missing required argument 'x'"
    line: int


class _Scope:
    """The names one scope binds: a name bound once, by a ``def``, is the only kind resolved."""

    def __init__(self, node: ast.AST, parent: Optional["_Scope"]) -> None:
        self.node, self.parent = node, parent
        self.bindings: Dict[str, List[ast.AST]] = {}
        self.star_import = False

    def bind(self, name: str, node: ast.AST) -> None:
        self.bindings.setdefault(name, []).append(node)

    def function(self, name: str) -> Optional[ast.AST]:
        bound = self.bindings.get(name, ())
        return bound[0] if len(bound) == 1 and isinstance(bound[0], _FUNCTIONS) else None


class _Model:
    """The scopes of a module, its calls and the scope of each, and what makes a name unresolvable."""

    def __init__(self, tree: ast.Module) -> None:
        self.defined_in: Dict[int, _Scope] = {}  # id(def) -> the scope that binds its name
        self.unresolvable: set = set()  # names declared global/nonlocal or bound by `:=`
        self.assigned_attributes: set = set()  # `x.m = ...` anywhere: a method `m` may be replaced
        self.calls: List[Tuple[ast.Call, _Scope]] = []
        self.classes: List[ast.ClassDef] = []
        self._visit(tree, _Scope(tree, None))

    def _visit(self, node: ast.AST, scope: _Scope) -> None:
        kind = type(node)
        if kind is ast.Name:  # the commonest node: no children to visit
            if type(node.ctx) is not ast.Load:
                scope.bind(node.id, node)
            return
        if kind is ast.Constant:
            return
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            self.unresolvable.update(node.names)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            self.unresolvable.add(node.target.id)
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            self.assigned_attributes.add(node.attr)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    scope.star_import = True
                else:
                    scope.bind(alias.asname or alias.name.split(".")[0], node)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            scope.bind(node.name, node)
        elif isinstance(node, ast.Call):
            self.calls.append((node, scope))
        elif isinstance(node, _PATTERN_CAPTURES):
            name = node.rest if isinstance(node, _PATTERN_REST) else node.name
            if name:
                scope.bind(name, node)
        if isinstance(node, _NESTED_SCOPES):
            self._visit_scope(node, scope)
            return
        for child in ast.iter_child_nodes(node):
            self._visit(child, scope)

    def _visit_scope(self, node: ast.AST, outer: _Scope) -> None:
        """A def, class, lambda or comprehension: its name, decorators and defaults belong to ``outer``."""
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            outer.bind(node.name, node)
            self.defined_in[id(node)] = outer
            for expr in node.decorator_list:
                self._visit(expr, outer)
        if isinstance(node, ast.ClassDef):
            self.classes.append(node)
            for expr in (*node.bases, *node.keywords):
                self._visit(expr, outer)
        if isinstance(node, (*_FUNCTIONS, ast.Lambda)):
            for expr in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
                self._visit(expr, outer)
            if isinstance(node, _FUNCTIONS):
                for expr in _annotations(node):
                    self._visit(expr, outer)
        inner = _Scope(node, outer)
        if isinstance(node, (*_FUNCTIONS, ast.Lambda)):
            for arg in _all_args(node.args):
                inner.bind(arg.arg, arg)
            body = node.body if isinstance(node.body, list) else [node.body]
        elif isinstance(node, ast.ClassDef):
            body = node.body
        else:  # a comprehension: its first iterable is evaluated outside it
            generators = node.generators
            self._visit(generators[0].iter, outer)
            body = [generators[0].target, *generators[0].ifs, *generators[1:]]
            body += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for child in body:
            self._visit(child, inner)

    def resolve_name(self, name: str, scope: _Scope) -> Optional[ast.AST]:
        """The ``def`` that ``name`` read in ``scope`` is for sure, or None."""
        if name in self.unresolvable:
            return None
        current: Optional[_Scope] = scope
        while current is not None:
            if current.star_import:
                return None
            if name in current.bindings:
                return current.function(name)
            current = current.parent
            while current is not None and isinstance(current.node, ast.ClassDef) and current.parent is not None:
                current = current.parent  # a class body's names are not visible in the functions it holds
        return None


def bad_calls(tree: ast.Module) -> Iterator[BadCall]:
    """Every statically resolved call in ``tree`` whose arguments the callee's signature refuses."""
    model = _Model(tree)
    subclass_methods = _methods_of_subclasses(model.classes)
    for call, scope in model.calls:
        target = _callee(call, scope, model, subclass_methods)
        if target is not None and _forwards(target[0]) and call.args and not isinstance(call.args[0], ast.Starred):
            # call_compiled(run_y, x=...) calls run_y(x=...): check that call
            call = ast.Call(func=call.args[0], args=call.args[1:], keywords=call.keywords, lineno=call.lineno)
            target = _callee(call, scope, model, subclass_methods)
        if target is None:
            continue
        function, name, bound = target
        for problem in _problems(call, function.args, bound):
            yield BadCall(name, problem, call.lineno)


def _callee(call: ast.Call, scope: _Scope, model: _Model, subclass_methods):
    """(the def, its name for messages, whether the call binds a first argument) or None."""
    func = call.func
    if isinstance(func, ast.Name):
        function = model.resolve_name(func.id, scope)
        if function is None or not all(_decorator_name(d) == "function" for d in function.decorator_list):
            return None
        return function, function.name, False
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    method = _enclosing_method(func.value.id, scope, model)
    if method is None or func.attr in model.assigned_attributes:
        return None
    class_scope = model.defined_in[id(method)]
    if func.attr in subclass_methods.get(class_scope.node.name, ()):
        return None
    function = class_scope.function(func.attr)
    if function is None or not all(map(_keeps_signature, function.decorator_list)):
        return None
    static = any(_decorator_name(d) == "staticmethod" for d in function.decorator_list)
    return function, f"{class_scope.node.name}.{function.name}", not static


def _forwards(function: ast.AST) -> bool:
    """Whether ``function`` is the generated ``call_compiled(function, /, **feeds)`` (codegen.compiled), which
    calls its first argument with the keywords it is given."""
    args = function.args
    return function.name.startswith("call_compiled") and len(args.posonlyargs) == 1 and not (
        args.args or args.vararg or args.kwonlyargs) and args.kwarg is not None


def _enclosing_method(instance: str, scope: _Scope, model: _Model) -> Optional[ast.AST]:
    """The method whose first parameter ``instance`` is, if ``instance`` read in ``scope`` is that parameter."""
    if instance in model.unresolvable:
        return None
    current: Optional[_Scope] = scope
    while current is not None and instance not in current.bindings:
        current = current.parent
    if current is None or not isinstance(current.node, _FUNCTIONS) or len(current.bindings[instance]) != 1:
        return None
    method = current.node
    positional = [*method.args.posonlyargs, *method.args.args]
    in_class = isinstance(current.parent.node, ast.ClassDef)
    plain = all(_decorator_name(d) == "function" for d in method.decorator_list)  # not static/class
    if in_class and plain and positional and positional[0].arg == instance:
        return method
    return None


def _problems(call: ast.Call, args: ast.arguments, bound: bool) -> Iterator[str]:
    """What TypeError the call raises (as far as its known arguments tell), in Python's words."""
    positional = [*args.posonlyargs, *args.args][1 if bound else 0:]
    posonly = {a.arg for a in args.posonlyargs[1 if bound else 0:]}
    known_count = not any(isinstance(a, ast.Starred) for a in call.args)
    spread = any(k.arg is None for k in call.keywords)
    named = [k.arg for k in call.keywords if k.arg is not None]
    if known_count and len(call.args) > len(positional) and args.vararg is None:
        yield f"takes {len(positional)} positional arguments but {len(call.args)} were given"
    filled = {p.arg for p in positional[:len(call.args)]} if known_count else set()
    accepted = {p.arg for p in positional if p.arg not in posonly} | {a.arg for a in args.kwonlyargs}
    for name in named:
        if name in filled and name not in posonly:
            yield f"got multiple values for argument '{name}'"
        elif name not in accepted and args.kwarg is None:
            yield f"got an unexpected keyword argument '{name}'"
    if spread:
        return  # **kwargs may pass anything still missing
    given = filled | set(named)
    required = positional[:max(len(positional) - len(args.defaults), 0)] if known_count else []
    required += [a for a, default in zip(args.kwonlyargs, args.kw_defaults) if default is None]
    for param in required:
        if param.arg not in given or param.arg in posonly and param.arg not in filled:
            yield f"missing required argument '{param.arg}'"


def _methods_of_subclasses(classes: List[ast.ClassDef]) -> Dict[str, set]:
    """Base class name -> the methods the classes that name it as a base define."""
    overridden: Dict[str, set] = {}
    for node in classes:
        methods = {f.name for f in node.body if isinstance(f, _FUNCTIONS)}
        for base in node.bases:
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
            if name:
                overridden.setdefault(name, set()).update(methods)
    return overridden


def _keeps_signature(decorator: ast.expr) -> bool:
    return _decorator_name(decorator) in ("staticmethod", "classmethod", "function")


def _decorator_name(decorator: ast.expr) -> str:
    """``staticmethod`` / ``classmethod``, ``function`` for ``tf.function`` (called or not), else ""."""
    if isinstance(decorator, ast.Name) and decorator.id in ("staticmethod", "classmethod"):
        return decorator.id
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    if isinstance(decorator, ast.Attribute) and decorator.attr == "function":
        return "function"
    return ""


def _all_args(args: ast.arguments) -> List[ast.arg]:
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


def _annotations(function) -> Iterator[ast.expr]:
    for arg in _all_args(function.args):
        if arg.annotation is not None:
            yield arg.annotation
    if function.returns is not None:
        yield function.returns
