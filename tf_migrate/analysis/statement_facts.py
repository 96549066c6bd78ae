"""Small facts about one statement, call or function that the classifier reads.

Pure functions of the CST (and the scope where a check needs kinds); the
classifier in :mod:`tf_migrate.analysis.classify` decides roles from them.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.escapes import finder
from tf_migrate.analysis.graph_names import fetched_strings
from tf_migrate.analysis.symbols import reads, symbol_key, target_keys
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit


class NestedFunctions(cst.CSTVisitor):
    """Calls that sit inside a lambda or a nested def (a tape cannot see them)."""

    def __init__(self) -> None:
        self.depth = 0
        self.calls: List[cst.Call] = []

    def visit_Lambda(self, node) -> None:
        self.depth += 1

    def leave_Lambda(self, node) -> None:
        self.depth -= 1

    visit_FunctionDef = visit_Lambda
    leave_FunctionDef = leave_Lambda

    def visit_Call(self, node: cst.Call) -> None:
        if self.depth:
            self.calls.append(node)


def single(node: cst.BaseStatement):
    """(targets, value) of a one-statement line, else (None, None)."""
    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
        return None, None
    small = node.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        return small.targets[0].target, small.value
    if isinstance(small, cst.AnnAssign) and small.value is not None:
        return small.target, small.value
    if isinstance(small, cst.Expr):
        return None, small.value
    return None, None


def call_statement(statement: cst.BaseStatement) -> Optional[Tuple[Optional[cst.AssignTarget], cst.Call]]:
    """(target, call) of ``f(...)`` (target None) or ``t = f(...)`` as the whole statement (None: neither)."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return None
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Call):
        return small.targets[0], small.value
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        return None, small.value
    return None


def returns_tensors(func: cst.FunctionDef, names: TFNames, structures: bool = False) -> bool:
    """Every ``return`` gives a TF op's result (directly, or a local last bound to one); with ``structures``, a dict,
    list or tuple literal of such results instead (nested too)."""
    bound = {}
    returns: List[cst.BaseExpression] = []

    class _Walk(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return node is func

        def visit_Assign(self, node: cst.Assign) -> None:
            if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                bound[node.targets[0].target.value] = node.value

        def visit_Return(self, node: cst.Return) -> None:
            returns.append(node.value)

    following: Set[str] = set()  # the names being followed (a binding that reads its own name stops there)

    def tensor(expr) -> bool:
        if isinstance(expr, cst.Name) and expr.value in bound and not structures:
            return tensor(bound.pop(expr.value))  # (once: a second return of the name is not followed)
        if isinstance(expr, cst.Name) and expr.value in bound and expr.value not in following:
            following.add(expr.value)
            try:
                return tensor(bound[expr.value])
            finally:
                following.discard(expr.value)
        if structures and isinstance(expr, (cst.List, cst.Tuple)):
            return bool(expr.elements) and all(not isinstance(e, cst.StarredElement) and tensor(e.value)
                                               for e in expr.elements)
        if structures and isinstance(expr, cst.Dict):
            return bool(expr.elements) and all(isinstance(e, cst.DictElement) and tensor(e.value)
                                               for e in expr.elements)
        if isinstance(expr, cst.BinaryOperation):
            return tensor(expr.left) or tensor(expr.right)
        qualname = names.call_name(expr) if isinstance(expr, cst.Call) else None
        return bool(qualname) and qualname.startswith("tf.") and not qualname.startswith("tf.layers.")

    visit(func, _Walk())
    if structures and not any(isinstance(r, (cst.List, cst.Tuple, cst.Dict)) or isinstance(r, cst.Name)
                              and isinstance(bound.get(r.value), (cst.List, cst.Tuple, cst.Dict)) for r in returns):
        return False  # (a tensor alone: returns_tensors without structures says so)
    return bool(returns) and all(r is not None and tensor(r) for r in returns)


def only_initializer_assignments(node: cst.If, names: TFNames) -> bool:
    """Every statement in the if/else binds a name to an initializer op."""
    found = []

    class _Walk(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, line) -> bool:
            for small in line.body:
                ok = isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) and \
                    names.call_name(small.value) in api.INITIALIZER_OPS
                found.append(ok or isinstance(small, cst.Pass))
            return False

    visit(node.body, _Walk())
    if node.orelse is not None:
        visit(node.orelse, _Walk())
    return bool(found) and all(found)


def targets_single(st) -> bool:
    return len(st.defines) == 1


def calls_method_on(value, keys) -> bool:
    """``t.assign(...)``-style calls on graph values: building an op, not Python."""
    return (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
            and symbol_key(value.func.value) in keys)


def variable_literal(value, scope) -> bool:
    """``[W1, b1, self.W2]``: a list or tuple literal of names of single variables (as the scope knows them)."""
    if not isinstance(value, (cst.List, cst.Tuple)) or not value.elements:
        return False
    keys = [symbol_key(e.value) if isinstance(e, cst.Element) else None for e in value.elements]
    return all(key is not None and scope.kind(key) == pm.VARIABLE for key in keys)


def mutates_variable_list(value, scope, index: int) -> bool:
    """``encoder.reverse()``: a list of variables changed in place by Python, at build time (not graph code),
    with arguments that are no per-run values."""
    return (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
            and value.func.attr.value in api.LIST_MUTATIONS and symbol_key(value.func.value) is not None
            and getattr(scope.symbol_at(symbol_key(value.func.value), index), "kind", None) == pm.VARIABLES
            and not any(scope.kind(k) in pm.DEFERRED_KINDS for a in value.args for k in reads(a.value)))


def check_feed_objects(site, scope, block) -> None:
    """A feed built by code (not a dict literal) that handles placeholder objects cannot survive their removal."""
    if site.feed is None or isinstance(site.feed, cst.Dict) or (
            isinstance(site.feed, cst.Name) and site.feed.value == "None"):
        return
    keys = finder(site.feed, [], scope).keys
    if any(scope.kind(k) == pm.PLACEHOLDER for k in keys):
        block(site.call, "a feed dict built from placeholder objects by code: name the feeds in a dict literal")


def check_by_name(site, block) -> None:
    names = fetched_strings(site.fetch) + [
        e.key for e in (site.feed.elements if isinstance(site.feed, cst.Dict) else [])
        if isinstance(e, cst.DictElement) and isinstance(e.key, cst.BaseString)]
    if names or site.extra_args:
        block(site.call, "sess.run by tensor name, or with options/run_metadata: no eager equivalent")


def reads_names(node: cst.CSTNode) -> bool:
    """The statement reads some object's ``.name`` (``v.name.startswith("generator/")``)."""
    found = []

    class _Walk(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            if attribute.attr.value == "name":
                found.append(attribute)

    visit(node, _Walk())
    return bool(found)


def string_literals(node: cst.CSTNode) -> List[str]:
    """The values of the plain string literals inside ``node``."""
    found: List[str] = []

    class _Walk(cst.CSTVisitor):
        def visit_SimpleString(self, string: cst.SimpleString) -> None:
            found.append(str(string.evaluated_value))

    visit(node, _Walk())
    return found


def element_kinds(node: cst.CSTNode, scope, graph_kinds) -> Dict[str, str]:
    """Kinds of the names bound to the elements of what a loop or comprehension iterates over.

    ``for out in outs:`` and ``[each.eval() for each in out]`` over an eager value (tensors computed once,
    from constants), or ``for t in [a, b, c]:`` over a list of them: each element is an eager tensor ("eager"). ``for p, y in zip(pred, y_data):`` over
    values that are no graph values (``graph_kinds``): its targets hold Python values ("python"), whatever
    the names held before (``y`` was a placeholder)."""
    found: Dict[str, str] = {}

    def add(target, iterable) -> None:
        if isinstance(target, cst.Name) and isinstance(iterable, cst.Name) and scope.kind(iterable.value) == "eager":
            found[target.value] = "eager"
        elif isinstance(target, cst.Name) and isinstance(iterable, (cst.List, cst.Tuple)) and iterable.elements and all(
                isinstance(e, cst.Element) and isinstance(e.value, cst.Name) and scope.kind(e.value.value) == "eager"
                for e in iterable.elements):
            found[target.value] = "eager"  # for t in [a, b, c]: each an eager tensor

    if isinstance(node, cst.For):
        add(node.target, node.iter)
        if not any(scope.kind(key) in graph_kinds for key in reads(node.iter)):
            for key in target_keys(node.target):
                found.setdefault(key, "python")
    visit(node, _ComprehensionFors(add))
    return found


class _ComprehensionFors(cst.CSTVisitor):
    """``add(target, iterable)`` for each comprehension's ``for``, not in the functions, classes and lambdas it
    defines (a class of the module, not of the function: made once, not at each call)."""

    def __init__(self, add) -> None:
        self.add = add

    def visit_CompFor(self, comp: cst.CompFor) -> None:
        self.add(comp.target, comp.iter)

    def visit_FunctionDef(self, _) -> bool:
        return False

    visit_ClassDef = visit_Lambda = visit_FunctionDef


def only_initializers(fetch: cst.BaseExpression, kind_of) -> bool:
    """A run of initializers only: ``sess.run(init)``, ``sess.run([w.initializer, b.initializer])``."""
    if isinstance(fetch, (cst.List, cst.Tuple)):
        return bool(fetch.elements) and all(only_initializers(e.value, kind_of) for e in fetch.elements)
    if isinstance(fetch, cst.Attribute) and fetch.attr.value == "initializer":
        return True
    return kind_of(fetch) == "init"


def initializes(call: cst.Call, names: TFNames, scope: "pm.Scope") -> bool:
    """An initializer op (``tf.global_variables_initializer()``), or ``tf.group`` of such ops or of names bound to
    them (``tf.group(tf.global_variables_initializer(), tf.local_variables_initializer())``)."""
    qualname = names.call_name(call)
    return qualname in api.INITIALIZER_OPS or (qualname == "tf.group" and bool(call.args) and all(
        not a.star and a.keyword is None and (
            (isinstance(a.value, cst.Call) and names.call_name(a.value) in api.INITIALIZER_OPS)
            or scope.kind(symbol_key(a.value) or "") == pm.INIT) for a in call.args))


def header_end(scope: "pm.Scope") -> int:
    """The index of the last statement of the scope's header: the imports at its top and a docstring before
    them (-1: none)."""
    index = -1
    for st in scope.statements:
        if isinstance(st.node, cst.SimpleStatementLine) and all(
                isinstance(s, (cst.Import, cst.ImportFrom)) for s in st.node.body):
            index = st.index
        elif isinstance(st.node, cst.SimpleStatementLine) and st.index == 0 and isinstance(
                st.node.body[0], cst.Expr) and isinstance(st.node.body[0].value, cst.SimpleString):
            index = st.index
        else:
            break
    return index


def draws_from_distribution(call: cst.Call, scope: "pm.Scope", names: TFNames) -> bool:
    """``dist.sample()`` where ``dist`` was built by a ``tf.distributions`` class: a random draw at each run (as
    ``tf.random_normal`` is), whatever the distribution's parameters."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in api.DISTRIBUTION_DRAWS):
        return False
    symbol = scope.symbols.get(symbol_key(func.value) or "")
    if symbol is None or not 0 <= symbol.index < len(scope.statements):
        return False
    _, value = single(scope.statements[symbol.index].node)
    return isinstance(value, cst.Call) and (names.call_name(value) or "").startswith(api.DISTRIBUTIONS)
