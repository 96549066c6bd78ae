"""Session elimination: every ``sess.run`` becomes a call of a generated function.

Placeholders become the function's arguments, the graph statements a run
needs (its backward slice) become the function's body, and its return value
has the structure of the fetches, as numpy. Sessions, graphs and initializer
runs disappear; variables stay where they were built (created once, eagerly).
Feed dicts that are not literals keep working: their placeholder keys become
strings and the function is called with ``**feed``.
"""
from __future__ import annotations

from typing import Dict, List, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.program import analyze_scope
from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.codegen.fetches import to_numpy
from tf_migrate.codegen.function_builder import FunctionBuilder
from tf_migrate.codegen.slicing import RunPlan, plan_run
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "session-to-functions"


class ScopeBlocked(Exception):
    """The scope has constructs this rule cannot convert (see its blockers)."""


class SessionToFunctions(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.Session/placeholders/sess.run -> eager functions whose arguments are the fed "
                   "placeholders and whose return value has the fetches' structure, as numpy")
    ORDER = 500

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        taken = _all_names(module)
        body = _ScopeRewriter(ctx, taken).rewrite(list(module.body), ())
        return module.with_changes(body=body)


def _all_names(node: cst.CSTNode) -> Set[str]:
    return {key.split(".")[-1] for key in reads(node)} | set(writes(node))


def _function_name(plan: RunPlan, taken: Set[str]) -> str:
    fetch = plan.site.fetch
    elements = [e.value for e in fetch.elements] if isinstance(fetch, (cst.List, cst.Tuple)) else [fetch]
    if isinstance(fetch, cst.Dict):
        elements = [e.value for e in fetch.elements if isinstance(e, cst.DictElement)]
    parts = [symbol_key(e).split(".")[-1] for e in elements if symbol_key(e) is not None]
    stem = "run_" + "_".join(parts[:3]) if parts and len(parts) == len(elements) else "run_fetches"
    name, n = stem, 1
    while name in taken:
        n += 1
        name = f"{stem}_{n}"
    taken.add(name)
    return name


class _ScopeRewriter:
    def __init__(self, ctx: RuleContext, taken: Set[str]) -> None:
        self.ctx = ctx
        self.taken = taken

    def rewrite(self, body: List[cst.BaseStatement], params: Tuple[str, ...]) -> List[cst.BaseStatement]:
        names = self.ctx.names
        scope = analyze_scope(body, names, params)
        if not scope.is_graph_program:
            return [self._rewrite_statement(st.node, {}, set(), st) if st.kind == "nested-scope" else st.node
                    for st in scope.statements] if not scope.withs else body
        if scope.blockers:
            raise ScopeBlocked(scope.blockers)
        classifier = Classifier(scope, names)
        builder = FunctionBuilder(scope, names, self.ctx.tf, classifier.kind_of, self.taken)
        signatures: Dict[tuple, str] = {}
        functions: Dict[int, List[cst.FunctionDef]] = {}
        replacements: Dict[int, cst.BaseExpression] = {}
        for st in scope.statements:
            limit = len(scope.statements) if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)) else st.index
            if st.role == pm.REMOVE:
                continue
            for site in st.run_sites:
                plan = plan_run(scope, site, limit)
                replacements[id(site.call)] = self._call_for(plan, scope, builder, classifier, signatures, functions)
        placeholder_keys = {k for k, s in scope.symbols.items() if s.kind == pm.PLACEHOLDER}
        out: List[cst.BaseStatement] = []
        pending_lines: List[cst.EmptyLine] = []
        seen_withs: Set[int] = set()
        for st in scope.statements:
            node = st.node
            lead = list(pending_lines)
            for with_node in st.flat.unwrapped_from:
                if id(with_node) not in seen_withs:
                    seen_withs.add(id(with_node))
                    lead += list(with_node.leading_lines)
            pending_lines = []
            if st.role in (pm.REMOVE, pm.DEFER):
                kept = [line for line in lead + list(getattr(node, "leading_lines", [])) if line.comment]
                if st.role == pm.REMOVE:
                    self.ctx.report(node, RULE_ID, INFO, "removed TF1 session/graph plumbing")
                    pending_lines = kept
                else:
                    pending_lines = [line for line in lead if line.comment]
                    if not st.defines:
                        self.ctx.report(node, RULE_ID, INFO, "dropped an op that no sess.run ever runs")
            else:
                node = self._rewrite_statement(node, replacements, placeholder_keys, st)
                if lead:
                    node = node.with_changes(leading_lines=lead + list(node.leading_lines))
                out.append(node)
            out.extend(functions.get(st.index, []))
        out.extend(functions.get(-1, []))
        if pending_lines and out:
            pass
        if not out:
            out.append(cst.SimpleStatementLine([cst.Pass()]))
        return out

    def _call_for(self, plan, scope, builder, classifier, signatures, functions) -> cst.BaseExpression:
        site = plan.site
        fetch_keys = reads(site.fetch)
        if not plan.needs_function and not any(scope.deferred(k) for k in fetch_keys):
            self.ctx.report(site.call, RULE_ID, INFO, "sess.run of eager values -> .numpy()")
            value = to_numpy(site.fetch, scope, classifier.kind_of, self.ctx.tf)
            return value
        code = cst.Module([]).code_for_node(site.fetch)
        signature = (code, tuple(k for k, _ in plan.fed), plan.dynamic_feed, site.style)
        name = signatures.get(signature)
        if name is None:
            name = _function_name(plan, self.taken)
            signatures[signature] = name
            position = max((st.index for st in scope.statements
                            if st.role != pm.REMOVE and set(st.defines) & plan.reads), default=-1)
            if position == -1:
                position = _first_non_import(scope)
            functions.setdefault(position, []).append(builder.build(plan, name))
            self.ctx.report(site.call, RULE_ID, INFO, f"sess.run -> {name}(), a function of the fed placeholders")
        if plan.dynamic_feed:
            args = [cst.Arg(site.feed, star="**")] if site.feed is not None else []
        else:
            args = [cst.Arg(value, keyword=cst.Name(key.split(".")[-1]),
                            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
                    for key, value in plan.fed]
        return cst.Call(cst.Name(name), args=args)

    def _rewrite_statement(self, node, replacements, placeholder_keys, st) -> cst.BaseStatement:
        node = node.visit(_SiteReplacer(replacements, placeholder_keys))
        if isinstance(node, cst.FunctionDef) and st.kind == "nested-scope":
            params = tuple(p.name.value for p in node.params.params)
            new_body = self.rewrite(list(node.body.body), params)
            node = node.with_changes(body=node.body.with_changes(body=new_body))
        return node


def _first_non_import(scope: "pm.Scope") -> int:
    index = -1
    for st in scope.statements:
        if isinstance(st.node, cst.SimpleStatementLine) and all(
                isinstance(s, (cst.Import, cst.ImportFrom)) for s in st.node.body):
            index = st.index
        elif isinstance(st.node, cst.SimpleStatementLine) and st.index == 0 and isinstance(
                st.node.body[0], cst.Expr) and isinstance(st.node.body[0].value, cst.SimpleString):
            index = st.index
        else:
            break
    return index


class _SiteReplacer(cst.CSTTransformer):
    """Swap run sites for generated calls and placeholder feed keys for strings."""

    def __init__(self, replacements, placeholder_keys) -> None:
        self.replacements = replacements
        self.placeholders = placeholder_keys

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return True

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return self.replacements.get(id(original), updated)

    def leave_DictElement(self, original: cst.DictElement, updated: cst.DictElement) -> cst.DictElement:
        key = symbol_key(original.key)
        if key in self.placeholders:
            return updated.with_changes(key=cst.SimpleString(repr(key.split(".")[-1])))
        return updated

    def leave_SubscriptElement(self, original, updated):
        if isinstance(original.slice, cst.Index):
            key = symbol_key(original.slice.value)
            if key in self.placeholders:
                return updated.with_changes(slice=cst.Index(cst.SimpleString(repr(key.split(".")[-1]))))
        return updated
