"""Collections read in a class that programs build more than once, all in one session: lists kept on the class.

    class DoubleDQN:                                        class DoubleDQN:
        def __init__(self, n_actions, sess=None):               target_net_params = []  # TF1's collection ...
            ...                                                 def __init__(self, n_actions):
            w1 = tf.get_variable(..., collections=c_names)          ...
            t_params = tf.get_collection('target_net_params')       DoubleDQN.target_net_params += [w1, b1]
                                                                    t_params = list(DoubleDQN.target_net_params)

TF1 keeps a collection in the graph. A driver that builds two agents sharing one session (MorvanZhou's comparisons
of natural and double DQNs) reads, in the second agent's ``__init__``, the variables both agents made, and the
second agent's copy ops write the first agent's variables too. A list on the class, filled in creation order, gives
every object the same list at the same point. It is the faithful form only when every object runs in one session
(with two sessions, TF1's second copy op writes the first object's variables in the second session, which the
first never reads; eager code has one value per variable): the project pass proves that every program builds the
class passing one session (``project_class_runs.shared_sessions``), and the class must run in the session its
caller passes (``optional-sessions`` records it, ``RuleContext.given_sessions``).
"""
from __future__ import annotations

import re
from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.codegen.replace import replace_nodes
from tf_migrate.cst.names import all_names, attribute_names, fresh
from tf_migrate.rules import RuleContext
from tf_migrate.traversal import visit


def built_in_one_session(cls: str, ctx: RuleContext) -> bool:
    """Whether every program builds ``cls`` passing one session, which its objects run in."""
    parameter = ctx.names.tree_helpers.shared_sessions.get(cls)
    given = ctx.given_sessions.get(cls)
    return parameter is not None and given is not None and parameter in given


class ClassRegistries:
    """The reads of collections kept on classes, gathered over one pass of ``rules/user_collections``."""

    def __init__(self) -> None:
        self.attributes: Dict[Tuple[str, str], str] = {}  # (class, key) -> the class attribute holding it
        self.registered: Dict[Tuple[str, str], Set[str]] = {}  # (class, key) -> members already added
        self.statements: Dict[int, Tuple[cst.CSTNode, List[Tuple[str, str, cst.Call, List[str]]]]] = {}

    def read(self, cls: str, key: str, call: cst.Call, statement: cst.CSTNode, members: List[str]) -> None:
        """``call`` (``tf.get_collection(key)`` in ``statement`` of ``cls``'s __init__) reads ``members`` and what
        other objects added before."""
        added = self.registered.setdefault((cls, key), set())
        new = [member for member in members if member not in added]
        added.update(new)
        self.statements.setdefault(id(statement), (statement, []))[1].append((cls, key, call, new))

    def write(self, module: cst.Module) -> cst.Module:
        """``module`` with each read's list on its class: the attribute in the class body, the new members added
        before the statement that reads it, the read a copy of the list."""
        if not self.statements:
            return module
        classes = {cls for _, reads in self.statements.values() for cls, *_ in reads}
        definitions = _class_definitions(module, classes)
        for cls, key in sorted({(cls, key) for _, reads in self.statements.values() for cls, key, *_ in reads}):
            definition = definitions[cls]
            stem = re.sub(r"\W", "_", key)
            stem = stem if stem.isidentifier() and not stem.startswith("_") else f"collection_{stem}".strip("_")
            self.attributes[(cls, key)] = fresh(stem, all_names(definition) | attribute_names(definition, strings=False))
        replacements: Dict[int, cst.CSTNode] = {}
        for statement, reads in self.statements.values():
            added = [cst.parse_statement(f"{cls}.{self.attributes[(cls, key)]} += [{', '.join(new)}]")
                     for cls, key, _, new in reads if new]
            copies = {id(call): cst.parse_expression(f"list({cls}.{self.attributes[(cls, key)]})")
                      for cls, key, call, _ in reads}
            replacements[id(statement)] = cst.FlattenSentinel([*added, replace_nodes(statement, copies)])
        module = replace_nodes(module, replacements)
        return visit(module, _Declare(self.attributes))


def _class_definitions(module: cst.Module, names: Set[str]) -> Dict[str, cst.ClassDef]:
    found: Dict[str, cst.ClassDef] = {}

    class _Classes(cst.CSTVisitor):
        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            if node.name.value in names:
                found.setdefault(node.name.value, node)

    visit(module, _Classes())
    return found


class _Declare(cst.CSTTransformer):
    """Each class's registries declared first in its body (after its docstring)."""

    def __init__(self, attributes: Dict[Tuple[str, str], str]) -> None:
        self.attributes = attributes

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        declared = [cst.parse_statement(f"{attribute} = []  # TF1's collection {key!r}: the variables every "
                                        f"{cls} made into it, in creation order")
                    for (cls, key), attribute in sorted(self.attributes.items()) if cls == original.name.value]
        if not declared:
            return updated
        body = list(updated.body.body)
        docstring = 1 if body and isinstance(body[0], cst.SimpleStatementLine) and isinstance(
            body[0].body[0], cst.Expr) and isinstance(body[0].body[0].value, cst.SimpleString) else 0
        return updated.with_changes(body=updated.body.with_changes(body=body[:docstring] + declared + body[docstring:]))
