"""Collections of the program's own keys -> the explicit list of the variables made into them.

    c_names = ['target_net_params', tf.GraphKeys.GLOBAL_VARIABLES]
    w1 = tf.get_variable('w1', [4, 10], collections=c_names)        (get-variable: tf.Variable, no collections)
    b1 = tf.get_variable('b1', [1, 10], collections=c_names)
    t_params = tf.get_collection('target_net_params')          ->  t_params = [w1, b1]

Eager code has no graph to keep collections in: ``tf.get_collection`` of a key of the program's
own reads nothing. Morvan's DQNs keep their eval and target networks' weights in two such
collections and copy one into the other (``[tf.assign(t, e) for t, e in zip(t_params, e_params)]``).
The list is read from the program model (:mod:`tf_migrate.analysis.user_collections`, which says
when it cannot be known); in a class, only where every program builds it once. A member whose name the program binds again before the read (the
target network's ``w1`` after the eval network's) gets a name of its own where it is made
(``codegen/binding_renames``). This runs before get-variable, which drops ``collections=``. A read it
cannot list keeps the file compat, with the reason.
"""
from __future__ import annotations

from typing import Dict

import libcst as cst

from tf_migrate.analysis.symbols import all_calls
from tf_migrate.analysis.user_collections import left_out_of_global, user_collection_members
from tf_migrate.codegen.binding_renames import rename_earlier_binding
from tf_migrate.codegen.replace import replace_nodes
from tf_migrate.cst.names import all_names
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._class_registries import ClassRegistries, built_in_one_session
from tf_migrate.rules._program_scopes import graph_and_class_scopes

RULE_ID = "user-collections"
_MAX_RENAMES = 64
_GLOBAL_KEYS = {"tf.GraphKeys.GLOBAL_VARIABLES", "tf.GraphKeys.VARIABLES"}
_STANDARD_KEYS = {"trainable_variables", "variables", "update_ops", "regularization_losses"}


class UserCollections(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.get_collection('key') of the program's own key -> the list of the variables made with "
                   "collections=[... 'key' ...], in creation order")
    ORDER = 4  # before variable-store and get-variable, which drop `collections=`
    TRIGGERS = ("collection",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        # A member named again later gets a name of its own, one per pass (the renames of `w1` and `b1` rewrite
        # the same statement `l1 = tf.nn.relu(tf.matmul(s, w1) + b1)`); then the reads become lists.
        for _ in range(_MAX_RENAMES):
            renamed = self._pass(module, ctx, rename=True)
            if renamed is module:
                break
            module = renamed
        return self._pass(module, ctx, rename=False)

    def _pass(self, module: cst.Module, ctx: RuleContext, rename: bool) -> cst.Module:
        replacements: Dict[int, cst.CSTNode] = {}
        taken = all_names(module)
        registries = ClassRegistries()  # collections of classes built more than once, in one session
        for scope, cls in graph_and_class_scopes(module, ctx):
            for st in scope.statements:
                if st.kind == "nested-scope" or isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
                    continue  # a block of its own: its reads are listed from its own model
                for call in all_calls(st.node):
                    qualname = ctx.names.call_name(call)
                    outside = left_out_of_global(scope, ctx.names, st.index) if not rename and (
                        qualname == "tf.global_variables" or (qualname == "tf.get_collection" and ctx.names.qualname(
                            argument(call, "key", 0) or cst.Name("_")) in _GLOBAL_KEYS)) else None
                    if outside is not None:  # decided here: get-variable drops `collections=`
                        ctx.block(call, outside)
                    key = argument(call, "key", 0) if qualname == "tf.get_collection" else None
                    if not isinstance(key, cst.SimpleString) or key.evaluated_value in _STANDARD_KEYS \
                            or argument(call, "scope", 1) is not None or id(call) in replacements:
                        continue
                    members, why = user_collection_members(key.evaluated_value, scope, ctx.names, st.index)
                    shared = cls is not None and cls not in ctx.names.single_instances
                    if shared and not built_in_one_session(cls, ctx):
                        members, why = None, (f"collection {key.evaluated_value!r} is read in class `{cls}`, which a "
                                              "program may build twice (each instance adds its variables), and not "
                                              "always in one session")
                    if members is None:
                        if not rename:
                            ctx.block(call, why)
                        continue
                    hidden = [(target, index) for target, index in members if _hidden(scope, target, index, st.index)]
                    if rename:
                        if hidden and _renamed(scope, *hidden[0], st.index, taken, replacements):
                            return replace_nodes(module, replacements)
                        continue
                    if hidden:
                        ctx.block(call, f"`{hidden[0][0]}`, a variable of collection {key.evaluated_value!r}, is "
                                        "bound again before the read, and cannot be given a name of its own")
                        continue
                    listed = "[" + ", ".join(target for target, _ in members) + "]"
                    if shared:  # every object's variables, kept on the class
                        registries.read(cls, key.evaluated_value, call, st.node, [target for target, _ in members])
                        ctx.report(call, RULE_ID, INFO, f"`{code(call)}` -> the variables every `{cls}` made into it, "
                                                        "kept on the class in creation order (all are built in one "
                                                        "session)")
                        continue
                    replacements[id(call)] = cst.parse_expression(listed)
                    ctx.report(call, RULE_ID, INFO, f"`{code(call)}` -> {listed}: the variables made into it, "
                                                    "in creation order")
        module = replace_nodes(module, replacements) if replacements else module
        return registries.write(module)


def _hidden(scope, target: str, index: int, before: int) -> bool:
    visible = scope.symbol_at(target, before)
    return visible is None or visible.index != index


def _renamed(scope, target: str, index: int, before: int, taken, replacements) -> bool:
    """Whether the member made at ``index`` got a name of its own (its next binding hides it before the read)."""
    earlier = next((s for s in scope.bindings.get(target, ()) if s.index == index), None)
    later = next((s for s in scope.bindings.get(target, ()) if index < s.index < before), None)
    if earlier is None or later is None:
        return False
    return rename_earlier_binding(scope, target, earlier, later, taken, replacements) is not None
