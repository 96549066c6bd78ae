"""Graph functions that read per-run globals get them as keyword-only parameters.

    keep_prob = tf.placeholder(tf.float32)
    def conv_net(x):
        ...
        return tf.nn.dropout(h, keep_prob)
    logits = conv_net(images)

In TF1 ``keep_prob`` is one graph node every call shares. In eager code it is
fed per run, as an argument of the generated function, so the function must
receive it: ``def conv_net(x, *, keep_prob)`` and ``conv_net(images,
keep_prob=keep_prob)``. Functions that other such functions call get the
inputs they pass on, too; one handed to a call (``tf.cond(pred, f1, f2)``,
``tf.while_loop(cond, body, ...)``), which calls it without them, is handed
``lambda *args: f1(*args, x=x)``. Functions called or handed from code that
stays outside any run, or referenced otherwise (``step = body``), are left
alone (the read is then reported as an escape).
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.escapes import escaped_reads as _escaped_reads
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "graph-function-inputs"


class GraphFunctionInputs(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "graph functions reading per-run globals (keep_prob, training) get them as keyword-only parameters"
    ORDER = 80

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        defs = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
        if not defs:
            return module
        scope = analyze_scope(list(module.body), ctx.names, layer_scopes=ctx.layer_scopes)
        if not scope.is_graph_program:
            return module
        needs = {name: set(_escaped_reads(node, [], scope)) for name, node in defs.items()
                 if not any(st.run_sites for st in scope.statements if st.node is node)}
        needs = {name: keys for name, keys in needs.items() if all("." not in k for k in keys)}
        callers = _callers(defs)
        changed = True
        while changed:  # a function passes on what the functions it calls need
            changed = False
            for name in needs:
                for callee in callers.get(name, set()) & set(needs):
                    extra = needs[callee] - needs[name] - _params(defs[name])
                    if extra:
                        needs[name] |= extra
                        changed = True
        needs = {name: keys for name, keys in needs.items() if keys}
        if not needs or not _only_called_in_runs(needs, scope, defs) or _passed_as_values(module, needs):
            return module
        for name, keys in needs.items():
            ctx.report(defs[name], RULE_ID, INFO, f"`{name}` reads per-run {', '.join(sorted(keys))}: "
                                                  "now keyword-only parameters")
        return visit(module, _AddInputs(needs))


def _params(func: cst.FunctionDef) -> Set[str]:
    return set(parameter_names(func.params, stars=False))


def _callers(defs: Dict[str, cst.FunctionDef]) -> Dict[str, Set[str]]:
    """function name -> names of the module functions it calls, or hands to a call (``tf.cond(p, f1, f2)``)."""
    result: Dict[str, Set[str]] = {}
    for name, node in defs.items():
        called: Set[str] = set()

        class _Calls(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                if isinstance(call.func, cst.Name) and call.func.value in defs:
                    called.add(call.func.value)

            def visit_Arg(self, arg: cst.Arg) -> None:
                if isinstance(arg.value, cst.Name) and arg.value.value in defs:
                    called.add(arg.value.value)

        visit(node.body, _Calls())
        result[name] = called
    return result


def _only_called_in_runs(needs, scope: "pm.Scope", defs) -> bool:
    """Every call of a rewritten function sits in per-run code (or in another rewritten function)."""
    for st in scope.statements:
        if st.role == pm.DEFER or (isinstance(st.node, cst.FunctionDef) and st.node.name.value in needs):
            continue
        found: List[str] = []

        class _Calls(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                if isinstance(call.func, cst.Name) and call.func.value in needs:
                    found.append(call.func.value)

            def visit_Arg(self, arg: cst.Arg) -> None:  # tf.cond(pred, f1, f2): called by TF where it stands
                if isinstance(arg.value, cst.Name) and arg.value.value in needs:
                    found.append(arg.value.value)

        visit(st.node, _Calls())
        if found:
            return False
    return True


def _passed_as_values(module: cst.Module, needs) -> bool:
    """Whether a rewritten function is referenced other than by calling it or handing it to a call
    (``tf.cond(pred, f1, f2)``, ``tf.while_loop(cond, body, ...)``: it gets ``lambda *args: body(*args, x=x)``
    there): ``step = body``, a list of functions. Whoever calls it then does not pass the new parameters."""
    found: List[str] = []

    class _References(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if isinstance(call.func, cst.Name):
                self.callee = call.func  # (visited next, as the call's first child)

        def visit_Name(self, name: cst.Name) -> None:
            if name.value in needs and name is not getattr(self, "callee", None):
                found.append(name.value)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            for part in (node.params, node.body, *node.decorators):  # not its name: defining it is no reference
                visit(part, self)
            return False

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            visit(node.value, self)  # `.attr` names a member, not the function
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            if not (isinstance(node.value, cst.Name) and node.value.value in needs):
                visit(node.value, self)  # `body=` names a parameter; `body` itself gets a lambda passing its inputs
            return False

    visit(module, _References())
    return bool(found)


class _AddInputs(cst.CSTTransformer):
    def __init__(self, needs: Dict[str, Set[str]]) -> None:
        self.needs = {name: sorted(keys) for name, keys in needs.items()}
        self.depth = 0

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        value = original.value
        if not (isinstance(value, cst.Name) and value.value in self.needs):
            return updated
        inputs = ", ".join(f"{key}={key}" for key in self.needs[value.value])  # TF calls it with its own arguments
        return updated.with_changes(value=cst.parse_expression(f"lambda *args: {value.value}(*args, {inputs})"))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        keys = self.needs.get(original.name.value)
        if not keys:
            return updated
        params = updated.params
        star = params.star_arg if not isinstance(params.star_arg, cst.MaybeSentinel) else cst.ParamStar()
        kwonly = list(params.kwonly_params) + [cst.Param(cst.Name(k)) for k in keys]
        return updated.with_changes(params=params.with_changes(star_arg=star, kwonly_params=kwonly))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not isinstance(original.func, cst.Name) or original.func.value not in self.needs:
            return updated
        args = list(updated.args)
        for key in self.needs[original.func.value]:
            args.append(cst.Arg(cst.Name(key), keyword=cst.Name(key),
                                equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
        return updated.with_changes(args=args)
