"""An object's constructor that initializes every variable of a session other objects share.

An RL driver builds an actor and a critic on one session; each ``__init__`` ends with
``self.sess.run(tf.global_variables_initializer())``::

    sess = tf.InteractiveSession()
    actor = Actor(env, sess)     # initializes the actor's variables
    critic = Critic(env, sess)   # initializes every variable again: the actor's are drawn anew

TF1 gave the actor the numbers of the second initializer run; eager variables keep the values they were made
with. Where that shows, the scope stays compat with the reason at the second construction: the program is seeded
(a graph seed, or an op seed in either class: TF1's second run drew the next numbers of each seeded op), or the
first object ran in the session before the second was built (training it: TF1 reset what it learnt).
An unseeded draw made again is another draw of the same distribution, which the migrated program also makes.
"""
from __future__ import annotations

from typing import List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.symbols import all_calls, symbol_key

_GLOBAL_INITIALIZERS = {"tf.global_variables_initializer", "tf.initialize_all_variables"}


def check_object_reinitialization(c: Classifier) -> None:
    """Block the second of two objects built on one session whose constructor initializes every variable, where
    TF1's second initializer run changed the first object's values (see the module's documentation)."""
    built: List[Tuple["pm.Statement", str, Set[str]]] = []  # (statement, class, sessions passed)
    used: Set[int] = set()  # indexes of those built objects that ran in their session before a later statement
    for st in c.scope.statements:
        used.update(index for index, (first, _, _) in enumerate(built) if _runs(st, first))
        construction = _construction(st, c.scope)
        if construction is None:
            continue
        cls, sessions = construction
        if sessions and _initializes_everything(c.scope.class_defs[cls], c):
            for index, (first, first_cls, first_sessions) in enumerate(built):
                if first_cls not in c.scope.variable_classes or not sessions & first_sessions \
                        or not c.scope.same_graph(first.index, st.index):
                    continue
                if index in used or _seeded(c, st.index, {cls, first_cls}):
                    c.block(st.node, f"`{cls}(...)` initializes every variable of the session it shares with the "
                                     f"`{first_cls}` object built before it: TF1 gave that object's variables new "
                                     "values there (drawn again from their seeds, or reset after it ran); eager "
                                     "variables keep their first ones")
                    return
        built.append((st, cls, sessions))


def _runs(st: "pm.Statement", first: "pm.Statement") -> bool:
    """Whether ``st``, after the object ``first`` built, runs the session or calls a method of that object."""
    if st.index <= first.index:
        return False
    if st.run_sites:
        return True
    return any(isinstance(call.func, cst.Attribute) and symbol_key(call.func.value) in first.defines
               for call in all_calls(st.node))


def _construction(st: "pm.Statement", scope: "pm.Scope") -> Optional[Tuple[str, Set[str]]]:
    """(class, the session names it is given) where ``st`` builds an object of a class of the program."""
    node = st.node
    small = node.body[0] if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 else None
    value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in scope.class_defs):
        return None
    sessions = {key for arg in value.args for key in [symbol_key(arg.value)]
                if key is not None and (key in scope.sessions or scope.kind(key) == pm.SESSION)}
    return value.func.value, sessions


def _initializes_everything(cls: cst.ClassDef, c: Classifier) -> bool:
    """Whether the class's ``__init__`` runs an initializer of all global variables, in its own body (not in a
    branch: ``if sess is None:`` makes and initializes a session of its own only when none is given)."""
    init = next((item for item in cls.body.body if isinstance(item, cst.FunctionDef) and item.name.value == "__init__"),
                None)
    if init is None:
        return False
    initializers: Set[str] = set()
    for line in init.body.body:
        if not isinstance(line, cst.SimpleStatementLine):
            continue
        for small in line.body:
            calls = list(all_calls(small))
            if isinstance(small, cst.Assign) and any(c.names.call_name(call) in _GLOBAL_INITIALIZERS for call in calls):
                initializers.update(key for target in small.targets for key in [symbol_key(target.target)] if key)
            for call in calls:
                if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "run" and call.args):
                    continue
                fetched = call.args[0].value
                if symbol_key(fetched) in initializers or any(
                        c.names.call_name(inner) in _GLOBAL_INITIALIZERS for inner in all_calls(fetched)):
                    return True
    return False


def _seeded(c: Classifier, before: int, classes: Set[str]) -> bool:
    """Whether TF1's draws repeat from run to run here: a graph seed set in the scope before statement ``before``,
    or an op seed given in one of the ``classes``."""
    calls = [call for st in c.scope.statements[:before] for call in all_calls(st.node)]
    calls += [call for cls in classes for call in all_calls(c.scope.class_defs[cls])]
    return any(c.names.call_name(call) in api.GRAPH_SEEDS
               or any(arg.keyword is not None and arg.keyword.value == "seed" for arg in call.args) for call in calls)
