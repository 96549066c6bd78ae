"""Graph-building methods ``__init__`` calls are run where each call stands: their body moves into ``__init__``.

    class Agent:                                        class Agent:
        def __init__(self, s_dim):                          def __init__(self, s_dim):
            self.S = tf.placeholder(...)                        self.S = tf.placeholder(...)
            self.a = self._build_a(self.S, 'eval')   ->         with tf.variable_scope('eval'):
                                                                    net = tf.layers.dense(self.S, 30)
        def _build_a(self, s, scope):                               self.a = tf.layers.dense(net, 1)
            with tf.variable_scope(scope):
                net = tf.layers.dense(s, 30)
                return tf.layers.dense(net, 1)

The rest of the pipeline converts a graph built in ``__init__`` (placeholders and layers made
there, runs in other methods); this puts a graph built by private helper methods there, so the
class converts the same way. A method called twice (an actor's eval and target networks) is
inlined at both calls, with its parameters bound to each call's arguments and its locals renamed
where they would clash; methods that call other build methods are inlined level by level. Which
calls qualify is :func:`tf_migrate.analysis.build_methods.build_calls`'s rule; how the body is put
in place is :mod:`tf_migrate.codegen.inline_calls`. The methods must build graph (call TensorFlow):
other helpers stay as they are. Eager mode only: a file that stays compat keeps its methods.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis.build_methods import BuildCall, build_calls, nested_build_calls, plain_class, self_method
from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.codegen.inline_calls import NotInlinable, inline_call
from tf_migrate.cst.names import all_names, attribute_names
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "inline-build-methods"
_MAX_LEVELS = 8  # build methods calling build methods: inlined one level per round


class InlineBuildMethods(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("graph-building methods only __init__ calls (private, or named nowhere else in the module) -> "
                   "their body at each call in __init__")
    ORDER = 2  # before every rule that converts what __init__ builds
    TRIGGERS = ("self.",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        changed = False
        body = []
        module_names = set(writes(module))  # what the module binds at its top level: globals the bodies may read
        for statement in module.body:
            if isinstance(statement, cst.ClassDef):
                outside = {name for other in module.body if other is not statement for name in _names_reached(other)}
                new = self._class(statement, ctx, module_names, outside)
                changed |= new is not statement
                statement = new
            body.append(statement)
        return module.with_changes(body=body) if changed else module

    def _class(self, cls: cst.ClassDef, ctx: RuleContext, module_names: Set[str], outside: Set[str]) -> cst.ClassDef:
        methods = {m.name.value: m for m in cls.body.body if isinstance(m, cst.FunctionDef)}

        def builds_graph(method: cst.FunctionDef, seen=frozenset()) -> bool:
            """It calls TensorFlow, or a method of the class that does (``build()`` calling ``add_placeholders()``,
            ``add_prediction_op()``...: inlined level by level)."""
            calls = all_calls(method.body)
            return any((ctx.names.call_name(call) or "").startswith("tf.") for call in calls) or any(
                self_method(call) in methods and self_method(call) not in seen
                and builds_graph(methods[self_method(call)], seen | {method.name.value}) for call in calls)

        original = cls
        cls = _with_nested_inlined(cls, ctx, module_names, builds_graph)
        taken: Set[str] = set(module_names)  # names __init__ uses, and those the inlined bodies bind
        for _ in range(_MAX_LEVELS):
            init = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"),
                        None)
            if init is None:
                break
            # Per-run members (self.a) become locals of the generated methods: a local must not take their name.
            taken |= all_names(init) | {key.split(".")[1] for key in reads(init.body) | set(writes(init.body))
                                        if key.startswith("self.") and key.count(".") >= 1}
            sites = build_calls(cls, init, accept=builds_graph, named_outside=outside)
            try:
                expanded = {id(site.statement): inline_call(site, taken) for site in sites}
            except NotInlinable as why:
                ctx.report(init, RULE_ID, INFO, f"build methods left as they are: {why}")
                break
            if not expanded:
                break
            for method in dict.fromkeys(site.method for site in sites):
                calls = sum(site.method is method for site in sites)
                ctx.report(method, RULE_ID, INFO, f"`{method.name.value}` builds graph for __init__ "
                                                  f"({calls} call{'s' if calls > 1 else ''}): its body moves to "
                                                  "each call, where the graph is converted")
            cls = _with_inlined(cls, init, expanded, sites)
        return cls if cls is not original else original


def _with_nested_inlined(cls: cst.ClassDef, ctx: RuleContext, module_names: Set[str], builds_graph) -> cst.ClassDef:
    """``__init__`` and the methods it calls with their nested build functions run in place (``build_layers``
    defined in ``_build_net`` for the eval and the target network), so that they can be inlined in turn."""
    init = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
    if init is None or not plain_class(cls):  # a base class (tf.Module: an eager output) may call the methods
        return cls
    called = {self_method(call) for call in all_calls(init.body)} - {None}
    members = []
    for member in cls.body.body:
        if isinstance(member, cst.FunctionDef) and (member is init or member.name.value in called):
            member = _nested_inlined(member, ctx, module_names, builds_graph)
        members.append(member)
    return cls.with_changes(body=cls.body.with_changes(body=members))


def _nested_inlined(method: cst.FunctionDef, ctx: RuleContext, module_names: Set[str],
                    builds_graph) -> cst.FunctionDef:
    for _ in range(_MAX_LEVELS):
        sites = nested_build_calls(method, accept=builds_graph)
        if not sites:
            return method
        inlined = {id(site.method) for site in sites}
        kept = [s for s in method.body.body if id(s) not in inlined]
        taken = set(module_names) | {p.name.value for p in method.params.params} | {
            name for statement in kept for name in all_names(statement)}
        try:
            expanded = {id(site.statement): inline_call(site, taken) for site in sites}
        except NotInlinable as why:
            ctx.report(method, RULE_ID, INFO, f"nested build functions left as they are: {why}")
            return method
        for function in dict.fromkeys(site.method for site in sites):
            calls = sum(site.method is function for site in sites)
            ctx.report(function, RULE_ID, INFO, f"`{function.name.value}`, defined in `{method.name.value}`, builds "
                                                f"graph ({calls} call{'s' if calls > 1 else ''}): its body moves to "
                                                "each call")
        body = _expand(kept, expanded)
        if body and kept[0] is not method.body.body[0]:  # the defs went: no blank line opens the body
            body[0] = body[0].with_changes(leading_lines=[line for line in body[0].leading_lines
                                                          if line.comment is not None])
        method = method.with_changes(body=method.body.with_changes(body=body))
    return method


def _with_inlined(cls: cst.ClassDef, init: cst.FunctionDef, expanded: Dict[int, List[cst.BaseStatement]],
                  sites: List[BuildCall]) -> cst.ClassDef:
    inlined = {id(site.method) for site in sites}
    members = []
    for member in cls.body.body:
        if member is init:
            body = _expand(list(init.body.body), expanded)
            members.append(init.with_changes(body=init.body.with_changes(body=body)))
        elif id(member) not in inlined:
            members.append(member)
    return cls.with_changes(body=cls.body.with_changes(body=members))


def _expand(statements, expanded: Dict[int, List[cst.BaseStatement]]) -> List[cst.BaseStatement]:
    out: List[cst.BaseStatement] = []
    for statement in statements:
        if id(statement) in expanded:
            out.extend(expanded[id(statement)])
        elif isinstance(statement, cst.With):
            body = _expand(list(statement.body.body), expanded)
            out.append(statement.with_changes(body=statement.body.with_changes(body=body)))
        else:
            out.append(statement)
    return out


def _names_reached(statement: cst.BaseStatement) -> Set[str]:
    """The attribute names ``statement`` may reach on an object of another class (``attribute_names``), but for a
    plain class's ``self.build()`` calling its own ``build``: rasbt's ``SentimentRNN`` and ``CharRNN`` each call
    their own ``self.build()``."""
    if not (isinstance(statement, cst.ClassDef) and plain_class(statement)):
        return attribute_names(statement)
    return attribute_names(statement, own={m.name.value for m in statement.body.body if isinstance(m, cst.FunctionDef)})
