"""Where a module's summary program lives, when not at module level: the summaries rule surveys it as module code.

* A program function: ``def train():`` holding every summary, merge and writer of the module in its own body,
  called once (:func:`program_function`).
* A class program: one class whose ``__init__`` registers every summary of the module and merges them
  (``self.merged = tf.summary.merge_all()``), made once, at module level, as ``model = Model()``
  (:func:`class_program`). TF1 registered those summaries when the object was made; the merged summary becomes
  the dict of the summarized tensors ``__init__`` binds, which the session rule fetches as any other structure of
  the object (``sess.run([model.merged, model.train], feed)``); the writes stay where they were, in the class's
  methods or outside it. A second object of the class registered the summaries again, under other tags, and its
  ``merge_all()`` merged both objects' summaries: a class made twice, made in a loop or a function, or subclassed,
  is no class program.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import libcst as cst

from tf_migrate.cst.enclosing import EnclosingDefs
from tf_migrate.cst.names import target_names
from tf_migrate.rules._summary_helpers import KINDS, scope_name
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

_PROGRAM_CALLS = {"tf.summary.merge_all", "tf.summary.merge", "tf.summary.FileWriter"}
_MERGES = {"tf.summary.merge_all", "tf.summary.merge"}


def program_function(module: cst.Module, names: TFNames) -> Optional[cst.FunctionDef]:
    """The module-level function that holds every summary of the module, its merges and writers in its own body
    (not in functions nested in it), called once in the module (``def train(): ...`` then ``train()``): the
    program, written in a function instead of at module level. None when there is no one such function."""
    homes = set()

    class _Homes(EnclosingDefs):
        def visit_Call(self, node: cst.Call) -> None:
            qualname = names.call_name(node)
            if qualname in KINDS or qualname in _PROGRAM_CALLS:
                homes.add(self.stack[0] if len(self.stack) == 1 else None if not self.stack else id(node))

    visit(module, _Homes())
    if len(homes) != 1:
        return None
    home = homes.pop()
    if not isinstance(home, cst.FunctionDef) or not any(node is home for node in module.body):
        return None
    mentions = [n for n in _names_in(module) if n == home.name.value]
    return home if len(mentions) == 1 else None


@dataclass
class ClassProgram:
    """A class whose ``__init__`` holds the module's summaries, and the one object of it the module makes."""

    cls: cst.ClassDef
    init: cst.FunctionDef
    instance: str  # the name the module binds the object to (``model`` of ``model = Model()``)
    bindings: int = 1  # how often the module binds that name, in any scope (more: the summaries rule refuses)


def class_program(module: cst.Module, names: TFNames) -> Optional[ClassProgram]:
    """The module's class program (see the module doc), or None."""
    homes = set()

    class _Homes(EnclosingDefs):
        def visit_Call(self, node: cst.Call) -> None:
            qualname = names.call_name(node)
            if qualname in KINDS or qualname in _MERGES:
                at_init = len(self.stack) == 2 and isinstance(self.stack[0], cst.ClassDef) and isinstance(
                    self.stack[1], cst.FunctionDef) and self.stack[1].name.value == "__init__"
                homes.add((self.stack[0], self.stack[1]) if at_init else id(node))

    visit(module, _Homes())
    if len(homes) != 1:
        return None
    home = homes.pop()
    if not isinstance(home, tuple) or not any(node is home[0] for node in module.body):
        return None
    cls, init = home
    if sum(1 for n in _names_in(module) if n == cls.name.value) != 1:
        return None  # made twice, subclassed, or handed around
    mentions = _names_in(module)
    once = {s.name.value for s in module.body if isinstance(s, cst.FunctionDef) and mentions.count(s.name.value) == 1
            and _top_statement(module.body, lambda line: _calls(line, s.name.value), names)}
    instance = _made_once(module.body, cls.name.value, names, once)
    return ClassProgram(cls, init, instance, _bindings(module, instance)) if instance is not None else None


def _bindings(module: cst.Module, name: str) -> int:
    """How often the module binds ``name``, in any scope (assignments, loops, parameters, ``as`` targets)."""
    count = [0]

    class _Bindings(cst.CSTVisitor):
        def _target(self, target) -> None:
            count[0] += target_names(target).count(name)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self._target(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._target(node.target)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._target(node.target)

        def visit_For(self, node: cst.For) -> None:
            self._target(node.target)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            self._target(node.target)

        def visit_AsName(self, node: cst.AsName) -> None:
            self._target(node.name)

        def visit_Param(self, node: cst.Param) -> None:
            count[0] += node.name.value == name

    visit(module, _Bindings())
    return count[0]


def _calls(line: cst.SimpleStatementLine, function: str) -> bool:
    """``function()`` as a line of its own (``main()``)."""
    small = line.body[0] if len(line.body) == 1 else None
    return isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and isinstance(
        small.value.func, cst.Name) and small.value.func.value == function


def _top_statement(body, test, names: TFNames) -> bool:
    """Whether a line of ``body``, or of the ifs, trys and non-scope withs in it, passes ``test``."""
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            if test(statement):
                return True
        elif any(_top_statement(block, test, names) for block in _blocks(statement, names)):
            return True
    return False


def _blocks(statement, names: TFNames) -> List[list]:
    """The bodies of an if (and its else), a try, or a with that opens no name scope: run once where it stands."""
    if isinstance(statement, cst.If):
        return [statement.body.body] + ([statement.orelse.body.body] if isinstance(statement.orelse, cst.Else)
                                        else [])
    if isinstance(statement, cst.Try):
        return [statement.body.body]
    if isinstance(statement, cst.With) and all(scope_name(item.item, names) is None for item in statement.items):
        return [statement.body.body]
    return []


def _made_once(body, class_name: str, names: TFNames, once=frozenset()) -> Optional[str]:
    """The name of ``x = ClassName(...)``, a statement of ``body`` or of the ifs, trys and non-scope withs in it,
    or of the module functions called once (``once``: ``def main(): ...`` then ``main()``) (made once per program
    run, under no name scope), or None."""
    for statement in body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value in once:
            found = _made_once(statement.body.body, class_name, names)
            if found is not None:
                return found
            continue
        if isinstance(statement, cst.SimpleStatementLine):
            small = statement.body[0] if len(statement.body) == 1 else None
            if (isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name) and isinstance(small.value, cst.Call)
                    and isinstance(small.value.func, cst.Name) and small.value.func.value == class_name):
                return small.targets[0].target.value
            continue
        for block in _blocks(statement, names):
            found = _made_once(block, class_name, names)
            if found is not None:
                return found
    return None


def _names_in(module: cst.Module) -> List[str]:
    found: List[str] = []

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.append(node.value)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            visit(node.body, self)  # not its own name
            for decorator in node.decorators:
                visit(decorator, self)
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            visit(node.body, self)  # not its own name
            for base in node.bases:
                visit(base, self)
            return False

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            visit(node.value, self)  # `x.train` is not the function `train`
            return False

    visit(module, _Names())
    return found
