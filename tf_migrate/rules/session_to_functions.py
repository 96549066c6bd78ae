"""Session elimination: every ``sess.run`` becomes a call of a generated function.

Placeholders become the function's arguments, the graph statements a run
needs (its backward slice) become the function's body, and its return value
has the structure of the fetches, as numpy. Sessions, graphs and initializer
runs disappear; variables stay where they were built (created once, eagerly).
Feed dicts that are not literals keep working: their placeholder keys become
strings and the function is called with ``**feed``.

Graph code kept on an object (``self.inputs = tf.placeholder(...)`` in
``__init__``, ``self.sess.run(...)`` in other methods) becomes generated
*methods*; per-run attributes become local names of those methods.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.escapes import traced_plan
from tf_migrate.analysis.expression_kinds import expression_kind
from tf_migrate.analysis.fed_rates import rate_variable
from tf_migrate.analysis.function_locals import eager_locals
from tf_migrate.analysis.imported_runs import is_imported
from tf_migrate.analysis.instance_runs import as_class_run, feed_literals
from tf_migrate.analysis.run_sites import GLOBAL_STEP, RunSite
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.analysis.slicing import RunPlan, plan_run
from tf_migrate.analysis.statement_facts import header_end
from tf_migrate.analysis.variable_owners import keras_owned_variables
from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.codegen import compiled
from tf_migrate.codegen.fed_fetches import FedArrays
from tf_migrate.codegen.fetches import one_tensor_fetch, to_numpy
from tf_migrate.codegen.function_builder import FunctionBuilder
from tf_migrate.codegen.object_member_calls import local_members, with_object_members
from tf_migrate.codegen.replace import rename_keys
from tf_migrate.codegen.session_params import drop_session_params
from tf_migrate.codegen.session_plumbing import without_sessions
from tf_migrate.codegen.shared_blocks import share_repeated_blocks
from tf_migrate.codegen.variable_updates import inline_variable_updates
from tf_migrate.cst.arguments import keyword
from tf_migrate.cst.cells import shown_expressions
from tf_migrate.cst.names import fresh, parameter_name
from tf_migrate.cst.statements import DiscardedConversions, DropBareNones, bare_none, only_pass, returns_value
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._class_graphs import (ClassGraph, FinishClasses, Generated, answer_asked_runs, answered_run,
                                            object_members_call, unfinished)
from tf_migrate.rules._edits import pep8_spaced, with_module_helper
from tf_migrate.rules._site_replacer import SiteReplacer
from tf_migrate.tfnames import PLAIN
from tf_migrate.traversal import visit

RULE_ID = "session-to-functions"


class SessionToFunctions(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.Session/placeholders/sess.run -> eager functions whose arguments are the fed "
                   "placeholders and whose return value has the fetches' structure, as numpy; in them tf.gradients "
                   "-> GradientTape.gradient (list return, sum over ys, output_gradients, watched tensors) and "
                   "minimize/compute_gradients/apply_gradients -> a tape step")
    ORDER = 500

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        rewriter = _ScopeRewriter(ctx, _all_names(module), keras_owned_variables(module, ctx.names) is not None)
        body = rewriter.rewrite(list(module.body), ())
        graphs = list(rewriter.class_graphs.values())
        answer_asked_runs(rewriter, graphs)
        body = [visit(node, FinishClasses(graphs)) for node in body] if graphs else body
        if unfinished(graphs):
            raise pm.ScopeBlocked(unfinished(graphs))
        tree = ctx.names.tree_helpers
        body, dropped = drop_session_params(body, rewriter.sessions, tree.sessions_given)
        tree.sessions_dropped.update(dropped)
        tree.sessions_dropped.update(rewriter.setters_dropped)  # their calls in importers go too
        module = module.with_changes(body=body)
        fed_arrays = rewriter.fed_arrays
        if rewriter.compiled_any or fed_arrays.used:  # `to_numpy(run_step(...))` as a line of its own: the
            # value goes unread (but for a notebook cell's last one, which the notebook shows: as TF1's run gave it)
            shown = shown_expressions(module) if ctx.path.endswith(".ipynb") else set()
            module = visit(module, DiscardedConversions(rewriter.to_numpy, shown, fed_arrays.wrappers()))
        # A run written back where it stood calls no helper: the names still used decide (read only when needed).
        used = _all_names(module) if rewriter.compiled_any or rewriter.concrete_any or fed_arrays.used else set()
        if rewriter.compiled_any and rewriter.to_numpy in used:
            module = with_module_helper(module, compiled.to_numpy_helper(rewriter.to_numpy))
        module = fed_arrays.finish(module, used, with_module_helper)
        if rewriter.concrete_any and rewriter.call_compiled in used:
            module = with_module_helper(module, compiled.call_compiled_helper(
                ctx.tf, rewriter.call_compiled, rewriter.compiled_traces), stdlib=["inspect", "weakref"])
        return module


def _all_names(node: cst.CSTNode) -> Set[str]:
    return {key.split(".")[-1] for key in reads(node)} | set(writes(node))


def _placeholders_seen(scope, st: "pm.Statement") -> Set[str]:
    """The names ``st`` reads that hold placeholders where it stands and that it does not bind again: a feed dict
    built before a loop rebinds the name (``feed_dict = {x: X}``, then ``for x in range(n)``) names the placeholder,
    though the name's last binding is not one."""
    rebound = set(writes(st.node))
    return {key for key in reads(st.node) if key not in rebound
            and (symbol := scope.symbol_at(key, st.index)) is not None and symbol.kind == pm.PLACEHOLDER}


def _function_name(plan: RunPlan, taken: Set[str], prefix: str = "run_") -> str:
    fetch = plan.site.fetch
    elements = [e.value for e in fetch.elements] if isinstance(fetch, (cst.List, cst.Tuple)) else [fetch]
    if isinstance(fetch, cst.Dict):
        elements = [e.value for e in fetch.elements if isinstance(e, cst.DictElement)]
    parts = [symbol_key(e).split(".")[-1] for e in elements if symbol_key(e) is not None]
    return fresh(prefix + "_".join(parts[:3]) if parts and len(parts) == len(elements) else prefix + "fetches", taken)


class _ScopeRewriter:
    def __init__(self, ctx: RuleContext, taken: Set[str], keras_variables: bool = False) -> None:
        self.ctx = ctx
        self.keras_variables = keras_variables
        self._site_of: Dict[str, cst.Call] = {}  # generated function -> the first sess.run it replaces
        self.taken = taken
        self.sessions: Set[str] = set()
        self._placeholder_calls: Dict[str, cst.Call] = {}
        self._feed_literals: Set[int] = set()  # the scope's dicts of fed tensors (pm.Scope.feed_literals)
        self.compiled_any = self.concrete_any = False
        self.to_numpy = fresh(compiled.TO_NUMPY, taken)
        taken.add(self.to_numpy)
        self.call_compiled = fresh(compiled.CALL_COMPILED, taken)
        taken.add(self.call_compiled)
        self.compiled_traces = fresh(compiled.COMPILED_TRACES, taken)
        taken.add(self.compiled_traces)
        self.fed_arrays = FedArrays(ctx.names.aliases, taken)  # runs that fetch what they feed
        self._scope = None
        self.class_graphs: Dict[int, ClassGraph] = {}  # id of a class statement -> its graph and runs
        self.outside_feeds: Set[int] = set()  # named feed dicts of runs of a class's graph from outside it
        self.setters_dropped: Dict[str, Tuple[int, str]] = {}  # Class#set_session -> (SETTER, parameter): importers

    # -- module and function scopes --------------------------------------------------------
    def rewrite(self, body: List[cst.BaseStatement], params: Tuple[str, ...], parent=None) -> List[cst.BaseStatement]:
        names = self.ctx.names
        scope = analyze_scope(body, names, params, layer_scopes=self.ctx.layer_scopes, parent=parent)
        self._scope = scope
        self.sessions |= {k for k in scope.sessions if "." not in k}
        if not scope.is_graph_program:
            if scope.object_blockers:  # (the classes it builds objects of are converted as its statements)
                raise pm.ScopeBlocked(scope.object_blockers)
            kept = [self._rewrite_statement(st.node, scope.replacements, set(), st) for st in scope.statements]
            return [node for node in kept if node is not None] if not scope.withs else body
        if scope.blockers:
            raise pm.ScopeBlocked(scope.blockers)
        classifier = Classifier(scope, names)
        builder = FunctionBuilder(scope, names, self.ctx.tf, classifier.kind_of, self.taken, self.keras_variables)
        generated = Generated()
        for st in scope.statements:
            if st.role == pm.REMOVE:
                continue
            limit = len(scope.statements) if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)) else st.index
            local_eager = eager_locals(st.node, scope) if isinstance(st.node, cst.FunctionDef) else set()
            for site in st.run_sites:
                if site.instance is not None:  # a run of a class's graph, through an object of it
                    generated.replacements[id(site.call)] = answered_run(self, site, scope) \
                        if is_imported(site.instance_class, scope) else \
                        self.class_graph(scope.class_defs[site.instance_class]).run_outside(as_class_run(site, scope))
                    if not isinstance(site.feed, cst.Dict):  # its literals' keys become parameter names
                        self.outside_feeds.update(map(id, feed_literals(site, scope)))
                    continue
                plan = plan_run(scope, site, limit)
                once = parent is None and site.home is None and compiled.runs_once(st.node, id(site.call))
                generated.replacements[id(site.call)] = self.call_for(plan, scope, builder, classifier, generated,
                                                                      limit=limit, local_eager=local_eager, once=once)
        for node_id, (key, attribute, index) in scope.static_reads.items():
            site = RunSite(cst.Call(cst.Name("static")), "run", cst.parse_expression(key), None)
            once = parent is None and compiled.runs_once(scope.statements[index].node, node_id)
            call = self.call_for(plan_run(scope, site, index), scope, builder, classifier, generated, limit=index,
                                 once=once)
            value = f"{self.ctx.tf}.as_dtype({code(call)}.dtype)" if attribute == "dtype" else \
                f"{self.ctx.tf}.TensorShape({code(call)}.shape)"
            generated.replacements[node_id] = cst.parse_expression(value)
            self.ctx.report(None, RULE_ID, INFO, f"static {attribute} of `{key}` computed once: it needs no feeds")
        for node_id, (key, index, attribute) in scope.described.items():
            # TF1 printed the graph tensor's description, or read its static shape: its run function's trace
            # shows the same.
            name = self._function_for(traced_plan(scope, key, index), scope, builder, generated, limit=index,
                                      traced=True)
            generated.replacements[node_id] = cst.parse_expression(
                f"{name}.get_concrete_function().structured_outputs" + (f".{attribute}" if attribute else "")
                + ("()" if attribute == "get_shape" else ""))
            what = f"static {attribute} of" if attribute else "printed"
            self.ctx.report(None, RULE_ID, INFO, f"{what} `{key}`: from the trace of {name}()")
        return self.assemble(scope, generated, top=parent is None)

    def assemble(self, scope, generated: Generated, top: bool = False) -> List[cst.BaseStatement]:
        self._placeholder_calls = {k: s.call for k, s in scope.symbols.items()
                                   if s.kind == pm.PLACEHOLDER and s.call is not None}
        replacements = dict(scope.replacements)
        replacements.update(generated.replacements)
        placeholder_keys = {k for k, s in scope.symbols.items() if s.kind == pm.PLACEHOLDER}
        self._feed_literals = scope.feed_literals | self.outside_feeds
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
                pending_lines = [line for line in lead if line.comment]  # (the statement's own comments go with it)
                if st.role == pm.REMOVE:
                    self.ctx.report(node, RULE_ID, INFO, "removed TF1 session/graph plumbing")
                elif not st.defines:
                    self.ctx.report(node, RULE_ID, INFO, "dropped an op that no sess.run ever runs")
            else:
                node = self._rewrite_statement(node, replacements, placeholder_keys | _placeholders_seen(scope, st), st)
                if node is None:
                    pending_lines = [line for line in lead if line.comment]
                    continue
                if lead:
                    node = node.with_changes(leading_lines=lead + list(node.leading_lines))
                if id(st.node) in scope.fed_rates:  # the variable its callable learning rate reads
                    out.append(cst.parse_statement(rate_variable(scope.fed_rates[id(st.node)], self.ctx.tf)))
                out.append(node)
            out.extend(generated.by_position.get(st.index, []))
        out.extend(generated.by_position.get(-1, []))
        if not out:
            out.append(cst.SimpleStatementLine([cst.Pass()]))
        out, generated_ids = self.shared(out, {id(f) for fs in generated.by_position.values() for f in fs})
        out, generated_ids, inlined = inline_variable_updates(out, generated_ids, self.to_numpy, self.call_compiled,
                                                              keep_numpy=self.ctx.path.endswith(".ipynb"))
        for name in inlined:
            self.ctx.report(self._site_of.get(name), RULE_ID, INFO, f"{name}() only updated one variable: the "
                            "update is written where the run stood, eager")
        return pep8_spaced(out, generated_ids, blank=2 if top else 1)

    def shared(self, body: List[cst.BaseStatement], generated_ids: Set[int], methods: bool = False):
        """``body`` with the forward code its generated functions repeat moved into helpers they call
        (:mod:`tf_migrate.codegen.shared_blocks`), and the ids of the generated definitions in it."""
        positions = [i for i, node in enumerate(body) if id(node) in generated_ids]
        functions, helpers = share_repeated_blocks([body[i] for i in positions], self.taken, methods)
        for order, helper_list in helpers.items():
            site = self._site_of.get(functions[order].name.value)  # the run its first caller replaces
            for helper in helper_list:
                self.ctx.report(site, RULE_ID, INFO, f"{helper.name.value}(): statements that generated functions "
                                "repeated, written once and called from each")
        out: List[cst.BaseStatement] = []
        for index, node in enumerate(body):
            if index in positions:
                order = positions.index(index)
                out.extend(helpers.get(order, []))
                node = functions[order]
            out.append(node)
        return out, {id(f) for f in functions} | {id(h) for hs in helpers.values() for h in hs}

    def call_for(self, plan, scope, builder, classifier, generated: Generated, owner: str = "",
                 rename=None, position=None, limit=None, local_eager=frozenset(), plain: bool = False,
                 once: bool = False) -> cst.BaseExpression:
        """The call that replaces the run of ``plan`` (``plain``: of a function returning tensors, which other
        generated functions call: analysis/object_members; ``once``: a module-level run outside loops, which
        calls a compiled function directly: ``compiled.runs_once``)."""
        call = self._call_for(plan, scope, builder, classifier, generated, owner, rename, position, limit,
                              local_eager, plain, once)
        if plan.site.style == GLOBAL_STEP:  # tf.train.global_step(sess, step): int(sess.run(step))
            return cst.Call(cst.Name("int"), args=[cst.Arg(call)])
        if plan.site.style != "op_run" and not plain:  # TF1 gave a fetched feed back as the array fed
            call = self.fed_arrays.wrap(call, plan.site.fetch, [key for key, _ in plan.fed])
        return call

    def _call_for(self, plan, scope, builder, classifier, generated, owner, rename, position, limit, local_eager,
                  plain, once) -> cst.BaseExpression:
        site = plan.site
        view = scope.at(plan.limit)  # the values bound where the run stands

        def kind_of(expr: cst.BaseExpression):
            return expression_kind(expr, view, self.ctx.names)

        if not plan.needs_function and not any(view.deferred(k) for k in reads(site.fetch)):
            self.ctx.report(site.call, RULE_ID, INFO, "sess.run of eager values -> .numpy()")
            return _on(owner, site, to_numpy(site.fetch, view, kind_of, self.ctx.tf, run_ops=True))
        if plan.feeds_unread and all(k in local_eager or view.kind(k) == pm.EAGER for k in reads(site.fetch)):
            self.ctx.report(site.call, RULE_ID, INFO, "sess.run of eager values, with feeds they do not read -> .numpy()")
            return _on(owner, site, to_numpy(site.fetch, view, kind_of, self.ctx.tf, run_ops=True))
        name = self._function_for(plan, scope, builder, generated, owner, rename, position, limit, plain=plain)
        if plan.dynamic_feed:
            args = [cst.Arg(site.feed, star="**")] if site.feed is not None else []
        else:
            constant = generated.flags_compiled_for.get(name, set())
            args = [keyword(parameter_name(key), compiled.fed_argument(value, plan.fed_symbols.get(key), view,
                                                                      self.ctx.names, self.ctx.tf)
                            if name in generated.unsigned else value)
                    for key, value in plan.fed if parameter_name(key) not in constant]
        args += [keyword(key, cst.Name(key)) for key in generated.iterator_args.get(name, ())]
        function = cst.parse_expression(f"{owner}{name}")
        if name in generated.concrete and (plan.keys_known or not plan.dynamic_feed) \
                and not (once and not owner and not plan.dynamic_feed):
            call = cst.Call(cst.Name(self.call_compiled), args=[cst.Arg(function), *args])
            self.concrete_any = True
        else:
            call = cst.Call(function, args=args)
        if name in generated.compiled and site.style != "op_run":
            if one_tensor_fetch(site.fetch, view, kind_of):
                return cst.Call(cst.Attribute(call, cst.Name("numpy")))
            return cst.Call(cst.Name(self.to_numpy), args=[cst.Arg(call)])  # numpy, as sess.run returned
        return call

    def _function_for(self, plan, scope, builder, generated: Generated, owner: str = "", rename=None,
                      position=None, limit=None, traced: bool = False, plain: bool = False) -> str:
        """The name of the generated function of ``plan`` (made and placed on first use). ``traced``: one
        whose trace is read (a ``tf.function`` also under ``--functions eager``)."""
        site = plan.site
        view = scope.at(plan.limit)
        bindings = tuple(sorted((key, view.symbols[key].index) for key in reads(site.fetch) if key in view.symbols))
        compiled_mode = self.ctx.functions == compiled.COMPILED
        style = "traced" if traced and not compiled_mode else PLAIN if plain else site.style
        signature = (code(site.fetch), bindings, tuple(k for k, _ in plan.fed), plan.dynamic_feed, style,
                     tuple(sorted(plan.fed_bools.items())))  # a flag fed one literal: a function specialized on it
        name = generated.signatures.get(signature)
        if name is not None:
            return name
        name = _function_name(plan, self.taken, "compute_" if plain else "run_")
        generated.signatures[signature] = name
        if plain:
            function = builder.build(plan, name, plain=True)
            function = _as_method(function, rename(plan, function))
            generated.by_position.setdefault(position, []).append(function)
            return name
        plan = with_object_members(plan, lambda members: object_members_call(self, members))
        compile_it = compiled_mode or traced
        if compile_it and not traced:
            why = compiled.why_eager(plan, view)
            compile_it = why is None
            if why is not None:
                self.ctx.report(site.call, RULE_ID, INFO, f"{name}() stays eager: {why}")
        function = local_members(builder.build(plan, name, compile_it), plan, scope)
        if compile_it:
            generated.iterator_args[name] = compiled.iterator_parameters(plan, builder.scope)
        params = {param.name.value for param in function.params.params}
        constant = {parameter_name(k) for k, _ in plan.fed} - params
        if constant:
            generated.flags_compiled_for[name] = constant
            self.ctx.report(site.call, RULE_ID, INFO, f"{name}() is compiled for "
                            + ", ".join(f"`{k}` = {v}" for k, v in sorted(plan.fed_bools.items())
                                        if parameter_name(k) in constant)
                            + ", the value every run of it feeds: one trace, without a Python argument to bind")
        if compile_it and not traced and compiled.calls_concretely(
                function, [parameter_name(k) for k, _ in plan.fed if parameter_name(k) not in constant]):
            generated.concrete.add(name)
        if compile_it and not compiled.signed(function) and plan.fed:
            generated.unsigned.add(name)
        if compile_it and returns_value(function):
            generated.compiled.add(name)
            self.compiled_any = True
        if owner:
            function = _as_method(function, rename(plan, function))
        if position is None:
            position = max((st.index for st in scope.statements[:limit]
                            if st.role != pm.REMOVE and set(st.defines) & plan.reads), default=-1)
            if position == -1:
                position = header_end(scope)
        generated.by_position.setdefault(position, []).append(function)
        if not traced:
            self._site_of.setdefault(name, site.call)
            self.ctx.report(site.call, RULE_ID, INFO, f"sess.run -> {name}(), a function of the fed placeholders")
        return name

    def _rewrite_statement(self, node, replacements, placeholder_keys, st) -> Optional[cst.BaseStatement]:
        """The statement rewritten (None: a main guard left with nothing to do, removed)."""
        node = visit(node, SiteReplacer(replacements, placeholder_keys, self._placeholder_calls, self.ctx.tf,
                                         self._feed_literals, self._scope.sessions))
        if bare_none(node):  # `sess.run(model.init_op)`: the run of an op alone, done
            return None
        if st.run_sites and not isinstance(node, cst.SimpleStatementLine):  # (only a block a run stood in)
            node = visit(node, DropBareNones())
        if id(st.node) in self._scope.session_functions:  # a main() on this graph: its session goes
            node = without_sessions(node, self._scope.session_functions[id(st.node)], self._scope, self.ctx.names)
        if isinstance(node, (cst.FunctionDef, cst.If)) and st.kind == "nested-scope":
            new_body = self.rewrite_nested(node, self._scope)
            if isinstance(node, cst.If) and only_pass(new_body):
                self.ctx.report(st.node, RULE_ID, INFO, "main guard removed: it only built graph values no run uses")
                return None
            node = node.with_changes(body=node.body.with_changes(body=new_body))
        elif isinstance(node, cst.ClassDef) and st.kind == "nested-scope":
            node = self._rewrite_class(node)
        return node

    def rewrite_nested(self, node: cst.CSTNode, parent: "pm.Scope") -> List[cst.BaseStatement]:
        """The body of a scope of its own (a function, a main guard, a method that opens its session), converted
        inside ``parent``; the scope being written stays the one it was."""
        outer, outer_placeholders, outer_feeds = self._scope, self._placeholder_calls, self._feed_literals
        new_body = self.rewrite(*pm.nested_scope_body(node), parent=parent)
        self._scope, self._placeholder_calls, self._feed_literals = outer, outer_placeholders, outer_feeds
        return new_body

    # -- class scopes ----------------------------------------------------------------------
    scope = property(lambda self: self._scope, doc="The scope whose statements are being written.")

    def enter_scope(self, scope: "pm.Scope") -> "pm.Scope":
        """Make ``scope`` the one whose statements are being written; the one it replaces."""
        previous, self._scope = self._scope, scope
        return previous

    def class_graph(self, cls: cst.ClassDef) -> ClassGraph:
        graph = self.class_graphs.get(id(cls))
        if graph is None:
            graph = self.class_graphs[id(cls)] = ClassGraph(self, cls, self._scope)
        return graph

    def _rewrite_class(self, cls: cst.ClassDef) -> cst.ClassDef:
        """Plan the runs of the class's graph; the class is written at the end (``FinishClasses``)."""
        self.class_graph(cls).outer = self._scope
        return cls


def _on(owner: str, site: RunSite, value: cst.BaseExpression) -> cst.BaseExpression:
    """``value``, read from the class's members, as the caller reads them: through the object ``owner``
    (``net.``) for a run from outside the class (``self.w.numpy()`` -> ``net.w.numpy()``)."""
    if not owner or owner == "self.":
        return value
    return rename_keys(value, {key: owner + key[len("self."):] for key in reads(site.fetch) if key.startswith("self.")})


def _as_method(function: cst.FunctionDef, mapping: Dict[str, str]) -> cst.FunctionDef:
    body = rename_keys(function.body, mapping)
    params = function.params.with_changes(params=[cst.Param(cst.Name("self"))] + list(function.params.params))
    return function.with_changes(body=body, params=params)
