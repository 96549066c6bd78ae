"""Which graph a run runs, where the text says: notebooks that build a second model in a graph of its own.

    g = tf.Graph()
    with g.as_default():
        w = tf.Variable(...)                 (the first model)
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
    g = tf.Graph()                           (a new graph, bound to the same name)
    with g.as_default():
        w = tf.Variable(...)                 (the second model)
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())

The second initializer run initializes the second graph's variables only; eager code makes those anew as
well. A graph is known by the statement that made it (``g = tf.Graph()``) or by the ``with
tf.Graph().as_default():`` block itself; a run's graph is the one of the ``as_default()`` block around it,
else the ``graph=`` of the session it runs in (a ``with tf.Session(graph=g) as sess:`` around it, or a
``sess = tf.Session(graph=g)`` before it). None where the text does not say.
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.flatten import FlatStatement
from tf_migrate.analysis.run_sites import names_read_by_site
from tf_migrate.analysis.symbols import reads
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames


def statement_graphs(statements: List["FlatStatement"], names: TFNames) -> List[object]:
    """The graph each statement builds in, by index; [] where every statement builds in one graph. The default
    graph is renewed by each ``tf.reset_default_graph()``; a ``with g.as_default():`` or ``with
    tf.Session(graph=g):`` block builds in ``g`` (the graph the statement ``g = tf.Graph()`` made before it)."""
    found: List[object] = []
    default = 0
    for index, flat in enumerate(statements):
        node = flat.node
        if isinstance(node, cst.SimpleStatementLine) and any(
                isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                and names.call_name(small.value) == "tf.reset_default_graph" for small in node.body):
            default += 1
        found.append(_block_graph(statements, names, flat, index) or ("default", default))
    if any(graph[0] == "unknown" for graph in found):
        return []  # a graph the text does not name may be one seen before: one graph, as the analysis had it
    return found if len(set(found)) > 1 else []


def _block_graph(statements, names: TFNames, flat: "FlatStatement", index: int) -> Optional[object]:
    for with_node in reversed(flat.unwrapped_from):
        for item in with_node.items:
            call = item.item
            if not isinstance(call, cst.Call):
                continue
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "as_default":
                return _made(statements, names, call.func.value, index, with_node) or ("unknown", id(with_node))
            if names.call_name(call) == "tf.Session" and argument(call, "graph", 1) is not None:
                return _made(statements, names, argument(call, "graph", 1), index, None) or ("unknown", id(with_node))
    return None


def _made(statements, names: TFNames, graph: cst.BaseExpression, index: int,
          block: Optional[cst.With]) -> Optional[object]:
    """The graph ``graph`` is at statement ``index``: ("block", with id) for ``tf.Graph().as_default()``, ("made",
    statement index) for a name bound by ``g = tf.Graph()``; None where the text does not say."""
    if isinstance(graph, cst.Call) and names.call_name(graph) == "tf.Graph":
        return ("block", id(block)) if block is not None else None
    if not isinstance(graph, cst.Name):
        return None
    for earlier in range(index - 1, -1, -1):
        node = statements[earlier].node
        assign = node.body[0] if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 else None
        if isinstance(assign, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == graph.value
                                                  for t in assign.targets):
            value = assign.value
            return ("made", earlier) if isinstance(value, cst.Call) and names.call_name(value) == "tf.Graph" \
                and not value.args and len(assign.targets) == 1 else None
    return None


def run_graph(scope: "pm.Scope", names: TFNames, run: "pm.Statement") -> Optional[object]:
    """An identity of the graph ``run``'s run site runs (equal for runs of one graph), or None."""
    if scope.graphs and scope.graphs[run.index][0] != "default":
        return scope.graphs[run.index]
    session = run.run_sites[0].call.func.value if run.run_sites and isinstance(
        run.run_sites[0].call.func, cst.Attribute) else None
    if not isinstance(session, cst.Name):
        return None
    bound = _last_binding(scope, session.value, run.index)
    value = bound.node.body[0].value if bound is not None and isinstance(bound.node, cst.SimpleStatementLine) \
        and isinstance(bound.node.body[0], cst.Assign) else None
    if isinstance(value, cst.Call) and names.call_name(value) == "tf.Session":
        return _session_graph(scope, names, value, bound.index)
    return None


def _session_graph(scope: "pm.Scope", names: TFNames, session: cst.Call, index: int) -> Optional[object]:
    graph = argument(session, "graph", 1)
    return _made([st.flat for st in scope.statements], names, graph, index, None) if graph is not None else None


def _last_binding(scope: "pm.Scope", name: str, index: int) -> Optional["pm.Statement"]:
    return next((st for st in reversed(scope.statements[:index]) if name in st.defines), None)


def check_function_runs_across_graphs(c) -> None:
    """A function of the scope that runs graph values (a helper given the session: ``def testOnDataset(..., session):
    session.run(correctPrediction, ...)``) reads the values its names hold when it is called. Where the program builds
    more than one graph (``tf.reset_default_graph()`` and a second model under the same names, a notebook's sections),
    each call ran the graph its names held then; one generated function runs one of them, and the calls made while
    the other was current called a function that was not there yet, or ran the wrong graph. Kept compat, with the
    reason at the run."""
    scope = c.scope
    if len({repr(graph) for graph in scope.graphs}) < 2:
        return
    for st in scope.statements:
        if not isinstance(st.node, cst.FunctionDef) or st.kind == "nested-scope":
            continue
        for site in st.run_sites:
            fetched = sorted(reads(site.fetch))
            for key in fetched + sorted(names_read_by_site(site) - set(fetched)):
                graphs = {repr(scope.graphs[b.index]) for b in scope.bindings.get(key, ())
                          if 0 <= b.index < len(scope.graphs)}
                if len(graphs) > 1:
                    c.block(site.call, f"`{st.node.name.value}` runs `{key}`, which the program binds in more than one "
                                       "graph: each call ran the one its name held then, where a generated function "
                                       "runs one")
                    break
