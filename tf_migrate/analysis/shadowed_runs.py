"""Runs inside a function or a method, planned with the module's graph, that read the function's own names.

    model = Model(2.0)                       # the module's object
    class ModelTest(tf.test.TestCase):
        def testLoss(self):
            model = Model(3.0)               # another object, local to the method
            with self.test_session() as sess:
                loss = sess.run(model.loss, {model.x: [1.0, 2.0]})

A run in a function or a method of a class whose graph the class analysis does not own is planned with the
module's graph: its run function stands at module level and reads module names. A fetch or feed key that
reads a name the function binds itself (an assignment, a loop or ``with`` target, a method's parameter) means
another value there: the generated function would read the module's ``model`` (dennybritz's estimator tests:
the self-check caught it where the module had none; a module-level object of the same class would have run
silently). Such runs stay compat, with the reason at the run. Feed *values* may read the function's names:
they are passed to the run function as arguments; so may a fetch of a whole local that holds an eager value
(``accuracy = tf.reduce_mean(...)`` of a run's result: analysis/function_locals), which the run function is
given. A method's ``self`` is left to the class analysis.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.symbols import bound_names
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.traversal import visit


def shadowed_run_blockers(node: cst.CSTNode, sites: Sequence[RunSite],
                          eager_locals: Callable[[cst.FunctionDef], Set[str]]) -> List[Tuple[cst.CSTNode, str]]:
    """A blocker for each run in ``node`` (a module-level def or class) whose fetch or feed keys read a name
    bound by a function around the run. ``eager_locals(function)``: its locals that hold eager values
    (analysis/function_locals), which a run may fetch whole: the run function is given them."""
    if not sites:
        return []
    finder = _EnclosingFunctions({id(site.call) for site in sites})
    visit(node, finder)
    blockers: List[Tuple[cst.CSTNode, str]] = []
    for site in sites:
        functions = finder.around.get(id(site.call), [])
        local = _local_names(functions, method=isinstance(node, cst.ClassDef))
        eager = eager_locals(functions[-1]) if functions else set()
        uses = _key_uses(site)
        roots = sorted(name for name, whole in uses.items() if name in local and not (whole and name in eager))
        if roots:
            blockers.append((site.call, f"the run reads `{roots[0]}`, a name `{local[roots[0]]}` binds itself: "
                                        "its run function would read the module's names, another value"))
    return blockers


def _key_uses(site: RunSite) -> Dict[str, bool]:
    """The names the fetch and the feed's keys read (its values become arguments of the run function): name ->
    whether only whole (``accuracy``), not through an attribute (``model.loss``)."""
    uses: Dict[str, bool] = {}
    parts: List[cst.CSTNode] = [site.fetch]
    if isinstance(site.feed, cst.Dict):
        parts += [e.key if isinstance(e, cst.DictElement) else e.value for e in site.feed.elements]

    class _Uses(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            if isinstance(attribute.value, cst.Name):
                uses[attribute.value.value] = False
                return False
            return True

        def visit_Name(self, name: cst.Name) -> None:
            uses.setdefault(name.value, True)

    for part in parts:
        visit(part, _Uses())
    return uses


def _local_names(functions: List[cst.FunctionDef], method: bool) -> Dict[str, str]:
    """Name -> the function binding it, over the functions around a run (outermost first). Not counted: a
    method's first parameter (``self``: the class analysis reads it), and the parameters of a module-level
    function (objects every caller passes are followed there: instance_runs.mark_function_runs, and
    check_parameter_objects blocks the others)."""
    local: Dict[str, str] = {}
    for depth, function in enumerate(functions):
        names = parameter_names(function.params)
        if depth == 0:
            names = names[1:] if method and function.params.params else []
        declared = _declared_outside(function)
        for name in [*names, *bound_names(function.body)]:
            if name not in declared:
                local.setdefault(name, function.name.value)
    return local


def _declared_outside(function: cst.FunctionDef) -> Set[str]:
    """Names a ``global`` or ``nonlocal`` statement in the function gives to an outer scope."""
    declared: Set[str] = set()

    class _Declarations(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return node is function

        def visit_Global(self, node: cst.Global) -> None:
            declared.update(item.name.value for item in node.names)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            declared.update(item.name.value for item in node.names)

    visit(function, _Declarations())
    return declared


class _EnclosingFunctions(cst.CSTVisitor):
    """For each run call: the functions around it, outermost first."""

    def __init__(self, calls: Set[int]) -> None:
        self.calls = calls
        self.stack: List[cst.FunctionDef] = []
        self.around: Dict[int, List[cst.FunctionDef]] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self.calls:
            self.around[id(node)] = list(self.stack)
