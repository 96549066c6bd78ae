"""tf.variable_scope + tf.get_variable(reuse=...) -> variables built once, shared by name.

TF1 kept a store of variables keyed by scoped name ("tower/w"): a function
called twice with ``reuse=True`` (or under ``AUTO_REUSE``) got the same
variables, and ``tf.get_variable("w")`` under a reusing scope looked one up.
This rule resolves that store statically:

* ``get_variable`` calls inside a function are built once, at module level
  before the function (named after their scope: ``tower_w``), and the
  function uses them -- only when later calls reuse (else each call made new
  variables, and the function is left alone);
* lookups (``reuse=True``, after ``scope.reuse_variables()``) become the
  variable created under that name;
* ``tf.get_variable_scope().name`` becomes the scope's name.

What cannot be resolved statically (computed names, shapes from function
arguments) is left as it was, and the file stays in compat mode.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.reused_scopes import reused_calls
from tf_migrate.analysis.scope_defaults import scope_default_blockers
from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.analysis.variable_names import prints_variables, reads_names
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import code, module_code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._hoisting import call_counts, how_called, reuses
from tf_migrate.traversal import contains, visit

RULE_ID = "variable-store"


@dataclass
class _Frame:
    name: str
    reuse: Optional[str]  # "true", "auto", "param" (depends on a function argument) or None
    alias: Optional[str]  # `with tf.variable_scope(...) as scope`


class VariableStore(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "variable_scope + get_variable reuse -> variables built once and shared by scoped name"
    ORDER = 5
    TRIGGERS = ("variable_scope", "get_variable")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        original = ctx.original_module or module  # (before rules made them eager)
        for node, why in reused_calls(original, ctx.names) + scope_default_blockers(original, ctx.names):
            ctx.block(node, why)
        return _Store(ctx, module).run()


class _Store:
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx, self.module = ctx, module
        self.taken: Set[str] = {k.split(".")[-1] for k in reads(module)} | set(writes(module))
        self.counts = call_counts(module)
        self.created: Dict[str, str] = {}  # scoped name -> Python name holding the variable
        # Scoped names made twice: only in two graphs (tf.Graph(), reset_default_graph), where TF1's lookup found
        # the variable of the graph then the default, which a name-keyed store cannot tell.
        self.made_twice: Set[str] = set()
        # a program that reads variable names (tf1-variable-names gives its variables TF1's names)
        self.reads_names = reads_names(module) or prints_variables(module, ctx.names)

    def note_made(self, scoped: str, holder: str) -> None:
        """``holder`` holds the variable made under ``scoped``, the latest of that name."""
        if scoped in self.created:
            self.made_twice.add(scoped)
        self.created[scoped] = holder

    def fresh(self, scoped: str) -> str:
        stem = re.sub(r"\W", "_", scoped).strip("_") or "variable"
        if stem[0].isdigit():
            stem = "v_" + stem
        return fresh(stem, self.taken)

    def run(self) -> cst.Module:
        if "get_variable" not in module_code(self.module):
            return self.module
        body: List[cst.BaseStatement] = []
        for stmt in self.module.body:
            if isinstance(stmt, cst.FunctionDef) and "get_variable" in code(stmt):
                hoisted, stmt = self._function(stmt)
                body.extend(hoisted)
            elif not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                walker = _Walker(self, hoist_to=None, local=set())
                stmt = visit(stmt, walker)
                if isinstance(stmt, cst.FlattenSentinel):
                    body.extend(stmt.nodes)
                    continue
                if stmt is cst.RemoveFromParent() or isinstance(stmt, cst.RemovalSentinel):
                    continue
            body.append(stmt)
        return self.module.with_changes(body=body)

    def _function(self, func: cst.FunctionDef):
        name = func.name.value
        local = {p.name.value for p in [*func.params.params, *func.params.kwonly_params]} | set(writes(func.body))
        if self.counts.get(name, 0) > 1 and not reuses(func, self.module, name):
            self.ctx.report(func, RULE_ID, WARNING, f"`{name}` creates variables and is "
                            f"{how_called(self.module, name, self.counts)} without reuse: each call made new variables")
            return [], func
        listed = next((q for q in map(self.ctx.names.call_name, all_calls(func))
                       if q in api.VARIABLE_COLLECTIONS | api.SAVERS), None)
        if listed is not None and self.counts.get(name, 0) <= 1:
            # Built before the function, the variables would be in the list it reads before making them.
            self.ctx.report(func, RULE_ID, INFO, f"`{name}` reads `{listed}`: its variables stay where it makes them")
            return [], func
        hoisted: List[cst.BaseStatement] = []
        walker = _Walker(self, hoist_to=hoisted, local=local)
        new_func = func.with_changes(body=visit(func.body, walker))
        if walker.failed:
            return [], func
        if hoisted:
            hoisted[0] = hoisted[0].with_changes(leading_lines=list(func.leading_lines))
            new_func = new_func.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        return hoisted, new_func


class _Walker(cst.CSTTransformer):
    """Resolves get_variable calls in one module statement or one function body."""

    def __init__(self, store: _Store, hoist_to: Optional[List[cst.BaseStatement]], local: Set[str]) -> None:
        self.store, self.hoist_to, self.local = store, hoist_to, local
        self.frames: List[_Frame] = []
        self.named_in_full: Dict[int, str] = {}  # id(get_variable call) -> its scoped name, to write in full
        self.pending: List[List[cst.BaseStatement]] = [[]]
        self.failed = False
        self.names = store.ctx.names

    # -- scopes ----------------------------------------------------------------------
    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            call = item.item
            if isinstance(call, cst.Call) and self.names.call_name(call) == "tf.variable_scope":
                first = call.args[0].value if call.args and call.args[0].keyword is None else None
                name = first.evaluated_value if isinstance(first, cst.SimpleString) else None
                if name is None:
                    self.failed = True
                    name = "?"
                alias = item.asname.name.value if item.asname and isinstance(item.asname.name, cst.Name) else None
                self.frames.append(_Frame(name, self._reuse_mode(call), alias))
            else:
                self.frames.append(_Frame("", None, None))

    def leave_With(self, original, updated):
        for _ in original.items:
            self.frames.pop()
        return updated

    def leave_If(self, original: cst.If, updated: cst.If):
        """``if t > 0: tf.get_variable_scope().reuse_variables()`` with the call gone: the ``if`` goes too."""
        emptied = isinstance(updated.body, cst.IndentedBlock) and not updated.body.body \
            and any(_is_reuse_call(line) for line in original.body.body)
        if emptied and updated.orelse is None and not contains(updated.test, cst.Call):
            return cst.RemoveFromParent()
        return updated

    def _reuse_mode(self, call: cst.Call) -> Optional[str]:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "reuse":
                value = arg.value
                if isinstance(value, cst.Name) and value.value == "True":
                    return "true"
                if isinstance(value, cst.Name) and value.value in ("False", "None"):
                    return None
                if self.names.qualname(value) == "tf.AUTO_REUSE":
                    return "auto"
                return "param"
        return None

    def _path(self) -> str:
        return "/".join(f.name for f in self.frames if f.name)

    def _reusing(self) -> Optional[str]:
        modes = [f.reuse for f in self.frames if f.reuse]
        return "true" if "true" in modes else (modes[-1] if modes else None)

    # -- statements --------------------------------------------------------------------
    def visit_SimpleStatementLine(self, node) -> None:
        self.pending.append([])

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated):
        before = self.pending.pop()
        small = original.body[0] if len(original.body) == 1 else None
        if _is_reuse_call(original):
            func = small.value.func
            alias = func.value.value if isinstance(func.value, cst.Name) else None
            for frame in reversed(self.frames):
                if frame.alias == alias or (alias is None and frame.name):
                    frame.reuse = "true"
                    break
            self.store.ctx.report(original, RULE_ID, INFO, "scope.reuse_variables(): later lookups resolved")
            return cst.RemoveFromParent()
        if not before:
            return updated
        return cst.FlattenSentinel(before + [updated])

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if (original.attr.value == "name" and isinstance(original.value, cst.Call)
                and self.names.call_name(original.value) == "tf.get_variable_scope"):
            return cst.SimpleString(repr(self._path()))
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.names.call_name(original) != "tf.get_variable":
            return updated
        first = original.args[0] if original.args else None
        name_arg = first.value if first is not None and (first.keyword is None or first.keyword.value == "name") \
            else None
        if not isinstance(name_arg, cst.SimpleString):
            self.failed = True
            return updated
        scoped = "/".join(p for p in (self._path(), name_arg.evaluated_value) if p)
        mode = self._reusing()
        if mode == "true" or (mode == "auto" and scoped in self.store.created):
            if scoped in self.store.made_twice:
                self.store.ctx.block(original, f"tf.get_variable lookup of {scoped!r}, a name made in more than one "
                                               "graph: TF1 found the variable of the graph then the default")
                self.failed = True
                return updated
            if scoped in self.store.created:
                self.store.ctx.report(original, RULE_ID, INFO, f"get_variable lookup of {scoped!r} -> "
                                      f"`{self.store.created[scoped]}`")
                return cst.Name(self.store.created[scoped])
            self.failed = True
            return updated
        if self.hoist_to is None and self._bound_directly(original):
            scoped = self.named_in_full.get(id(original))
            if scoped is not None:
                self.store.ctx.report(original, RULE_ID, INFO, f"`{code(original.args[0].value)}` named {scoped!r} "
                                      "in full, as TF1 named it: the program reads variable names")
                return updated.with_changes(args=[updated.args[0].with_changes(value=_literal(scoped, original)),
                                                  *updated.args[1:]])
            return updated
        if reads(updated) & self.local:
            self.store.ctx.report(original, RULE_ID, WARNING, f"variable {scoped!r} is shaped by values local to "
                                  "its function: cannot be built once")
            self.failed = True
            return updated
        var = self.store.fresh(scoped)
        self.store.note_made(scoped, var)
        if scoped != name_arg.evaluated_value:  # built outside its scopes: the name TF1 gave it, in full
            updated = updated.with_changes(args=[updated.args[0].with_changes(value=_literal(scoped, original)),
                                                 *updated.args[1:]])
        statement = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(var))], updated)])
        (self.hoist_to if self.hoist_to is not None else self.pending[-1]).append(statement)
        self.store.ctx.report(original, RULE_ID, INFO, f"variable {scoped!r} built once as `{var}`")
        return cst.Name(var)

    def _bound_directly(self, call: cst.Call) -> bool:
        """``v = tf.get_variable(...)`` at module level: ``v`` already names it."""
        statement = self._current_assign
        if statement is not None and statement.value is call and len(statement.targets) == 1 \
                and isinstance(statement.targets[0].target, cst.Name):
            scoped = "/".join(p for p in (self._path(), call.args[0].value.evaluated_value) if p)
            self.store.note_made(scoped, statement.targets[0].target.value)
            if scoped != call.args[0].value.evaluated_value and self.store.reads_names:
                self.named_in_full[id(call)] = scoped  # the eager rewrite unwraps the scope around it
            return True
        return False

    _current_assign: Optional[cst.Assign] = None

    def visit_Assign(self, node: cst.Assign) -> None:
        self._current_assign = node

    def leave_Assign(self, original, updated):
        self._current_assign = None
        return updated


def _literal(scoped: str, call: cst.Call) -> cst.SimpleString:
    """``scoped`` as a string literal in the quotes of the get_variable's name, where it needs no escape."""
    quote = call.args[0].value.quote
    plain = quote in ('"', "'") and quote not in scoped and "\\" not in scoped
    return cst.SimpleString(f"{quote}{scoped}{quote}" if plain else repr(scoped))


def _is_reuse_call(line: cst.CSTNode) -> bool:
    """``scope.reuse_variables()`` as a statement."""
    small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    return isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) \
        and isinstance(small.value.func, cst.Attribute) and small.value.func.attr.value == "reuse_variables"
