"""Graph code kept on an object, converted: the class's generated methods, and the runs that call them.

``__init__`` builds the graph (``self.inputs = tf.placeholder(...)``, ``self.q = ...``); a run of it
becomes a generated method of the class whose parameters are the fed placeholders, and per-run
attributes become locals of those methods. A run may stand in a method of the class
(``self.sess.run(self.q, {self.inputs: s})`` -> ``self.run_q(inputs=s)``) or outside it, through an
object of the class (``sess.run(net.q, {net.inputs: s})`` -> ``net.run_q(inputs=s)``,
:mod:`tf_migrate.analysis.instance_runs`). Runs outside the class may come after the class statement
was reached (in a ``main()`` defined after it), so a class is written once every scope of the module
is rewritten (:meth:`ClassGraph.finish`).
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.class_scope import analyze_class, run_blockers
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.imported_runs import asked_sites, fed_values, is_imported, request_of
from tf_migrate.analysis.object_members import plain_request
from tf_migrate.analysis.instance_runs import as_class_run, external_run_blockers
from tf_migrate.analysis.object_graphs import object_graph
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.scoped_objects import scoped_answer
from tf_migrate.analysis.session_functions import local_sessions
from tf_migrate.analysis.session_setters import SETTER, setter_attribute
from tf_migrate.analysis.slicing import RunPlan, member_parts, plan_run
from tf_migrate.analysis.symbols import reads, target_keys, writes
from tf_migrate.codegen.class_run_calls import answer_template, filled_answer
from tf_migrate.codegen.fetches import computed_to_numpy, to_numpy
from tf_migrate.codegen.function_builder import FunctionBuilder
from tf_migrate.codegen.session_plumbing import without_sessions
from tf_migrate.cst.names import parameter_name
from tf_migrate.cst.statements import DropBareNones, split_call_lists
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules._site_replacer import SiteReplacer
from tf_migrate.tfnames import (ANSWER_CALL_COMPILED, ANSWER_OBJECT, ANSWER_TO_NUMPY, MEMBERS_REQUEST, PLAIN,
                                SCOPED_VARIABLES_REQUEST, feed_value)
from tf_migrate.traversal import visit

RULE_ID = "session-to-functions"  # the rule these parts belong to (rules/session_to_functions)


class Generated:
    """The functions generated for one scope, by insertion position."""

    def __init__(self) -> None:
        self.signatures: Dict[tuple, str] = {}
        self.compiled: Set[str] = set()  # names of the generated functions that are tf.functions
        self.concrete: Set[str] = set()  # those called through their concrete function (compiled.CALL_COMPILED)
        self.unsigned: Set[str] = set()  # compiled ones without an input signature: their calls convert the feeds
        self.iterator_args: Dict[str, List[str]] = {}  # compiled function -> the iterators it takes
        self.flags_compiled_for: Dict[str, Set[str]] = {}  # function -> fed flags bound in its body instead
        self.by_position: Dict[int, List[cst.FunctionDef]] = {}
        self.replacements: Dict[int, cst.BaseExpression] = {}


class ClassGraph:
    """One class whose ``__init__`` builds a graph, with the runs of it found so far."""

    def __init__(self, rewriter, cls: cst.ClassDef, outer: "pm.Scope") -> None:
        ctx = rewriter.ctx
        self.rewriter, self.cls, self.outer = rewriter, cls, outer
        self.analysis = analyze_class(cls, ctx.names, ctx.layer_scopes)
        if self.analysis.blockers:
            raise pm.ScopeBlocked(self.analysis.blockers)
        self.scope = self.analysis.scope
        rewriter.sessions |= {k for k in self.scope.sessions if "." not in k}
        self.classifier = Classifier(self.scope, ctx.names)
        self.builder = FunctionBuilder(self.scope, ctx.names, ctx.tf, self.classifier.kind_of, rewriter.taken,
                                       rewriter.keras_variables)
        self.generated = Generated()
        self.promoted: Dict[str, str] = {}  # __init__ local -> the attribute generated methods read it from
        self.finished = False
        for _, sites in self.analysis.method_sites:
            for site in sites:
                self.generated.replacements[id(site.call)] = self.run(site, "self.")
        for site in self.analysis.held_runs:  # a run of an object the class holds: a method of the object's class
            self.generated.replacements[id(site.call)] = answered_run(rewriter, site, self.scope) \
                if is_imported(site.instance_class, outer) else \
                rewriter.class_graph(outer.class_defs[site.instance_class]).run_outside(as_class_run(site, self.scope))

    def _rename(self, plan: RunPlan, function: cst.FunctionDef) -> Dict[str, str]:
        # What the generated body reads and does not bind: the plan's reads, and names that rewritten
        # statements brought in (a collection resolved to the layers that own its variables).
        bound = set(writes(function.body))
        free = reads(function.body) - bound - {p.name.value for p in function.params.params}
        members = {key for key in bound if key.startswith("self.")}  # a per-run member a kept branch also binds
        params = set(plan.parameter_keys)
        mapping = {}
        for key in sorted(set(plan.reads) | free | members):
            if "." not in key and _loop_bound(function.body, key):
                continue  # for layer in self.layers: the loop's own `layer`, not the __init__ local of that name
            if key.startswith("self.") and self.scope.deferred(key):  # a parameter, or a local of its name
                mapping[key] = parameter_name(key) if key in params else key.split(".", 1)[1]
            elif key in self.analysis.init_locals:
                self.promoted.setdefault(key, self.analysis.attribute_for(key))
                mapping[key] = self.promoted[key]
        return mapping

    def run(self, site: RunSite, owner: str) -> cst.BaseExpression:
        """The call of the generated method that runs ``site`` (written as the class would), on ``owner``
        (``self.`` or ``net.``)."""
        if id(site.call) in self.analysis.eager_runs:  # it reads the method's own values and no per-run one
            self.rewriter.ctx.report(site.call, "session-to-functions", INFO, "sess.run of values the method computes "
                                     "from its own and the variables' -> computed where it stands, .numpy()")
            return computed_to_numpy(site.fetch, self.classifier.kind_of, self.rewriter.ctx.tf, self._returned)
        plan = plan_run(self.scope, site, len(self.scope.statements))
        return self.rewriter.call_for(plan, self.scope, self.builder, self.classifier, self.generated,
                                      owner=owner, rename=self._rename, position=0)

    def _returned(self, expr: cst.BaseExpression):
        """For ``self.m(...)`` of a method of the class ending in ``return value``: that value (else None)."""
        if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute)
                and isinstance(expr.func.value, cst.Name) and expr.func.value.value == "self"):
            return None
        method = next((m for m in self.cls.body.body if isinstance(m, cst.FunctionDef)
                       and m.name.value == expr.func.attr.value), None)
        last = method.body.body[-1] if method is not None and method.body.body else None
        if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Return):
            return last.body[0].value
        return None

    def members_call(self, instance: str, attributes, feeds, promoted: Dict[str, str], values=None
                     ) -> cst.BaseExpression:
        """The call, on ``instance``, of a method returning its per-run ``attributes`` as tensors, computed from the
        fed placeholders ``feeds`` (``model.compute_loss(x=model.x)``), for a run of the scope that built the
        object (analysis/object_members); the locals of ``__init__`` that scope trains are kept on the object.
        ``values``: the fed values (by default ``instance.f`` for each placeholder ``f``)."""
        for local, attribute in promoted.items():
            self.promoted.setdefault(local, f"self.{attribute}")
        fetch = cst.parse_expression(", ".join(f"self.{a}" for a in attributes) if len(attributes) == 1 else
                                     "[" + ", ".join(f"self.{a}" for a in attributes) + "]")
        values = values or [f"{instance}.{f}" for f in feeds]
        feed = cst.parse_expression("{" + ", ".join(f"self.{f}: {v}" for f, v in zip(feeds, values)) + "}")
        site = RunSite(cst.Call(cst.Name("members")), "run", fetch, feed)
        plan = plan_run(self.scope, site, len(self.scope.statements))
        if plan.conflicts:
            raise pm.ScopeBlocked([(self.cls, f"`{instance}`'s members {', '.join(attributes)}: {plan.conflicts[0]}")])
        return self.rewriter.call_for(plan, self.scope, self.builder, self.classifier, self.generated,
                                      owner=f"{instance}.", rename=self._rename, position=0, plain=True)

    def run_outside(self, site: RunSite) -> cst.BaseExpression:
        """``site``, a run from outside the class (as the class writes it), as a call on its object."""
        blockers = external_run_blockers(self.scope, site, self.classifier, self.rewriter.ctx.names)
        blockers += run_blockers(self.scope, site)
        if blockers:
            raise pm.ScopeBlocked(blockers)
        return self.run(site, f"{site.instance}.")

    def finish(self, current: cst.ClassDef) -> cst.ClassDef:
        """The converted class: ``current`` (the class as the module holds it now) with ``__init__``
        keeping what it builds once, and the generated methods after it."""
        rewriter, init = self.rewriter, self.analysis.init
        name = self.cls.name.value
        for local in sorted(rewriter.ctx.kept_for_savers.get(name, set()) | rewriter.ctx.names.kept_locals.get(
                name, set())):  # a Saver or a variable collection outside the class reaches them
            if local not in self.analysis.init_locals:
                raise pm.ScopeBlocked([(self.cls, f"`{local}`, a variable code outside the class reaches, is no "
                                                  "longer a local of __init__")])
            self.promoted.setdefault(local, self.analysis.attribute_for(local))
        saved = rewriter.enter_scope(self.outer)
        init_runs = Generated()
        for index, site in self.analysis.init_runs:  # values __init__ has where the run stands: eager code there
            view = self.scope.at(index)
            init_runs.replacements[id(site.call)] = site.fetch if _discarded(self.scope.statements[index].node, site) \
                else to_numpy(site.fetch, view, Classifier(view, rewriter.ctx.names).kind_of, rewriter.ctx.tf,
                              run_ops=True)
        init_body = split_call_lists(rewriter.assemble(self.scope, init_runs))
        rewriter.enter_scope(saved)
        init_body = self.analysis.insert_promotions(init_body, self.promoted)
        new_init = init.with_changes(body=init.body.with_changes(body=init_body))
        placeholder_keys = {k for k, s in self.scope.symbols.items() if s.kind == pm.PLACEHOLDER}
        members = []
        own_scopes = {method.name.value for method in self.analysis.own_scopes}
        for stmt in current.body.body:
            if stmt is init:
                members.append(new_init)
                members.extend(self.generated.by_position.get(0, []))
            elif isinstance(stmt, cst.FunctionDef) and setter_attribute(current, stmt.name.value) is not None:
                rewriter.setters_dropped[f"{current.name.value}#{stmt.name.value}"] = (
                    SETTER, stmt.params.params[1].name.value)
                continue  # set_session(self, session): its runs are methods now, eager code has no session to give
            elif isinstance(stmt, cst.FunctionDef) and stmt.name.value in own_scopes:  # fit(): its own program
                body = rewriter.rewrite_nested(stmt, self.outer)
                members.append(stmt.with_changes(body=stmt.body.with_changes(body=body)))
            else:
                member = visit(stmt, SiteReplacer(self.generated.replacements, placeholder_keys))
                if member is not stmt and isinstance(member, cst.FunctionDef):  # `self.sess.run(init)`: None, gone
                    member = visit(member, DropBareNones())
                opened = local_sessions(stmt, rewriter.ctx.names) if isinstance(stmt, cst.FunctionDef) else set()
                if opened:  # train(): `with tf.Session() as sess:` around runs that are calls of methods now
                    member = visit(without_sessions(member, opened, self.scope, rewriter.ctx.names), DropBareNones())
                members.append(member)
        members, _ = rewriter.shared(members, {id(f) for f in self.generated.by_position.get(0, [])}, methods=True)
        self.finished = True
        return current.with_changes(body=current.body.with_changes(body=members))


def _loop_bound(body: cst.CSTNode, name: str) -> bool:
    """Whether every read of ``name`` in ``body`` stands in the body of a ``for`` loop whose target binds it."""
    loops: List[cst.For] = []

    class _Loops(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            if name in target_keys(node.target):
                loops.append(node)

    visit(body, _Loops())
    if not loops:
        return False
    mentions = _mentions(body, name) - sum(_mentions(loop.target, name) for loop in loops)
    return mentions == sum(_mentions(loop.body, name) for loop in loops)


def _mentions(node: cst.CSTNode, name: str) -> int:
    found = [0]

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found[0] += node.value == name

    visit(node, _Names())
    return found[0]


class FinishClasses(cst.CSTTransformer):
    """Write each converted class where the module holds it (found by its ``__init__``, which nothing
    before changes)."""

    def __init__(self, graphs: List[ClassGraph]) -> None:
        self.by_init = {id(graph.analysis.init): graph for graph in graphs}

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        for stmt in updated.body.body:
            graph = self.by_init.get(id(stmt))
            if graph is not None:
                return graph.finish(updated)
        return updated


def unfinished(graphs: List[ClassGraph]) -> List:
    """Blockers for classes whose runs were generated but which the module no longer holds as analysed."""
    return [(graph.cls, f"internal: the class `{graph.cls.name.value}` changed after its runs were planned")
            for graph in graphs if not graph.finished]


def answered_run(rewriter, site: RunSite, scope: "pm.Scope") -> cst.BaseExpression:
    """A run of the graph of another module's class, through an object of it: the call that module answered
    with (``analysis/imported_runs``)."""
    request, _ = request_of(as_class_run(site, scope))
    template = rewriter.ctx.names.tree_helpers.runs_given[site.instance_class][request.key]
    call, used = filled_answer(template, site.instance, site.feed, fed_values(site), rewriter.to_numpy,
                               rewriter.call_compiled, rewriter.ctx.tf)
    rewriter.compiled_any |= ANSWER_TO_NUMPY in used
    rewriter.concrete_any |= ANSWER_CALL_COMPILED in used
    method = call.args[0].value if ANSWER_TO_NUMPY in used else call
    rewriter.ctx.report(site.call, RULE_ID, INFO, f"sess.run of `{site.instance}`'s graph -> {code(method)}, "
                                                  "a method its class generated in its own module")
    return call


def answer_asked_runs(rewriter, graphs: List[ClassGraph]) -> None:
    """Plan the runs other modules of the tree ask of this module's classes, and answer each with the call of
    the generated method."""
    tree = rewriter.ctx.names.tree_helpers
    by_name = {graph.cls.name.value: graph for graph in graphs}
    for class_name in tree.runs_asked:
        graph = by_name.get(class_name)
        if graph is None:
            raise pm.ScopeBlocked([(None, f"other modules run the graph of `{class_name}`, which builds none here")])
        answers = tree.runs_answered.setdefault(class_name, {})
        for request, site in asked_sites(class_name, rewriter.ctx.names):
            answers[request.key] = answer_template(graph.run_outside(site), rewriter.to_numpy, rewriter.call_compiled,
                                                   rewriter.ctx.tf)
        members = object_graph(graph.cls, rewriter.ctx.names, rewriter.ctx.layer_scopes)
        for request in tree.runs_asked[class_name]:
            if request == MEMBERS_REQUEST:  # what its objects hold (analysis/object_members)
                answers[request.key] = members.to_json() if members is not None else "null"
            elif request == SCOPED_VARIABLES_REQUEST:  # its objects' variables, for scope-filtered collections
                answers[request.key] = scoped_answer(graph.cls, rewriter.ctx.names, rewriter.ctx.layer_scopes)
            elif request.style == PLAIN and members is not None:  # a method computing members as tensors
                fetch = cst.parse_expression(request.fetch)
                attributes = [code(e.value)[len("self."):] for e in fetch.elements] if isinstance(fetch, cst.List) \
                    else [code(fetch)[len("self."):]]
                feeds = [key[len("self."):] for key in request.feed_keys]
                call = graph.members_call(ANSWER_OBJECT, attributes, feeds, members.promoted,
                                          [feed_value(i) for i in range(len(feeds))])
                answers[request.key] = answer_template(call, rewriter.to_numpy, rewriter.call_compiled, rewriter.ctx.tf)


def object_members_call(rewriter, members: "pm.Statement") -> cst.BaseExpression:
    """The call of the method an object's class generates for the per-run members the statement ``members`` computes
    (``analysis/object_members``), from the placeholders it reads: made by the class here, or answered by the
    class's module (``object_members.member_requests`` asked it)."""
    instance, attributes, feeds = member_parts(members)
    scope = rewriter.scope
    owner = scope.instances[instance]
    if is_imported(owner, scope):
        template = rewriter.ctx.names.tree_helpers.runs_given[owner][plain_request(members).key]
        return filled_answer(template, instance, None, [cst.parse_expression(f"{instance}.{f}") for f in feeds],
                             rewriter.to_numpy, rewriter.call_compiled, rewriter.ctx.tf)[0]
    graph = rewriter.class_graph(scope.class_defs[owner])
    return graph.members_call(instance, attributes, feeds, scope.object_graphs[instance].promoted)


def _discarded(line: cst.BaseStatement, site: RunSite) -> bool:
    """The line is the run alone (``self.sess.run([t.assign(w), ...])``): what it returned is not read."""
    return isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr) \
        and line.body[0].value is site.call
