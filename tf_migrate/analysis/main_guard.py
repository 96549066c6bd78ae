"""``if __name__ == "__main__":`` blocks that build and run a graph: a scope of their own.

Scripts often build the whole graph, open the session and train under the main guard, with the
model's helpers defined above it. The block runs in the module's namespace, but when nothing
else in the module reads what it binds, it is a scope of its own as a ``main()`` body is: the
session rule converts it in place (its generated functions stay inside the block) and the module
around it is untouched. When a function defined elsewhere in the module, or a statement after
the block, reads one of its names (a placeholder or a session used as a global), the block stays
an ordinary compound statement, and what the analysis does not know keeps the file in compat
mode as before.
"""
from __future__ import annotations

from typing import List, Sequence, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.tfnames import TFNames


def is_main_guard(node: cst.CSTNode) -> bool:
    """``if __name__ == "__main__":`` (either operand order) with no ``else``."""
    if not isinstance(node, cst.If) or node.orelse is not None:
        return False
    test = node.test
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    operands = [test.left, test.comparisons[0].comparator]
    names = [o for o in operands if isinstance(o, cst.Name) and o.value == "__name__"]
    strings = [o for o in operands if isinstance(o, cst.SimpleString) and o.evaluated_value == "__main__"]
    return len(names) == 1 and len(strings) == 1


def main_guard_scopes(body: Sequence[cst.CSTNode], names: TFNames) -> Set[int]:
    """The ids of the main-guard blocks in ``body`` that are scopes of their own (see the module doc)."""
    found: Set[int] = set()
    for index, node in enumerate(body):
        if not is_main_guard(node) or not _builds_a_graph(node, names):
            continue
        bound = set(writes(node.body))
        others = [other for other in body if other is not node]
        if any(bound & _outside_reads(other) for other in others if isinstance(other, (cst.FunctionDef, cst.ClassDef))):
            continue
        if any(bound & reads(other) for other in body[index + 1:]):
            continue
        found.add(id(node))
    return found


def _builds_a_graph(node: cst.If, names: TFNames) -> bool:
    qualnames = {names.call_name(call) for call in all_calls(node)}
    return bool(qualnames & (api.PLACEHOLDERS | api.SESSIONS))


def _outside_reads(definition: cst.CSTNode) -> Set[str]:
    """Names a definition may read from the module: its free names (over-approximated, never missed).

    A function's parameters and bindings are its own; a class's methods are definitions of their own
    (their parameters are not the class's reads).
    """
    local: List[str] = list(writes(definition.body))
    if isinstance(definition, cst.FunctionDef):
        local += parameter_names(definition.params)
    found: Set[str] = set()
    for statement in definition.body.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            found |= _outside_reads(statement)
        else:
            found |= reads(statement)
    if isinstance(definition, cst.FunctionDef):
        found -= set(local)  # a class body's names are not visible in its methods: only a function's are local
    return found
