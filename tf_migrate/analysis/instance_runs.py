"""Runs of a class's graph from outside the class.

    class Block:
        def __init__(self):
            self.x = tf.placeholder(tf.float32, [3])
            self.out = self.x * 2.0

    net = Block()
    with tf.Session() as sess:
        print(sess.run(net.out, {net.x: [0.0, 1.0, 2.0]}))

A run whose fetches and feed keys are members of one instance of a class of this module runs the
graph that class's ``__init__`` built. The class converts as one whose own methods run its graph
(:mod:`tf_migrate.analysis.class_scope`): the run is planned in the class's scope as if it were
written there with ``self`` for ``net`` (:func:`as_class_run`), becomes a generated method of the
class, and the call site calls it on the instance: ``net.run_out(x=[0.0, 1.0, 2.0])``.

A feed dict may also be bound to a name passed only as the feed (``feed = {net.x: batch}``): its
literals' keys become the method's parameter names (``net.run_out(**feed)`` with ``{'x': batch}``).
A run that mixes members with graph values of its own scope, or members of two instances, is not such
a run: it keeps the file compat, with the reason at the run.
A run that only fetches members which stay attributes of the eager class (its variables) is
left to the run's own scope, which reads them eagerly.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.callables import fetch_leaves, unknown_run_values
from tf_migrate.analysis.feed_dicts import site_feed_literals
from tf_migrate.analysis.build_methods import self_method
from tf_migrate.analysis.symbols import all_calls, target_keys, writes
from tf_migrate.cst.arguments import bind
from tf_migrate.analysis.run_sites import RunSite, session_named
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit


def _member(expr: cst.BaseExpression, instances: Dict[str, str]) -> Optional[Tuple[str, str]]:
    """(instance, attribute) when ``expr`` is ``instance.attribute`` of an instance of a local class (``instance``
    a name, or ``self.net``, an object a class holds: analysis/held_graph_objects)."""
    if isinstance(expr, cst.Attribute) and type(expr.value) in (cst.Name, cst.Attribute):
        instance = dotted_name(expr.value)
        if instance in instances:
            return instance, expr.attr.value
    return None


def feed_literals(site: RunSite, scope: "pm.Scope", statements=None) -> List[cst.Dict]:
    """The dict literals the run's feed is: its own, or each one bound to the name it is given by
    (``feed = {net.x: ...}`` then ``sess.run(..., feed_dict=feed)``, the name used for nothing else), in
    ``statements`` (by default the scope's)."""
    if isinstance(site.feed, cst.Dict):
        return [site.feed]
    return site_feed_literals(scope, site, statements, member_keys=True) if isinstance(site.feed, cst.Name) else []


def _feed_keys(site: RunSite, scope: "pm.Scope", statements) -> Optional[List[cst.BaseExpression]]:
    """The keys of the run's feed dict literals ([] without a feed; None: not literals of plain keys)."""
    feed = site.feed
    if feed is None or (isinstance(feed, cst.Name) and feed.value == "None"):
        return []
    literals = feed_literals(site, scope, statements)
    if not literals or not all(isinstance(e, cst.DictElement) for literal in literals for e in literal.elements):
        return None
    return [element.key for literal in literals for element in literal.elements]


def instance_of_run(site: RunSite, scope: "pm.Scope", kept_members, statements,
                    objects: Optional[Dict[str, str]] = None) -> Tuple[Optional[str], str]:
    """(the instance whose class runs ``site``, "") or (None, why it cannot) or (None, ""): not such a run.

    ``kept_members(class name)``: the members that stay attributes of the converted class (variables);
    ``statements``: every statement of the scope (those not classified yet included); ``objects``: the
    names bound to objects of local classes where the run stands (by default the scope's instances)."""
    objects = scope.instances if objects is None else objects
    leaves = list(fetch_leaves(site.fetch))
    keys = _feed_keys(site, scope, statements)
    named = [m for m in (_member(e, objects) for e in leaves + (keys or [])) if m is not None]
    if all(attribute in kept_members(objects[instance]) for instance, attribute in named):
        return None, ""  # no member, or variables only: values of the run's own scope
    instances = sorted({instance for instance, _ in named})
    owner = objects[instances[0]]
    if keys is None or len(named) != len(leaves) + len(keys) or len(instances) > 1:
        if all(instance in scope.object_graphs for instance in instances):
            return None, ""  # the scope knows the objects' members as its own values (analysis/object_members)
    if len(instances) > 1:
        return None, f"one run of the members of two objects ({', '.join(f'`{i}`' for i in instances)})"
    if keys is None:
        return None, (f"the run of `{instances[0]}`'s graph gets its feed dict built otherwise than as dict "
                      "literals of its members (bound to a name only passed as the feed)")
    if site.extra_args:
        return None, f"the run of `{instances[0]}`'s graph passes {', '.join(site.extra_args)}"
    if len(named) != len(leaves) + len(keys):
        return None, (f"the run mixes members of `{instances[0]}` (a `{owner}`) with other values; only runs of "
                      "the object's own members are converted")
    return instances[0], ""


class _ToSelf(cst.CSTTransformer):
    def __init__(self, instance: str) -> None:
        self.instance = instance

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if dotted_name(updated.value) == self.instance:
            return updated.with_changes(value=cst.Name("self"))
        return updated


def as_class_run(site: RunSite, scope: "pm.Scope") -> RunSite:
    """The run as the class's own methods would write it: ``self`` for the object in the fetches and feed
    keys (the fed values are the caller's and stay as they are). A feed dict given by name is read from
    its literals, written as the bindings of a method the run stands in (``site.home``)."""
    to_self = _ToSelf(site.instance)

    def keyed_by_self(literal: cst.Dict) -> cst.Dict:
        return literal.with_changes(elements=[
            element.with_changes(key=visit(element.key, to_self)) for element in literal.elements])

    feed, home = site.feed, None
    if isinstance(feed, cst.Dict):
        feed = keyed_by_self(feed)
    elif isinstance(feed, cst.Name) and feed.value != "None":
        bindings = [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(feed)], keyed_by_self(literal))])
                    for literal in feed_literals(site, scope)]
        home = cst.FunctionDef(cst.Name("outside"), cst.Parameters(), cst.IndentedBlock(bindings))
    return RunSite(site.call, site.style, visit(site.fetch, to_self), feed, list(site.extra_args), home,
                   site.instance, site.instance_class)


def external_runs(scopes) -> Dict[str, List[Tuple[RunSite, str]]]:
    """Class name -> the runs of its graph from outside it, as the class would write them, with the instance
    each runs on, over ``scopes`` (the scopes of one module)."""
    found: Dict[str, List[Tuple[RunSite, str]]] = {}
    for scope in scopes:
        for st in scope.statements:
            for site in st.run_sites:
                if site.instance is not None:
                    found.setdefault(site.instance_class, []).append((as_class_run(site, scope), site.instance))
    return found


def external_run_blockers(scope: "pm.Scope", site: RunSite, classifier, names) -> List[Tuple[cst.CSTNode, str]]:
    """Why a run from outside the class (as the class writes it) names values its graph does not know."""
    literals = [site.feed] if isinstance(site.feed, cst.Dict) else \
        [stmt.body[0].value for stmt in site.home.body.body] if site.home is not None else []
    return [(site.call, f"sess.run of `{site.instance}`'s graph {verb} a value its class does not build in "
                        f"__init__: {why}")
            for verb, why in unknown_run_values(site, scope, classifier.kind_of, names, literals)]


def module_classes(module: cst.Module) -> List[cst.ClassDef]:
    """Every class the module defines, at any depth."""
    found: List[cst.ClassDef] = []

    class _Classes(cst.CSTVisitor):
        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            found.append(node)

    visit(module, _Classes())
    return found


def writes_member_variable(value: cst.BaseExpression, scope: "pm.Scope", kept_members) -> bool:
    """``net.w.assign_add(...)``: an op writing a variable an object of a local class keeps (TF1 built it;
    it runs only where a run fetches it, as for the scope's own variables)."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
            and value.func.attr.value in api.VARIABLE_WRITE_METHODS):
        return False
    member = _member(value.func.value, scope.instances)
    return member is not None and member[1] in kept_members(scope.instances[member[0]])


def parameter_instances(body, params, parent: "pm.Scope", graph_classes=frozenset()) -> Dict[str, str]:
    """Parameters of the function whose body is ``body`` that every call of it, in ``parent``'s own code,
    passes an object of the same local class (``def train(sess, model)`` called as ``train(sess, net)``), or of
    a class of the tree (``graph_classes``), also where another function calls it with an object it built
    (:func:`function_parameter_instances`): parameter -> class. None of them when the function is called from a
    class, or used otherwise than by calling it (passed along, stored): the objects it gets are not known there."""
    body = list(body)
    function = next((st.node for st in parent.statements if isinstance(st.node, cst.FunctionDef)
                     and body and st.node.body.body and st.node.body.body[0] is body[0]), None)
    return function_parameter_instances(function, params, parent, graph_classes) if function is not None else {}


def function_parameter_instances(function: cst.FunctionDef, params, parent: "pm.Scope",
                                 graph_classes=frozenset()) -> Dict[str, str]:
    """:func:`parameter_instances` of ``function``, a statement of ``parent``. Its calls may also stand in other
    functions of ``parent`` (``def evaluate(sess, model)`` called by ``main()``, which builds ``model = Model()``):
    there the argument must be a name the calling function binds once, to an object of a class of ``parent``
    or of another module of the tree (``graph_classes``), and not a parameter of it."""
    name = function.name.value
    own_calls, uses = [], 0
    callers: List[Tuple[cst.Call, Dict[str, str]]] = []  # (call, the objects its caller's names hold)
    for st in parent.statements:
        if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
            if st.node is function or _name_count(st.node, name) == 0:
                continue
            calls = [c for c in all_calls(st.node) if isinstance(c.func, cst.Name) and c.func.value == name]
            if not isinstance(st.node, cst.FunctionDef) or len(calls) != _name_count(st.node, name):
                return {}
            objects = _built_objects(st.node, parent, graph_classes)
            callers += [(call, objects) for call in calls]
            continue
        own_calls += [c for c in all_calls(st.node) if isinstance(c.func, cst.Name) and c.func.value == name]
        uses += _name_count(st.node, name)
    if uses != len(own_calls) or not (own_calls or callers):
        return {}
    callers += [(call, {key: owner for key, owner in parent.instances.items()
                        if len(parent.bindings.get(key, ())) == 1}) for call in own_calls]
    positional = [p.name.value for p in function.params.params]
    found: Dict[str, str] = {}
    for param in params:
        owners = set()
        for call, objects in callers:
            bound = bind(call, positional)
            value = bound.get(param) if bound is not None else None
            owners.add(objects.get(value.value) if isinstance(value, cst.Name) else None)
        if len(owners) == 1 and None not in owners:
            found[param] = owners.pop()
    return found


def _built_objects(caller: cst.FunctionDef, parent: "pm.Scope", graph_classes) -> Dict[str, str]:
    """Names ``caller`` binds once, to an object of a class of ``parent`` or of the tree: name -> class."""
    lines, headers = _simple_lines(caller.body)
    counts: Dict[str, int] = {}
    for key in [key for line in lines for key in writes(line)] + headers:  # each binding, nested ones too
        counts[key] = counts.get(key, 0) + 1
    own = {p.name.value for p in caller.params.params}
    found: Dict[str, str] = {}
    for statement in lines:
        small = statement.body[0] if len(statement.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Call)
                and isinstance(small.targets[0].target, cst.Name)):
            continue
        target, func = small.targets[0].target.value, small.value.func
        owner = func.value if isinstance(func, cst.Name) and func.value in parent.class_defs else dotted_name(func)
        if owner is not None and (owner in parent.class_defs or owner in graph_classes) \
                and counts.get(target) == 1 and target not in own:
            found[target] = owner
    return found


def _simple_lines(block: cst.CSTNode) -> Tuple[List[cst.SimpleStatementLine], List[str]]:
    """The simple statement lines of a function body, through its compound statements (not nested defs), and the
    keys their headers bind (``for x in``, ``with ... as s``, ``except E as e``), once per header."""
    found: List[cst.SimpleStatementLine] = []
    headers: List[str] = []

    class _Lines(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, line: cst.SimpleStatementLine) -> bool:
            found.append(line)
            return False

        def visit_For(self, node: cst.For) -> None:
            headers.extend(target_keys(node.target))

        def visit_WithItem(self, node: cst.WithItem) -> None:
            headers.extend(target_keys(node.asname.name) if node.asname is not None else [])

        def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
            headers.extend(target_keys(node.name.name) if node.name is not None else [])

        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_ClassDef(self, node) -> bool:
            return False

    visit(block, _Lines())
    return found, headers


def _name_count(node: cst.CSTNode, name: str) -> int:
    count = [0]

    class _Names(cst.CSTVisitor):
        def visit_Name(self, found: cst.Name) -> None:
            count[0] += found.value == name

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            visit(attribute.value, self)  # `x.train` is not the function `train`
            return False

    visit(node, _Names())
    return count[0]


def mark_function_runs(scope: "pm.Scope", kept_members, block, graph_classes=frozenset()) -> None:
    """The runs in functions of ``scope`` that run their graph through a session passed in (planned in this
    scope), on an object of a local class every call passes them (``def train(sess, model)``)."""
    for st in scope.statements:
        if not (isinstance(st.node, cst.FunctionDef) and st.run_sites):
            continue
        params = [p.name.value for p in st.node.params.params]
        mark_runs(st.run_sites, scope, kept_members, [st.node],
                  function_parameter_instances(st.node, params, scope, graph_classes), block)


def check_parameter_objects(function: cst.FunctionDef, sites, block) -> None:
    """Block the runs of ``function`` (given a session, planned in the scope around it) that read a member of a
    parameter no object of a known class fills (``sess.run(model.loss)`` in ``def evaluate(sess, model)`` called
    with objects the analysis cannot follow): what the run computes is not known."""
    params = {p.name.value for p in function.params.params}
    for site in sites:
        if site.instance is not None:
            continue
        keys = [e.key for e in site.feed.elements if isinstance(e, cst.DictElement)] \
            if isinstance(site.feed, cst.Dict) else []
        leaves = list(fetch_leaves(site.fetch)) + keys  # (not the fed values: `{x: data.images}`, a dataset's)
        owner = next((leaf.value.value for leaf in leaves if isinstance(leaf, cst.Attribute)
                      and isinstance(leaf.value, cst.Name) and leaf.value.value in params), None)
        if owner is not None:
            block(site.call, f"sess.run reads `{owner}`'s members, and `{owner}` is a parameter of "
                             f"`{function.name.value}` whose object the analysis does not know (an object of one "
                             "class, built by each caller, is)")


def mark_runs(sites, scope: "pm.Scope", kept_members, statements, objects: Dict[str, str], block) -> None:
    """Mark the ``sites`` that run a local class's graph through one of ``objects`` (name -> class) with that
    object (:func:`instance_of_run`); block those that mix it with other values."""
    for site in sites if objects else ():
        instance, why = instance_of_run(site, scope, kept_members, statements, objects)
        if why:
            block(site.call, f"sess.run of an object's graph: {why}")
        elif instance is not None:
            site.instance, site.instance_class = instance, objects[instance]


def run_session_parameter(cls: cst.ClassDef, method_name: str, seen=frozenset()) -> Optional[Tuple[int, str]]:
    """(position after ``self``, name) of the session parameter of ``cls``'s method ``method_name`` when the method
    uses it only to run the graph (``def train_on_batch(self, sess, x): sess.run(...)``), itself or by passing it to
    such a method of the class (``self.train_on_batch(sess, x)`` in ``run_epoch``): the class's conversion turns the
    runs into generated methods, and the parameter, unused, goes (codegen/session_params)."""
    method = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == method_name), None)
    if method is None or method.decorators or not method.params.params or method.params.params[0].name.value != "self":
        return None
    for index, param in enumerate(method.params.params[1:]):
        name = param.name.value
        if session_named(name):
            passes = lambda callee: run_session_parameter(cls, callee, seen | {method_name})  # noqa: E731
            return (index, name) if method_name not in seen and _only_runs_through(method.body, name, passes) \
                else None
    return None


def _only_runs_through(body: cst.CSTNode, name: str, passes) -> bool:
    """Every mention of ``name`` in ``body`` (if any) is the receiver of a ``.run(...)`` call, or the session
    argument of a call ``self.method(...)`` where ``passes(method)`` gives that method's session parameter."""
    uses, runs = [0], [0]

    class _Uses(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            uses[0] += node.value == name

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            runs[0] += isinstance(func, cst.Attribute) and func.attr.value == "run" and isinstance(
                func.value, cst.Name) and func.value.value == name
            callee = self_method(node)
            found = passes(callee) if callee is not None and any(
                isinstance(arg.value, cst.Name) and arg.value.value == name for arg in node.args) else None
            if found is not None:
                runs[0] += sum(isinstance(arg.value, cst.Name) and arg.value.value == name and (
                    arg.keyword.value == found[1] if arg.keyword is not None else index == found[0])
                    for index, arg in enumerate(node.args))

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            visit(node.value, self)  # not ``x.sess``'s attribute name
            return False

    visit(body, _Uses())
    return uses[0] == runs[0]  # none at all: a Saver's ``save(sess, ...)`` the savers rule made ``save(None, ...)``
