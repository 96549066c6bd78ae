"""``with tf.variable_scope(...)`` / ``tf.name_scope(...)`` in graph functions -> their body.

Scopes only named graph nodes and variables. Once layers and variables are
Python objects built once (layers-to-keras, get-variable), a scope around
ops has no effect in eager code, so its body joins the enclosing block.
Scopes whose body still creates variables through TF1 APIs are kept, and so are scopes around an
optimizer step (they named its slot variables); the session rewrite drops them with the graph code.

A scope bound to a name (``with tf.variable_scope("d") as scope:``) is
unwrapped too when the name is only used for ``scope.reuse_variables()`` and
no ``get_variable`` is left in the file: reuse only changed what later
``get_variable`` calls returned. The reuse statements go with the scope, and an
``if reuse:`` left empty goes too (dead-parameters then drops an unused
``reuse`` parameter).
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "unwrap-scopes"
_SCOPES = {"tf.variable_scope", "tf.name_scope"}


class UnwrapScopes(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "variable_scope / name_scope blocks inside functions are unwrapped (no effect in eager code)"
    ORDER = 90

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        lookups = any(ctx.names.call_name(c) in api.VARIABLE_CONSTRUCTORS - {"tf.Variable"}
                      for c in all_calls(module))
        return visit(module, _Unwrap(ctx, reuse_is_dead=not lookups))


class _Unwrap(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, reuse_is_dead: bool = False) -> None:
        self.ctx = ctx
        self.in_function = 0
        self.reuse_is_dead = reuse_is_dead
        self.emptied: set = set()  # the `pass` lines written for scope blocks left with nothing

    def visit_FunctionDef(self, node) -> None:
        self.in_function += 1

    def leave_FunctionDef(self, original, updated):
        self.in_function -= 1
        return updated

    def leave_With(self, original: cst.With, updated: cst.With):
        if not self.in_function or not isinstance(updated.body, cst.IndentedBlock):
            return updated
        if not all(isinstance(i.item, cst.Call) and self.ctx.names.call_name(i.item) in _SCOPES for i in original.items):
            return updated
        if any(self.ctx.names.call_name(c) in api.VARIABLE_CONSTRUCTORS or _builds_a_step(c)
               for c in all_calls(original.body)):
            return updated
        named = [i.asname.name.value for i in original.items if i.asname is not None
                 and isinstance(i.asname.name, cst.Name)]
        if len(named) != sum(i.asname is not None for i in original.items):
            return updated
        body = list(updated.body.body)
        if named:
            if not self.reuse_is_dead or not _only_reused(original.body, set(named)):
                return updated
            body = _without_reuse(body, set(named))
            self.ctx.report(original, RULE_ID, INFO, "scope block unwrapped, with its reuse_variables(): no "
                                                     "get_variable is left to look variables up")
        else:
            self.ctx.report(original, RULE_ID, INFO, "scope block unwrapped")
        emptied = not body and not any(line.comment is not None for line in updated.leading_lines)
        body = body or [cst.SimpleStatementLine([cst.Pass()])]
        body[0] = body[0].with_changes(leading_lines=list(updated.leading_lines) + list(body[0].leading_lines))
        if emptied:
            self.emptied.add(id(body[0]))
        return cst.FlattenSentinel(body)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        """A scope block whose lines other rules moved away (summaries, runs) goes where other lines remain."""
        kept = [line for line in updated.body if id(line) not in self.emptied]
        return updated.with_changes(body=kept) if kept and len(kept) < len(updated.body) else updated


def _builds_a_step(call: cst.Call) -> bool:
    """``optimizer.minimize(...)`` / ``apply_gradients(...)``: TF1 named the step's slot variables under the
    variable scopes around it, which a scoped collection of global variables may read."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in ("minimize", "apply_gradients")


def _is_reuse(statement: cst.CSTNode, scopes) -> bool:
    """``scope.reuse_variables()`` as a statement."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)):
        return False
    call = statement.body[0].value
    return (isinstance(call, cst.Call) and not call.args and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "reuse_variables" and isinstance(call.func.value, cst.Name)
            and call.func.value.value in scopes)


def _only_reused(body: cst.CSTNode, scopes) -> bool:
    """Whether every read of the scope names in ``body`` is a ``reuse_variables()`` statement."""
    class _Uses(cst.CSTVisitor):
        def __init__(self) -> None:
            self.reads = self.reuses = 0

        def visit_Name(self, node: cst.Name) -> None:
            self.reads += node.value in scopes

        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            self.reuses += _is_reuse(node, scopes)

    uses = _Uses()
    visit(body, uses)
    return uses.reads == uses.reuses


def _without_reuse(body, scopes):
    """The statements without the reuse calls, and without an ``if`` (no ``else``) that only held them."""
    out = []
    for statement in body:
        if _is_reuse(statement, scopes):
            continue
        if isinstance(statement, cst.If) and statement.orelse is None and isinstance(statement.body, cst.IndentedBlock):
            inner = _without_reuse(list(statement.body.body), scopes)
            if not inner:
                continue
            statement = statement.with_changes(body=statement.body.with_changes(body=inner))
        out.append(statement)
    return out
