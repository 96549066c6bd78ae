"""Variables made in some branches of an ``if`` only.

    if use_bias:
        b = tf.Variable(tf.zeros([1]))
    ...
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

TF1 made ``b`` only where the branch ran, and its variable lists (what ``minimize`` trains, a Saver keeps) held it
only then. The eager rewrite names each variable the program model knows in the run functions and in those lists,
so where the branch did not run it would name one that does not exist (a NameError, or an UnboundLocalError in a
class's ``__init__``). Such a scope stays compat, with the reason at the branch, unless every branch of the ``if``
(an ``else`` included) makes variables under the same names: then each name is bound to a variable whichever
branch runs.
"""
from __future__ import annotations

from typing import List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, writes


def check_branch_variables(c) -> None:
    """Block each ``if`` of the classifier's scope whose branches make variables under different names."""
    for st in c.scope.statements:
        if not isinstance(st.node, cst.If):
            continue
        branches = _branches(st.node)
        made = [_made_names(branch, c) for branch in branches]
        if not any(made):
            continue
        complete = isinstance(_last_else(st.node), cst.Else)
        if complete and all(names == made[0] for names in made):
            continue
        missing = sorted(set().union(*made) - (set.intersection(*made) if complete else set()))
        c.block(st.node, f"`{missing[0]}` is a variable made in only some branches of an `if`: the eager rewrite "
                         "would name it in run functions and variable lists where it was never made")


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
    scope, names = c.scope, c.names
    makers = scope.variable_functions | scope.variable_classes
    found: Set[str] = set()
    statements = branch.body if isinstance(branch, cst.IndentedBlock) else [branch]
    for statement in statements:
        calls = all_calls(statement)
        if any(names.call_name(call) in api.VARIABLE_CONSTRUCTORS
               or (names.call_name(call) or "").startswith("tf.layers.")
               or (isinstance(call.func, cst.Name) and call.func.value in makers) for call in calls):
            found.update(writes(statement) or ["(a variable bound to no name)"])
    return found

