"""Members of an object of a local graph class, as values of the scope that built the object.

    class Model(object):
        def __init__(self, n_in):
            self.x = tf.placeholder(tf.float32, [None, n_in])
            self.w = tf.Variable(tf.ones([n_in, 1]))
            self.loss = tf.reduce_mean(tf.matmul(self.x, self.w))

    model = Model(3)
    train_op = tf.train.AdamOptimizer(0.1).minimize(model.loss)      # the scope's own graph code
    sess.run([train_op, model.loss], {model.x: xs})                  # one run of both graphs

Where code outside the class builds its own graph on the object's members, or runs them together with its own
values, the run is the scope's (not a run of the class's graph alone, :mod:`tf_migrate.analysis.instance_runs`).
The scope knows each member by what the class's analysis says it is (:func:`bind_object_members`):

* a placeholder (``model.x``): fed by the scope's runs, a parameter of their generated functions;
* a per-run value (``model.loss``): computed in a run by a method the class generates for it, from the
  placeholders the class's slice of it needs (:attr:`ObjectGraph.tensors`);
* a variable kept on the object (``model.w``, or a local of ``__init__`` the class then keeps, or a list of them):
  read as it is, trained by the scope's optimizers in the class's order, then the scope's own.

A class whose graph the analysis cannot convert, or that keeps trainable state in other forms (layers,
dicts), binds nothing: its members stay unknown and the reads keep the file compat, as before.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.callables import fetch_leaves
from tf_migrate.analysis.escapes import traced_plan
from tf_migrate.analysis.slicing import member_parts, plan_run
from tf_migrate.analysis.symbols import is_member_object
from tf_migrate.cst.names import attribute_names
from tf_migrate.tfnames import MEMBERS_REQUEST, PLAIN, ClassRun, TFNames, dotted_name
from tf_migrate.traversal import visit



@dataclass
class ObjectGraph:
    """What an object of a local graph class holds, by attribute."""

    class_name: str
    placeholders: Dict[str, Optional[str]] = field(default_factory=dict)  # attribute -> dtype
    tensors: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # attribute -> placeholders its slice needs
    variables: List[Tuple[str, bool]] = field(default_factory=list)  # (attribute, trainable), creation order
    lists: List[str] = field(default_factory=list)  # those of ``variables`` that hold lists of variables
    promoted: Dict[str, str] = field(default_factory=dict)  # __init__ local -> the attribute the class keeps it in


    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))  # in the class's order: members are listed in it

    @classmethod
    def from_json(cls, text: str) -> "ObjectGraph":
        data = json.loads(text)
        return cls(data["class_name"], dict(data["placeholders"]), {k: tuple(v) for k, v in data["tensors"].items()},
                   [(a, bool(t)) for a, t in data["variables"]], list(data["lists"]), dict(data["promoted"]))


def bind_built_object(st: "pm.Statement", scope: "pm.Scope", names: TFNames, block) -> None:
    """If ``st`` builds an object whose members this file's code uses as its own graph values
    (:func:`mixed_objects`), bind them in ``scope``: from the class's analysis here, or, for a class of another
    module of the tree, from what that module answered (``block``: where it has not, or cannot)."""
    if scope.is_class or len(st.defines) != 1 or not is_member_object(st.defines[0]):
        return
    instance = st.defines[0]
    owner = scope.instances.get(instance)
    if owner is None:
        return
    if instance in scope.object_graphs:
        block(st.node, f"`{instance}` is bound to a second object of `{owner}`, whose members this code also reads")
        return
    if owner in scope.class_defs:
        graph = names.object_graph(scope.class_defs[owner], names, scope.layer_scopes) if names.object_graph else None
    else:
        graph, why = imported_object_graph(owner, names)
        if why:
            block(st.node, why)
    if graph is not None:
        bind_object_members(st, instance, graph, scope)


def imported_object_graph(owner: str, names: TFNames) -> Tuple[Optional[ObjectGraph], str]:
    """The members of an object of ``owner``, another module's class, as that module answered (asked of it here:
    ``TreeHelpers.runs_requested``), or why they are not known."""
    tree = names.tree_helpers
    if owner not in tree.graph_classes:
        return None, ""
    provider, name, _ = tree.graph_classes[owner]
    tree.runs_requested.setdefault(owner, {})[MEMBERS_REQUEST.key] = MEMBERS_REQUEST
    if owner in tree.runs_refused:
        return None, f"the members of `{name}` of {provider} are not known here: it {tree.runs_refused[owner]}"
    answer = tree.runs_given.get(owner, {}).get(MEMBERS_REQUEST.key)
    if answer is None:
        return None, (f"this code uses members of a `{name}` of {provider} as graph values of its own, and that "
                      "module has not said what they are (the project pass asks it when migrating a tree)")
    if answer == "null":
        return None, (f"`{name}` of {provider} keeps state that code outside it cannot name (layers, dicts of "
                      "variables) or does not convert")
    return ObjectGraph.from_json(answer), ""


def member_requests(scope: "pm.Scope", names: TFNames) -> List[Tuple[cst.CSTNode, str]]:
    """Ask the modules of imported classes for a method computing the members each run of ``scope`` needs
    (``TreeHelpers.runs_requested``), and block the runs not answered yet."""
    tree = names.tree_helpers
    found: List[Tuple[cst.CSTNode, str]] = []
    if not any(owner not in scope.class_defs for owner in map(scope.instances.get, scope.object_graphs)):
        return found
    plans = [(site.call, plan_run(scope, site, len(scope.statements) if isinstance(
        st.node, (cst.FunctionDef, cst.ClassDef)) else st.index)) for st in scope.statements for site in st.run_sites
        if site.instance is None]
    # graph tensors printed or shape-read outside runs are traced by a run of their own (session_to_functions)
    plans += [(None, traced_plan(scope, key, index)) for key, _, index in scope.static_reads.values()]
    plans += [(None, traced_plan(scope, key, index)) for key, index, _ in scope.described.values()]
    for node, plan in plans:
        for member in plan.statements:
            request = plain_request(member)
            owner = scope.instances.get(member.defines[0].split(".")[0]) if request is not None else None
            if owner is None or owner in scope.class_defs:
                continue
            tree.runs_requested.setdefault(owner, {})[request.key] = request
            if request.key not in tree.runs_given.get(owner, {}):
                found.append((node, f"a run needs members of `{member.defines[0].split('.')[0]}` that `{owner}`'s "
                                    "module has no method for yet (the project pass asks it)"))
    return found


def plain_request(member: "pm.Statement") -> Optional[ClassRun]:
    """The request for the method computing the members a statement of ``slicing.member_statement`` computes."""
    parts = member_parts(member)
    if parts is None:
        return None
    _, attributes, feeds = parts
    fetch = f"self.{attributes[0]}" if len(attributes) == 1 else "[" + ", ".join(f"self.{a}" for a in attributes) + "]"
    return ClassRun(fetch, tuple(f"self.{f}" for f in feeds), PLAIN)


def bind_object_members(st: "pm.Statement", instance: str, graph: ObjectGraph, scope: "pm.Scope") -> None:
    """Bind the members of ``instance`` (built by ``st``) as values of ``scope``, at ``st``."""
    for attribute, dtype in graph.placeholders.items():
        scope.bind(pm.Symbol(f"{instance}.{attribute}", pm.PLACEHOLDER, st.index, dtype=dtype,
                             member_of=instance))
    for attribute in graph.tensors:
        scope.bind(pm.Symbol(f"{instance}.{attribute}", pm.TENSOR, st.index, member_of=instance))
    for attribute, trainable in graph.variables:
        kind = pm.VARIABLES if attribute in graph.lists else pm.VARIABLE
        scope.bind(pm.Symbol(f"{instance}.{attribute}", kind, st.index, trainable=trainable))
    keys = [f"{instance}.{attribute}" for attribute, _ in graph.variables]
    scope.add_created(keys)
    scope.add_trainable([f"{instance}.{attribute}" for attribute, trainable in graph.variables if trainable])
    scope.object_graphs[instance] = graph
    st.defines = list(dict.fromkeys(st.defines + [f"{instance}.{a}" for a in graph.placeholders]
                                    + [f"{instance}.{a}" for a in graph.tensors] + keys))


def mixed_objects(module: cst.Module, imported: Iterable[str] = ()) -> FrozenSet[str]:
    """Names bound to objects of the module's classes that build placeholders in ``__init__``, whose members code
    outside the class uses as graph values of its own: an argument of a call other than a run
    (``optimizer.minimize(model.loss)``, ``tf.reduce_sum(a.out - b.out)``), an element of a list or tuple bound to a
    name (``main_vars = [main_net.w1, main_net.b1]``), or a run that also fetches other values or names another
    object. A run of one object's members only is the class's (instance_runs)."""
    graph_classes = {node.name.value for node in module.body if isinstance(node, cst.ClassDef) and any(
        isinstance(s, cst.FunctionDef) and s.name.value == "__init__" and "placeholder" in attribute_names(s)
        for s in node.body.body)}
    imported = set(imported)
    if not graph_classes and not imported:
        return frozenset()
    objects: Set[str] = set()
    calls: List[cst.Call] = []
    listed: List[str] = []  # objects whose members a list or tuple bound to a name holds

    class _Scan(cst.CSTVisitor):
        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return node.name.value not in graph_classes

        def visit_Assign(self, node: cst.Assign) -> None:
            value = node.value
            if isinstance(value, cst.Call) and (isinstance(value.func, cst.Name) and value.func.value in graph_classes
                                                or dotted_name(value.func) in imported):
                objects.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))
            if isinstance(value, (cst.List, cst.Tuple)):  # main_vars = [main_net.w1, main_net.b1]: a list of values
                listed.extend(e.value.value.value for e in value.elements if isinstance(e.value, cst.Attribute)
                              and isinstance(e.value.value, cst.Name))

        def visit_Call(self, node: cst.Call) -> None:
            calls.append(node)

    visit(module, _Scan())
    mixed: Set[str] = set(listed) & objects
    for call in calls:
        owners = {key.split(".")[0] for key in _member_reads(call, objects)}
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in ("run", "eval")):
            mixed |= owners
            continue
        leaves = list(fetch_leaves(call.args[0].value)) if call.args else []
        leaves += [e.key for arg in call.args[1:] if isinstance(arg.value, cst.Dict)
                   for e in arg.value.elements if isinstance(e, cst.DictElement)]  # the feed's keys
        own = all(isinstance(leaf, cst.Attribute) and isinstance(leaf.value, cst.Name) and leaf.value.value in owners
                  for leaf in leaves)
        if len(owners) > 1 or not own:
            mixed |= owners
    return frozenset(mixed)


def _member_reads(call: cst.Call, objects: Set[str]) -> Set[str]:
    """``obj.attribute`` reads in the arguments of ``call`` (not in callees, nor in runs among them: those are
    checked as runs), for ``obj`` in ``objects``."""
    found: Set[str] = set()

    class _Reads(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> bool:
            if not (isinstance(node.func, cst.Attribute) and node.func.attr.value in ("run", "eval")):
                for arg in node.args:  # not its callee: ``model.describe()`` calls a method
                    visit(arg.value, self)
            return False

        def visit_Attribute(self, node: cst.Attribute) -> None:
            if isinstance(node.value, cst.Name) and node.value.value in objects:
                found.add(f"{node.value.value}.{node.attr.value}")

    for arg in call.args:
        visit(arg.value, _Reads())
    return found
