"""Variables made where the program model cannot say whether, or under which name, they exist.

    if use_bias:                                     d = {}
        b = tf.Variable(tf.zeros([1]))               d['w'] = tf.Variable(tf.ones([2, 1]))
    ...
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

The eager rewrite names each variable the model knows in the run functions and in the lists an optimizer trains
and a Saver keeps. TF1 made ``b`` only where the branch ran, so where it did not the rewrite would name one that
does not exist (a NameError, or an UnboundLocalError in a class's ``__init__``); a variable stored into ``d['w']``
(or an attribute of a plain object, ``h.w``) is known to the model by ``d`` only, and the list would hold the
dict. Such a scope stays compat, with the reason at the statement, where a variable is made:

- in some branches of an ``if`` only (every branch, an ``else`` included, making variables under the same names
  is fine: each name is bound whichever branch runs; so is a main guard whose calls bind no name, ``if __name__ ==
  "__main__": main()``, the script's entry);
- in one arm of a conditional expression (``tf.Variable(...) if flag else None``);
- in a ``try`` statement (which exist depends on the exceptions raised while building);
- in a ``lambda`` (made at each call, where the model sees no variable);
- stored into a subscript or an attribute of anything but ``self``, alone or in a dict, list or tuple literal
  (``weights['recog'] = {'h1': tf.Variable(...)}``: the model knew ``weights`` as a dict of variables, and the
  list held the inner dicts; the output crashed), but for a dict that holds dicts of variables only, filled item by
  item from an empty one (``analysis/covered_variables.filled_dict_item``: listed dict by dict), or a dict filled
  item by item with variables under distinct string keys (``filled_variable_item``: listed by its values).

Optimizers made in a compound statement block too (:func:`check_optimizer_places`), but for one chosen by a flag
(``analysis/optimizer_choices``).
"""
from __future__ import annotations

from typing import List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.covered_variables import filled_dict_item, filled_variable_item
from tf_migrate.analysis.main_guard import is_main_guard
from tf_migrate.analysis.optimizer_choices import optimizer_choice
from tf_migrate.analysis.symbols import all_calls, callee_name, writes
from tf_migrate.cst.text import code
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import contains, visit


def check_variable_places(c) -> None:
    """Block each statement of the classifier's scope that makes variables in one of the places of the module
    docstring."""
    for st in c.scope.statements:
        if not _makes_variables(st.node, c):
            continue  # (most statements: one walk of their calls)
        target = _stored_into(st.node, c)
        if target is not None and not filled_dict_item(st.node, c.scope, st.index, c.names) and \
                not filled_variable_item(st.node, c.scope, st.index, c.names):
            c.block(st.node, f"a variable stored into `{target}`: the analysis knows variables bound to names and "
                             "`self.` attributes only")
            continue
        lam = next((e for e in _nested(st.node, cst.Lambda) if _makes_variables(e.body, c)), None)
        if lam is not None:
            c.block(lam, "a lambda that makes variables: they are made at each call, where the analysis sees none")
            continue
        if isinstance(st.node, cst.Try) and _makes_variables(st.node, c):
            c.block(st.node, "variables made in a `try` block: which of them exist depends on the exceptions raised "
                             "while building, and the eager rewrite would name them all")
            continue
        arm = next((e for e in _nested(st.node, cst.IfExp) if _makes_variables(e, c)), None)
        if arm is not None:
            c.block(arm, "a variable made in one arm of a conditional expression (`... if flag else None`): the eager "
                         "rewrite would name it where it was never made")
            continue
        if not isinstance(st.node, cst.If):
            continue
        branches = _branches(st.node)
        made = [_made_names(branch, c) for branch in branches]
        if not any(made):
            continue
        complete = isinstance(_last_else(st.node), cst.Else)
        if complete and all(names == made[0] for names in made):
            continue
        if is_main_guard(st.node) and made[0] == {_UNNAMED}:
            continue  # `if __name__ == "__main__": main()`: the script's entry, naming none of the variables here
        missing = sorted(set().union(*made) - (set.intersection(*made) if complete else set()))
        c.block(st.node, f"`{missing[0]}` is a variable made in only some branches of an `if`: the eager rewrite "
                         "would name it in run functions and variable lists where it was never made")


def check_optimizer_places(c) -> None:
    """Block each compound statement of the classifier's scope that makes an optimizer (``if use_adam: opt =
    tf.train.AdamOptimizer(lr) else: opt = tf.train.GradientDescentOptimizer(lr)``): the model knows optimizers
    bound by simple statements, so a step of one made in a branch or a loop was left as ``opt.minimize(loss)``
    inside the generated function, which eager optimizers cannot run (a crash after migration)."""
    for st in c.scope.statements:
        if isinstance(st.node, (cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef)) or optimizer_choice(
                st.node, c.names):
            continue  # (one optimizer chosen by a flag: analysis/optimizer_choices)
        made = next((call for call in all_calls(st.node)
                     if api.is_optimizer_constructor(c.names.call_name(call) or "")), None)
        if made is not None:
            c.block(made, f"an optimizer made inside a compound statement (`{type(st.node).__name__.lower()}`): the "
                          "analysis knows optimizers bound by plain statements only, so its step would not become "
                          "a tape step")


_UNNAMED = "(a variable bound to no name)"


def _branches(node: cst.If) -> List[cst.BaseSuite]:
    found: List[cst.BaseSuite] = [node.body]
    orelse = node.orelse
    while isinstance(orelse, cst.If):
        found.append(orelse.body)
        orelse = orelse.orelse
    if isinstance(orelse, cst.Else):
        found.append(orelse.body)
    return found


def _last_else(node: cst.If) -> Optional[cst.CSTNode]:
    orelse = node.orelse
    while isinstance(orelse, cst.If):
        orelse = orelse.orelse
    return orelse


def _made_names(branch: cst.BaseSuite, c) -> Set[str]:
    """The names the branch's statements that make variables bind (at any depth)."""
    found: Set[str] = set()
    statements = branch.body if isinstance(branch, cst.IndentedBlock) else [branch]
    for statement in statements:
        if _makes_variables(statement, c):
            found.update(writes(statement) or [_UNNAMED])
    return found


def _makes_variables(node: cst.CSTNode, c) -> bool:
    """Whether ``node`` calls a variable constructor, a ``tf.layers`` function, or a function or class of the
    program that makes variables."""
    makers = c.scope.variable_functions | c.scope.variable_classes
    return any(c.names.call_name(call) in api.VARIABLE_CONSTRUCTORS
               or (c.names.call_name(call) or "").startswith("tf.layers.")
               or (callee_name(call) in makers) for call in all_calls(node))


def _nested(node: cst.CSTNode, kind) -> List[cst.CSTNode]:
    """The nodes of type ``kind`` in ``node``, not in the bodies of functions or classes it defines."""
    if not contains(node, kind):  # most statements: no walk
        return []
    finder = _NestedFinder(kind)
    visit(node, finder)
    return finder.found


class _NestedFinder(cst.CSTVisitor):
    def __init__(self, kind) -> None:
        self.kind = kind
        self.found: List[cst.CSTNode] = []

    def on_visit(self, child: cst.CSTNode) -> bool:
        if isinstance(child, self.kind):
            self.found.append(child)
        return not isinstance(child, (cst.FunctionDef, cst.ClassDef))


def _holds_variables(value: Optional[cst.BaseExpression], c) -> bool:
    """A variable constructor's call, or a dict, list or tuple literal that makes variables (``{'h1':
    tf.Variable(...)}``: stored into ``weights['recog']``, the model would list the dicts, not their variables)."""
    if isinstance(value, cst.Call):
        return c.names.call_name(value) in api.VARIABLE_CONSTRUCTORS
    return isinstance(value, (cst.Dict, cst.List, cst.Tuple)) and any(
        c.names.call_name(call) in api.VARIABLE_CONSTRUCTORS for call in all_calls(value))


def _stored_into(node: cst.CSTNode, c) -> Optional[str]:
    """The target a variable constructor's result (or a literal holding such results) is assigned to, when it is a
    subscript or an attribute of anything but ``self`` (None: a name, ``self.x``, or no such assignment)."""
    if not isinstance(node, cst.SimpleStatementLine):
        return None
    for small in node.body:
        if not (isinstance(small, (cst.Assign, cst.AnnAssign)) and _holds_variables(small.value, c)):
            continue
        targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
        for target in targets:
            if isinstance(target, cst.Subscript) or (isinstance(target, cst.Attribute) and dotted_name(target) != (
                    f"self.{target.attr.value}")):
                return code(target)
    return None
