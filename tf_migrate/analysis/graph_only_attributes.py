"""Attributes a TF1 graph value has and an eager one does not: ``W.op``, ``W.graph``, ``W.initial_value``.

A TF1 variable or tensor is a node of a graph: ``W.op`` is the operation that makes it (``sess.run(W.op)`` runs it
and gives None, ``W.op.name`` is its name), ``W.graph`` its graph, ``W.initial_value`` the tensor that initializes
it. Eager variables and tensors raise for each of these (``Tensor.op is undefined when eager execution is enabled``,
``This property is not supported when eager execution is enabled``), inside a run function too, where a variable is
still the eager one the function captures. A program that reads one stays compat, with the reason at the read.
(``W.name`` is ``tensor_names``' and ``variable_names``' question; ``W.initializer``, run or removed, is the
initialization rules'.)
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.traversal import visit

GRAPH_ONLY: Dict[str, str] = {
    "op": "the operation that makes it",
    "graph": "the graph it belongs to",
    "initial_value": "the tensor that initializes it",
    "consumers": "the operations that read it",
    "value_index": "its index among its operation's outputs",
}

_GRAPH_VALUES = {pm.PLACEHOLDER, pm.TENSOR, pm.VARIABLE}


def check_graph_only_attributes(c: Classifier) -> None:
    """Block every read of a graph-only attribute of a value the scope knows as a graph tensor or variable."""
    for st in c.scope.statements:
        if isinstance(st.node, cst.ClassDef):
            continue  # a class's methods are analysed as their own scopes
        view = c.scope if isinstance(st.node, (cst.FunctionDef, cst.BaseCompoundStatement)) else c.scope.at(st.index)
        for node, why in graph_only_reads(st.node, view.kind):
            c.block(node, why)


def graph_only_reads(node: cst.CSTNode, kind_of_key: Callable[[str], Optional[str]]) -> List[Tuple[cst.CSTNode, str]]:
    """The graph-only attribute reads in ``node`` of values ``kind_of_key`` (a symbol key's program-model kind)
    gives as graph tensors or variables, each with its reason."""
    reads = _GraphOnlyReads()
    visit(node, reads)
    found = []
    for attribute in reads.found:
        key = symbol_key(attribute.value)
        if key is not None and kind_of_key(key) in _GRAPH_VALUES:
            name = attribute.attr.value
            found.append((attribute, f"`{key}.{name}` reads {GRAPH_ONLY[name]}: a TF1 graph value has it, an eager "
                                     "tensor or variable does not (TF2 raises)"))
    return found


class _GraphOnlyReads(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = []

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in GRAPH_ONLY:
            self.found.append(node)
