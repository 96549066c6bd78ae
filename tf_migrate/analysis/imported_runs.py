"""Runs of the graph of a class that another module of the tree defines.

    # model.py                                   # train.py
    class Model(object):                         from model import Model
        def __init__(self, n_in):                model = Model(3)
            self.x = tf.placeholder(...)         with tf.Session() as sess:
            self.loss = ...                          sess.run(tf.global_variables_initializer())
            self.train_op = ...minimize(...)         sess.run([model.loss, model.train_op], {model.x: xs})

A run whose fetches and feed keys are members of one object of such a class runs the graph its ``__init__`` built,
as a run of an object of a local class does (:mod:`tf_migrate.analysis.instance_runs`). The importer cannot plan it:
the class, and what its members are, live in the provider. So the two modules agree through the project pass
(``tf_migrate/project_class_runs``), in the shape of a request and an answer:

1. the importer asks for each run as the class would write it (:class:`tf_migrate.tfnames.ClassRun`: the fetches
   and feed keys with ``self`` for the object), and stays compat until it has an answer;
2. the provider plans every asked run in the class's scope (:func:`asked_sites`), as it plans runs from its own
   code, and answers with the call of the method it generated, a template over the object and the fed values
   (``codegen/class_run_calls``);
3. the importer writes the template at the run, with its object and values.

An object of such a class is known only by its construction here (``model = Model(3)`` of a class the project index
lists). Its members other than the class's methods and class attributes may be gone in the converted class (a
per-run tensor is a local of the generated methods), so code that reads one outside a run keeps the importer compat
(:func:`outside_member_blockers`).
"""
from __future__ import annotations

import json
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.cst.names import all_names
from tf_migrate.cst.text import code
from tf_migrate.tfnames import (ANSWER_CALL_COMPILED, ANSWER_FEED, ANSWER_OBJECT, ANSWER_TF, ANSWER_TO_NUMPY,
                                MEMBERS_REQUEST, PLAIN, SCOPED_VARIABLES_REQUEST, VARIABLES_REQUEST, ClassRun,
                                TFNames, feed_value)


def is_imported(owner: str, scope) -> bool:
    """Whether ``owner``, the class of an object of ``scope``, is another module's (not a class ``scope`` sees)."""
    return owner not in scope.class_defs


def request_of(site: RunSite) -> Tuple[Optional[ClassRun], str]:
    """The request for ``site``, a run written as the class would write it (``instance_runs.as_class_run``), or
    (None, why it cannot be asked for)."""
    feed = site.feed
    literals = [feed] if isinstance(feed, cst.Dict) else []
    named = isinstance(feed, cst.Name) and feed.value != "None" and site.home is not None
    if named:  # ``feed = {model.x: batch}`` then ``sess.run(..., feed)``: its literals, as the class writes them
        literals = [stmt.body[0].value for stmt in site.home.body.body]
    if feed is not None and not literals or not all(isinstance(e, cst.DictElement)
                                                    for literal in literals for e in literal.elements):
        return None, (f"sess.run of `{site.instance}`'s graph, whose class is another module's, gets its feed dict "
                      "otherwise than as dict literals of its members")
    keys = tuple(code(e.key) for literal in literals for e in literal.elements)
    return ClassRun(code(site.fetch), keys, site.style, named), ""


def fed_values(site: RunSite) -> List[cst.BaseExpression]:
    """The values a run feeds, in the order of its request's feed keys."""
    if isinstance(site.feed, cst.Dict):
        return [e.value for e in site.feed.elements if isinstance(e, cst.DictElement)]
    return []


def importer_blockers(external: Dict[str, List[Tuple[RunSite, str]]], names: TFNames) -> List[Tuple[cst.CSTNode, str]]:
    """Record the runs of imported classes' graphs the module asks for (``TreeHelpers.runs_requested``); block
    those without an answer yet, or whose class answers none."""
    tree = names.tree_helpers
    found: List[Tuple[cst.CSTNode, str]] = []
    for owner, sites in external.items():
        if owner not in tree.graph_classes:
            continue
        provider, name, _ = tree.graph_classes[owner]
        for site, instance in sites:
            request, why = request_of(site)
            if request is None:
                found.append((site.call, why))
                continue
            tree.runs_requested.setdefault(owner, {})[request.key] = request
            if owner in tree.runs_refused:
                found.append((site.call, f"sess.run of `{instance}`'s graph: `{name}` of {provider} "
                                         f"{tree.runs_refused[owner]}"))
            elif request.key not in tree.runs_given.get(owner, {}):
                found.append((site.call, f"sess.run of `{instance}`'s graph: `{name}` of {provider} has no method "
                                         "for this run (the project pass asks it for one when migrating a tree)"))
            elif foreign_names(tree.runs_given[owner][request.key], len(request.feed_keys)):
                found.append((site.call, f"sess.run of `{instance}`'s graph: `{name}` of {provider} answers with a "
                                         "call that reads names of its own module"))
    return found


def foreign_names(template: str, feeds: int) -> Set[str]:
    """The names an answer reads besides its object, its ``feeds`` fed values and the helper markers (a call that
    needs values of the provider's module cannot stand in the importer)."""
    known = {ANSWER_OBJECT, ANSWER_FEED, ANSWER_TO_NUMPY, ANSWER_CALL_COMPILED, ANSWER_TF} | {feed_value(i) for i in range(feeds)}
    return all_names(cst.parse_expression(template)) - known


def outside_member_blockers(scope, names: TFNames, reads) -> List[Tuple[cst.CSTNode, str]]:
    """``reads``: (statement node, instance, attribute) read outside the runs of the scope; those of objects of
    imported classes that name no method or class attribute of the class (a member the converted class may have
    dropped)."""
    tree_classes = {owner: facts for owner, facts in names.tree_helpers.graph_classes.items()
                    if is_imported(owner, scope)}
    found = []
    for node, instance, attribute in reads:
        owner = scope.instances[instance]
        listed = names.tree_helpers.runs_given.get(owner, {}).get(VARIABLES_REQUEST.key)  # variables it keeps on it
        kept = {entry[1].split(".")[0].split("[")[0] for entry in json.loads(listed)} if listed else set()
        if owner in tree_classes and attribute not in set(tree_classes[owner][2]) | kept:
            provider, name, _ = tree_classes[owner]
            found.append((node, f"`{instance}.{attribute}` is read outside a run of its graph: `{name}` of {provider} "
                                "converts to a class whose per-run members are locals of its generated methods"))
    return found


def passed_on_blockers(scope, owners) -> List[Tuple[cst.CSTNode, str]]:
    """Where an object of an imported class in ``owners`` (those whose graph runs in ``scope``) is passed to a
    callable other than a function of this module (whose runs of it are read): what that code reads of it is not
    known, and the converted class may lack it."""
    objects = {name for name, owner in scope.instances.items() if owner in owners and is_imported(owner, scope)}
    found = []
    for st in scope.statements if objects else ():
        if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
            continue
        for call in all_calls(st.node):
            callee = call.func.value if isinstance(call.func, cst.Name) else None
            if callee in scope.local_callables or callee == "print":
                continue
            for arg in call.args:
                if isinstance(arg.value, cst.Name) and arg.value.value in objects:
                    found.append((call, f"`{arg.value.value}` is passed to `{code(call.func)}`, which may read members "
                                        f"that `{scope.instances[arg.value.value]}`, converted in its own module, "
                                        "no longer has"))
    return found


def asked_sites(class_name: str, names: TFNames) -> List[Tuple[ClassRun, RunSite]]:
    """The runs importers ask of the module's class ``class_name``, as sites of its graph written with ``self``,
    run on :data:`ANSWER_OBJECT` with :func:`feed_value` names for the fed values."""
    found = []
    for request in names.tree_helpers.runs_asked.get(class_name, ()):
        if request in (VARIABLES_REQUEST, MEMBERS_REQUEST, SCOPED_VARIABLES_REQUEST) or request.style == PLAIN:
            continue  # answered by saver-var-list, for code using the object's members (object_members) or variables
        fetch = cst.parse_expression(request.fetch)
        feed = cst.Dict([cst.DictElement(cst.parse_expression(key), cst.Name(feed_value(index)))
                         for index, key in enumerate(request.feed_keys)]) if request.feed_keys else None
        home = None
        if request.named_feed:  # the importer's named dict, bound where the run stands
            home = cst.FunctionDef(cst.Name("outside"), cst.Parameters(), cst.IndentedBlock([cst.SimpleStatementLine(
                [cst.Assign([cst.AssignTarget(cst.Name(ANSWER_FEED))], feed)])]))
            feed = cst.Name(ANSWER_FEED)
        call = cst.Call(cst.Attribute(cst.Name("session"), cst.Name("run")))  # stands for the importer's run
        found.append((request, RunSite(call, request.style, fetch, feed, [], home, ANSWER_OBJECT, class_name)))
    return found


def unanswerable(defined: List[str], graph_classes: List[str], names: TFNames) -> List[Tuple[None, str]]:
    """Blockers for the classes runs are asked of that are not one class of the module (``defined``: the names of
    every class it defines) building a graph (``graph_classes``)."""
    return [(None, f"other modules run the graph of `{name}`, which is not one class of this module building a graph")
            for name in names.tree_helpers.runs_asked if defined.count(name) != 1 or name not in graph_classes]
