"""Graph-building methods ``__init__`` calls once are run where the call stands: their body moves into ``__init__``.

    class Model:                                  class Model:
        def __init__(self, sess, name):               def __init__(self, sess, name):
            self.sess = sess                              self.sess = sess
            self._build_net()              ->             self.X = tf.placeholder(...)
                                                          ...
        def _build_net(self):
            self.X = tf.placeholder(...)
            ...

The rest of the pipeline converts a graph built in ``__init__`` (placeholders and layers made
there, runs in other methods); this puts a graph built by a private helper method there, so the
class converts the same way. Which calls qualify is
:func:`tf_migrate.analysis.build_methods.inline_build_methods`'s rule: a private method taking
only ``self``, named once in its class, called from ``__init__`` as a statement or as one
assignment's value, returning at most one value from its last statement, with locals of its own.
It must build graph (call TensorFlow): other helpers stay as they are. Eager mode only: a file that
stays compat keeps its methods.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis.build_methods import inline_build_methods
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "inline-build-methods"


class InlineBuildMethods(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "private graph-building methods __init__ calls once -> their body in __init__"
    ORDER = 2  # before every rule that converts what __init__ builds
    TRIGGERS = ("self._",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        changed = False
        body = []
        for statement in module.body:
            if isinstance(statement, cst.ClassDef):
                new = self._class(statement, ctx)
                changed |= new is not statement
                statement = new
            body.append(statement)
        return module.with_changes(body=body) if changed else module

    def _class(self, cls: cst.ClassDef, ctx: RuleContext) -> cst.ClassDef:
        init = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
        if init is None:
            return cls

        def builds_graph(method: cst.FunctionDef) -> bool:
            return any((ctx.names.call_name(call) or "").startswith("tf.") for call in all_calls(method.body))

        new_body, inlined = inline_build_methods(cls, init, accept=builds_graph)
        if not inlined:
            return cls
        for method in inlined:
            ctx.report(method, RULE_ID, INFO, f"`{method.name.value}` builds the graph once, from __init__: "
                                              "its body moves into __init__, where the graph is converted")
        members = []
        for member in cls.body.body:
            if member is init:
                members.append(init.with_changes(body=init.body.with_changes(body=new_body)))
            elif not any(member is method for method in inlined):
                members.append(member)
        return cls.with_changes(body=cls.body.with_changes(body=members))
