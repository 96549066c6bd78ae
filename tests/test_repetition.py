"""analysis/repetition: how many loops, functions, classes, lambdas and comprehensions hold a node."""
import libcst as cst
import pytest

from tf_migrate.analysis.repetition import RepetitionDepth
from tf_migrate.traversal import visit


class _CallDepths(RepetitionDepth):
    def __init__(self) -> None:
        super().__init__()
        self.depths = {}

    def visit_Call(self, node: cst.Call) -> None:
        self.depths[cst.Module(body=[]).code_for_node(node.func)] = self.depth


@pytest.mark.parametrize("source, expected", [
    ("once()\n", {"once": 0}),
    # (a loop's iterable and a comprehension's first one run once, but count as held: the safe side for both users)
    ("for i in range(3):\n    inner()\nafter()\n", {"range": 1, "inner": 1, "after": 0}),
    ("def f():\n    g(lambda: h())\n", {"g": 1, "h": 2}),
    ("class C:\n    made()\nvalues = [v() for _ in w()]\n", {"made": 1, "v": 1, "w": 1}),
    ("while cond():\n    with opened():\n        step()\n", {"cond": 1, "opened": 1, "step": 1}),
])
def test_depth_counts_the_repeating_nodes_around_each_call(source, expected):
    finder = _CallDepths()
    visit(cst.parse_module(source), finder)
    assert finder.depths == expected
