"""Which names a statement defines and which it reads.

Names are "symbol keys": a plain name (``loss``) or an attribute of ``self``
(``self.inputs``), so graph code kept on an object is tracked like module
code; in a file whose code mixes an object's graph with its own (``member_objects``,
analysis/object_members), an attribute of that object too (``model.loss``). Reads are over-approximated on purpose (an unknown name is harmless;
a missed dependency is not).
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.cst.arguments import parameter_names
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import fact, visit


_MUTATORS = {"append", "extend", "insert", "update", "add", "setdefault"}
# Methods and functions that change a list or numpy array in place (``data.sort()``, ``np.random.shuffle(data)``):
# the value graph code read is another one after them.
_IN_PLACE_METHODS = {"sort", "reverse", "fill", "resize", "clear", "remove", "pop", "popitem", "put", "itemset"}
_IN_PLACE_FUNCTIONS = {"np.random.shuffle", "numpy.random.shuffle", "random.shuffle", "np.copyto", "numpy.copyto",
                       "np.put", "numpy.put", "np.place", "numpy.place", "np.putmask", "numpy.putmask"}
# Names of objects whose attributes are keys in the file being migrated (analysis/object_members).
_MEMBER_OBJECTS: ContextVar[FrozenSet[str]] = ContextVar("member_objects", default=frozenset())


@contextmanager
def member_objects(objects: FrozenSet[str]):
    """Within it, ``obj.attribute`` of each of ``objects`` is a key, as ``self.attribute`` is."""
    token = _MEMBER_OBJECTS.set(frozenset(objects))
    try:
        yield
    finally:
        _MEMBER_OBJECTS.reset(token)


def is_member_object(name: str) -> bool:
    """Whether ``name``'s attributes are keys here (:func:`member_objects`)."""
    return name in _MEMBER_OBJECTS.get()


def symbol_key(node: cst.BaseExpression) -> Optional[str]:
    """``x`` for a Name, ``self.x`` for an attribute of self, else None."""
    kind = type(node)  # not isinstance: LibCST's node classes are ABCs, slow to check, and final
    if kind is cst.Name:
        return node.value
    if kind is cst.Attribute and type(node.value) is cst.Name and (
            node.value.value == "self" or node.value.value in _MEMBER_OBJECTS.get()):
        return f"{node.value.value}.{node.attr.value}"
    return None


class _Reads(cst.CSTVisitor):
    def __init__(self) -> None:
        self.keys: Set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        key = symbol_key(node)
        if key is not None:
            self.keys.add(key)
            return False
        visit(node.value, self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.keys.add(node.value)

    def visit_Arg(self, node: cst.Arg) -> bool:
        visit(node.value, self)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        if node.default is not None:
            visit(node.default, self)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for decorator in node.decorators:
            visit(decorator, self)
        visit(node.params, self)
        visit(node.body, self)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        visit(node.body, self)
        for base in node.bases:
            visit(base, self)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        visit(node.params, self)  # the defaults
        local = set(target_names(node.params))
        self._read_in_scope([node.body], local)
        return False

    def _comprehension(self, node) -> bool:
        """``[f(x) for x in xs if x]``: ``xs`` is read here, the rest in the comprehension's own scope."""
        outer, local, inner = comprehension_scope(node)
        visit(outer, self)
        self._read_in_scope(inner, set(local))
        return False

    def _read_in_scope(self, nodes, local: Set[str]) -> None:
        visitor = type(self)()
        for node in nodes:
            visit(node, visitor)
        self.keys.update(key for key in visitor.keys if key.split(".", 1)[0] not in local)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Import(self, node) -> bool:
        return False  # an import binds names; it reads none

    visit_ImportFrom = visit_Import


def comprehension_scope(node: cst.BaseComp) -> Tuple[cst.BaseExpression, List[str], List[cst.CSTNode]]:
    """(the first ``for``'s iterable, read outside; the names the ``for`` targets bind, the comprehension's own
    as in Python 3; the parts read inside, where those names are its own) of ``[f(x) for x in xs if x]``."""
    own: List[str] = []
    inner: List[cst.CSTNode] = [node.key, node.value] if isinstance(node, cst.DictComp) else [node.elt]
    comp = node.for_in
    while comp is not None:
        own += target_names(comp.target)
        inner += ([comp.iter] if comp is not node.for_in else []) + [condition.test for condition in comp.ifs]
        comp = comp.inner_for_in
    return node.for_in.iter, own, inner


def target_names(node: cst.CSTNode) -> List[str]:
    """The plain names a target or a parameter list binds (``x``, ``(i, (a, b))``, ``*rest``)."""
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Param):
        return [node.name.value]
    if isinstance(node, cst.Parameters):
        return parameter_names(node)
    if isinstance(node, (cst.Tuple, cst.List)):
        return [name for element in node.elements for name in target_names(element.value)]
    if isinstance(node, cst.StarredElement):
        return target_names(node.value)
    return []


def reads(node: cst.CSTNode) -> Set[str]:
    """Every symbol key read anywhere inside ``node`` (a new set: the caller may change it)."""
    return set(fact("reads", node, _reads))


def _reads(node: cst.CSTNode) -> Set[str]:
    visitor = _Reads()
    visit(node, visitor)
    return visitor.keys


class _ValueReads(_Reads):
    """Reads of a value bound before the statement: a name that is only assigned to is no read.

    ``a = tf.add(2, 5)`` does not depend on the ``a`` bound before it; ``a += 1``, ``a[0] = v`` and
    ``self.a.b = v`` do. Each binding of a name is its own value (the value model).
    """

    def _store(self, target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._store(element.value)
        elif isinstance(target, cst.StarredElement):
            self._store(target.value)
        elif symbol_key(target) is None:
            visit(target, self)  # d[k] = v, obj.attr = v: the container is read

    def visit_Assign(self, node: cst.Assign) -> bool:
        for target in node.targets:
            self._store(target.target)
        visit(node.value, self)
        return False

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        self._store(node.target)
        if node.value is not None:
            visit(node.value, self)
        return False

    def visit_For(self, node: cst.For) -> bool:
        self._store(node.target)
        visit(node.iter, self)
        # the body reads the loop's own target (`for x, y in zip(xs, ys): error += (y - m * x) ** 2`), not a value
        # bound before the loop; an `else:` after no iteration reads what the names held before it
        self._read_in_scope([node.body], set(target_names(node.target)))
        if node.orelse is not None:
            visit(node.orelse, self)
        return False

    def visit_WithItem(self, node: cst.WithItem) -> bool:
        visit(node.item, self)
        if node.asname is not None:
            self._store(node.asname.name)
        return False

    def visit_CompFor(self, node: cst.CompFor) -> bool:
        self._store(node.target)
        visit(node.iter, self)
        for condition in node.ifs:
            visit(condition, self)
        if node.inner_for_in is not None:
            visit(node.inner_for_in, self)
        return False


def value_reads(node: cst.CSTNode) -> Set[str]:
    """The symbol keys ``node`` reads for a value bound before it (a new set)."""
    return set(fact("value_reads", node, _value_reads))


def _value_reads(node: cst.CSTNode) -> Set[str]:
    visitor = _ValueReads()
    visit(node, visitor)
    return visitor.keys


def target_keys(target: cst.BaseExpression) -> List[str]:
    """Keys bound by an assignment target (tuples unpacked)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        keys: List[str] = []
        for element in target.elements:
            value = element.value
            if isinstance(value, cst.StarredElement):
                value = value.value
            keys.extend(target_keys(value))
        return keys
    if isinstance(target, cst.StarredElement):
        return target_keys(target.value)
    key = symbol_key(target)
    if key is not None:
        return [key]
    if isinstance(target, (cst.Subscript, cst.Attribute)):
        # d[k] = v / obj.attr = v mutates the container it hangs on.
        base = target.value
        while isinstance(base, (cst.Subscript, cst.Attribute)) and symbol_key(base) is None:
            base = base.value
        key = symbol_key(base)
        return [key] if key is not None else []
    return []


class _Writes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.keys: List[str] = []

    def _add(self, keys: Iterable[str]) -> None:
        for key in keys:
            if key not in self.keys:
                self.keys.append(key)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._add(target_keys(target.target))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._add(target_keys(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._add(target_keys(node.target))

    def visit_For(self, node: cst.For) -> None:
        self._add(target_keys(node.target))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._add(target_keys(node.asname.name))

    def visit_Expr(self, node: cst.Expr) -> None:
        # lst.append(t), d.update(...) as a statement: the container now holds what the call put in it.
        # (tf.add(a, b) in an expression is a TF op, not a change of `tf`.)
        func = node.value.func if isinstance(node.value, cst.Call) else None
        if isinstance(func, cst.Attribute) and func.attr.value in _MUTATORS | _IN_PLACE_METHODS:
            key = symbol_key(func.value)
            if key is not None:
                self._add([key])
        elif func is not None and node.value.args and dotted_name(func) in _IN_PLACE_FUNCTIONS:
            key = symbol_key(node.value.args[0].value)
            if key is not None:
                self._add([key])

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._add(target_keys(node.target))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self._add([node.name.value])
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._add([node.name.value])
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ListComp(self, node) -> bool:
        return False

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if alias.asname is not None:
                self._add(target_keys(alias.asname.name))
            else:
                name = dotted_name(alias.name) or ""
                self._add([name.split(".")[0]])

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            if alias.asname is not None:
                self._add(target_keys(alias.asname.name))
            else:
                self._add([dotted_name(alias.name) or ""])


def writes(node: cst.CSTNode) -> List[str]:
    """Keys a statement binds, in order (nested function bodies excluded; a new list)."""
    return list(fact("writes", node, _writes))


def binding_counts(statements) -> Dict[str, int]:
    """How many of ``statements`` bind each key (a statement binding it twice counts once; nested function
    and class bodies excluded)."""
    counts: Dict[str, int] = {}
    for statement in statements:
        for key in writes(statement):
            counts[key] = counts.get(key, 0) + 1
    return counts


def _writes(node: cst.CSTNode) -> List[str]:
    visitor = _Writes()
    visit(node, visitor)
    return visitor.keys


class _Calls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.calls: List[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)


def all_calls(node: cst.CSTNode) -> List[cst.Call]:
    """Every call inside ``node``, outermost first (a new list)."""
    return list(fact("all_calls", node, _all_calls))


def _all_calls(node: cst.CSTNode) -> List[cst.Call]:
    visitor = _Calls()
    visit(node, visitor)
    return visitor.calls


def callee_name(call: cst.Call) -> Optional[str]:
    """The name a call calls a function by: ``f`` for ``f(x)``, ``model.f`` for ``model.f(x)`` (a function of a
    module imported whole, as function summaries know it); None for anything else (``self.f(x)``, ``g()(x)``)."""
    func = call.func
    if type(func) is cst.Name:
        return func.value
    name = dotted_name(func)
    return None if name is None or name.startswith(("self.", "cls.")) else name


def bound_names(node: cst.CSTNode) -> List[str]:
    """The plain names ``node`` binds in its own scope, which Python makes locals there: assignment (also augmented
    and ``:=``), loop, ``with``/``except``/import targets, and the names of the functions and classes it defines
    (not their bodies, nor lambdas' or comprehensions' own names; not the containers it mutates: ``log.append(x)``,
    ``obj.attr = v``)."""
    bound: List[str] = []

    def store(target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            bound.append(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                store(element.value)
        elif isinstance(target, cst.StarredElement):
            store(target.value)

    class _Bindings(cst.CSTVisitor):
        def visit_FunctionDef(self, definition: cst.FunctionDef) -> bool:
            bound.append(definition.name.value)
            return False

        def visit_ClassDef(self, definition: cst.ClassDef) -> bool:
            bound.append(definition.name.value)
            return False

        def visit_Lambda(self, _) -> bool:
            return False

        def visit_CompFor(self, _) -> bool:
            return False

        def visit_AssignTarget(self, target: cst.AssignTarget) -> None:
            store(target.target)

        def visit_AnnAssign(self, assign: cst.AnnAssign) -> None:
            store(assign.target)

        def visit_AugAssign(self, assign: cst.AugAssign) -> None:
            store(assign.target)

        def visit_NamedExpr(self, expression: cst.NamedExpr) -> None:
            store(expression.target)

        def visit_For(self, loop: cst.For) -> None:
            store(loop.target)

        def visit_AsName(self, alias: cst.AsName) -> None:
            store(alias.name)

        def visit_Import(self, statement: cst.Import) -> None:
            bound.extend((dotted_name(alias.name) or "").split(".")[0] for alias in statement.names
                         if alias.asname is None)

        def visit_ImportFrom(self, statement: cst.ImportFrom) -> None:
            if not isinstance(statement.names, cst.ImportStar):
                bound.extend(alias.name.value for alias in statement.names
                             if alias.asname is None and isinstance(alias.name, cst.Name))

    visit(node, _Bindings())
    return bound
