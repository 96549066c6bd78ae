"""When names are bound and read, beyond one statement: what a function reads from around it when it is called,
what it binds through ``global``, and what the module being migrated binds more than once.

TF1 graph code read a Python value once, when it built the op; a generated run function reads it when it is
traced, a plain one at each call. These facts tell the slicing (``analysis/slicing``) and the class analysis
(``analysis/class_scope``) whether the value a run would read is still the one TF1 built with.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Dict, FrozenSet, List, Set

import libcst as cst

from tf_migrate.analysis.symbols import bound_names, reads, target_keys, writes
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.traversal import fact, visit


# What the module being migrated binds: attribute names it binds on objects other than ``self``
# (``model.lr = 0.1``), and module names it binds more than once (again, in a loop, in place, or through
# ``global`` in a function).
_OUTSIDE_STORES: ContextVar[FrozenSet[str]] = ContextVar("outside_stores", default=frozenset())
_REBOUND_GLOBALS: ContextVar[FrozenSet[str]] = ContextVar("rebound_globals", default=frozenset())


@contextmanager
def module_bindings(module: cst.Module):
    """Within it, :func:`stored_outside` and :func:`rebound_in_module` answer for ``module``."""
    stores = _OUTSIDE_STORES.set(frozenset(fact("outside_stores", module, _outside_stores)))
    rebound = _REBOUND_GLOBALS.set(frozenset(fact("rebound_globals", module, _rebound_globals)))
    try:
        yield
    finally:
        _OUTSIDE_STORES.reset(stores)
        _REBOUND_GLOBALS.reset(rebound)


def stored_outside(attribute: str) -> bool:
    """Whether the module binds ``attribute`` on some object other than ``self`` (``obj.attribute = v``)."""
    return attribute in _OUTSIDE_STORES.get()


def rebound_in_module(name: str) -> bool:
    """Whether the module binds its name ``name`` more than once (see :func:`module_bindings`)."""
    return name in _REBOUND_GLOBALS.get()


def _rebound_globals(module: cst.Module) -> Set[str]:
    counts: Dict[str, int] = {}
    found: Set[str] = set()
    for statement in module.body:
        keys = writes(statement)
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
        if isinstance(statement, (cst.For, cst.While)) or not isinstance(statement, cst.SimpleStatementLine) \
                and holds_loop(statement):
            found.update(keys)  # bound at each pass of a loop
        if isinstance(statement, cst.FunctionDef):
            found |= global_writes(statement)
    return found | {key for key, count in counts.items() if count > 1}


def holds_loop(node: cst.CSTNode) -> bool:
    """Whether ``node`` holds a ``for`` or ``while`` loop (not in a function or class it defines)."""
    loops = []

    class _Loops(cst.CSTVisitor):
        def visit_For(self, loop: cst.For) -> bool:
            loops.append(loop)
            return False

        visit_While = visit_For

        def visit_FunctionDef(self, function: cst.FunctionDef) -> bool:
            return False

        visit_ClassDef = visit_FunctionDef

    visit(node, _Loops())
    return bool(loops)


def _outside_stores(module: cst.Module) -> Set[str]:
    found: Set[str] = set()

    def store(target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                store(element.value)
        elif isinstance(target, cst.Attribute) and not (isinstance(target.value, cst.Name)
                                                        and target.value.value == "self"):
            found.add(target.attr.value)

    class _Stores(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            store(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            store(node.target)

    visit(module, _Stores())
    return found


def free_reads(func) -> Set[str]:
    """The names ``func`` (a ``def`` or a lambda) reads from the scopes around it when it is called: what its
    body reads that is no parameter, no local of it (bound in its body, a comprehension's or a lambda's own
    name), and names it declares ``global`` or ``nonlocal`` (a new set). Nested functions' locals count as its
    own (over-reads)."""
    return set(fact("free_reads", func, _free_reads))


def _free_reads(func) -> Set[str]:
    local: Set[str] = set()
    declared: Set[str] = set()

    class _Locals(cst.CSTVisitor):
        def visit_Param(self, node: cst.Param) -> None:
            local.add(node.name.value)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            local.update(target_keys(node.target))

        def visit_Global(self, node: cst.Global) -> None:
            declared.update(item.name.value for item in node.names)

        visit_Nonlocal = visit_Global

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            local.update(writes(node.body))

        def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
            if node.name is not None:
                local.update(target_keys(node.name.name))

    visit(func, _Locals())  # (its own FunctionDef too: the body's bindings are locals)
    return reads(func.body) - (local - declared)


def global_writes(func: cst.FunctionDef) -> Set[str]:
    """The names ``func`` declares ``global`` and binds: it changes them in the module when called."""
    declared: Set[str] = set()

    class _Globals(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            declared.update(item.name.value for item in node.names)

    visit(func.body, _Globals())
    return declared & set(writes(func.body)) if declared else set()


def changed_outside(func: cst.FunctionDef) -> Set[str]:
    """The names from around ``func`` whose objects it changes in place when called (``cfg["k"] = 7``,
    ``stats.count += 1``, ``history.append(x)``): no parameter of it, no name it binds itself."""
    own = set(bound_names(func.body)) | set(parameter_names(func.params))
    return {key.split(".")[0] for key in writes(func.body)} - own


def self_changing_methods(cls: cst.ClassDef) -> Set[str]:
    """The methods of ``cls`` that change the object they are called on: bind or change an attribute of ``self``,
    or call such a method of ``self``."""
    methods = {node.name.value: node for node in cls.body.body if isinstance(node, cst.FunctionDef)}
    changing = {name for name, method in methods.items() if any(key.startswith("self.") or key == "self"
                                                                for key in writes(method.body))}
    grew = True
    while grew:
        grew = False
        for name, method in methods.items():
            if name not in changing and any(f"self.{other}" in reads(method.body) for other in changing):
                changing.add(name)
                grew = True
    return changing


def changes_parameters(func: cst.FunctionDef) -> bool:
    """Whether ``func`` changes an object given to it in place (``config.scale = 7``, ``items.append(x)``)."""
    return bool(changed_parameters(func))


def changed_parameters(func: cst.FunctionDef) -> List[str]:
    """The parameters of ``func`` (not ``self``/``cls``) whose objects it changes in place, in order."""
    changed = {key.split(".")[0] for key in writes(func.body)} - set(bound_names(func.body))
    return [name for name in parameter_names(func.params) if name in changed and name not in ("self", "cls")]
