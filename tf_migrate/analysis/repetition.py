"""Whether code inside a statement may run more than once each time the statement runs.

A node inside a loop, a function, a class, a lambda or a comprehension of the statement may run any number of
times (or never) when the statement runs once; anywhere else it runs exactly when the statement does. Used where
a run that runs once reads better as a plain call (``codegen/compiled.runs_once``) and where a session opened
more than once starts a seeded op's numbers over (``analysis/seeded_sessions``).
"""
from __future__ import annotations

import libcst as cst

REPEATING = (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp,
             cst.GeneratorExp)


class RepetitionDepth(cst.CSTVisitor):
    """A visitor that knows, at each node it visits, how many repeating nodes (:data:`REPEATING`) hold it:
    ``self.depth``, 0 where the node runs once with the statement visited. Subclasses define ``visit_*`` methods
    as usual (a node's own ``visit_*`` sees the depth around it, itself not counted)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        descend = super().on_visit(node)
        if descend and isinstance(node, REPEATING):
            self.depth += 1
        return descend

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, REPEATING):
            self.depth -= 1
        super().on_leave(original_node)
