"""The program model of each block the session rule converts, for pre-pass rules that check their output.

A pre-pass rule rewrites a TF1 idiom into a form the core converts; where
that form depends on how the core classifies it, the rule checks the model
of its output here and keeps the TF1 form (and compat mode) when it would
not run faithfully.
"""
from __future__ import annotations

from typing import Iterator, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.class_scope import analyze_class
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.rules import RuleContext


def graph_scopes(module: cst.Module, ctx: RuleContext) -> Iterator["pm.Scope"]:
    """The model of the module body and of every function body in it (and of a class's methods that open their own
    session), as the engine walks them."""
    pending = [(list(module.body), ())]
    while pending:
        body, params = pending.pop()
        scope = analyze_scope(body, ctx.names, params, layer_scopes=ctx.layer_scopes)
        yield scope
        for st in scope.statements:
            if st.kind == "nested-scope" and isinstance(st.node, (cst.FunctionDef, cst.If)):
                pending.append(pm.nested_scope_body(st.node))
            elif st.kind == "nested-scope" and isinstance(st.node, cst.ClassDef):  # a method opening its session
                pending.extend(pm.nested_scope_body(method) for method in analyze_class(
                    st.node, ctx.names, ctx.layer_scopes).own_scopes)


def statement_value(line: cst.CSTNode):
    """The value of a one-statement line (``x = value`` or ``value``), else None."""
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(
            line.body[0], (cst.Assign, cst.Expr)):
        return line.body[0].value
    return None


def graph_and_class_scopes(module: cst.Module, ctx: RuleContext) -> Iterator[Tuple["pm.Scope", Optional[str]]]:
    """(model, None) of each :func:`graph_scopes` block, and (model of its ``__init__``, class name) of each class
    they hold (the block that builds its graph)."""
    for scope in graph_scopes(module, ctx):
        yield scope, None
        for st in scope.statements:
            if st.kind == "nested-scope" and isinstance(st.node, cst.ClassDef):
                yield analyze_class(st.node, ctx.names, ctx.layer_scopes).scope, st.node.name.value
