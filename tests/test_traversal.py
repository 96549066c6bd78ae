"""tf_migrate.traversal: the fast walk must see what LibCST's own visit sees, and transform the same way."""
from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from tf_migrate.traversal import all_nodes, children, visit

ROOT = Path(__file__).resolve().parent.parent
MODERN = '''
import tensorflow as tf
@decorator(1)
async def f(a: int, /, b=2, *args, c: "x" = 3, **kw) -> None:
    global g
    async with a as (b, c), d:
        async for i in range(3):
            await x
    if (n := len(a)) > 1:
        print(f"{n=} {a!r:>10}")
    match a:
        case [1, *rest] if rest:
            pass
        case {"k": v, **others}:
            pass
        case Point(x=0) | None:
            pass
    try:
        raise ValueError from None
    except* TypeError as e:
        del e
    lambda *, k=1: (yield k)
    x = [i async for i in y if i] + {k: v for k, v in z} - {*s} @ (a if b else c)
    x[1:2, ::3] += ~-+x ** 2 // 3 % 4 << 5 >> 6 & 7 | 8 ^ 9
    assert not a and b or c, "msg"
    return (yield from g)
class C(B, metaclass=M):
    x: int = 1; y = 2  # comment
'''


@pytest.mark.parametrize("source", [MODERN] + [p.read_text() for p in sorted((ROOT / "samples").glob("*.py"))[:12]],
                         ids=["modern"] + [p.name for p in sorted((ROOT / "samples").glob("*.py"))[:12]])
def test_children_match_libcst_in_order(source):
    module = cst.parse_module(source)
    for node in all_nodes(module):
        mine, theirs = list(children(node)), list(node.children)
        assert len(mine) == len(theirs) and all(a is b for a, b in zip(mine, theirs)), type(node).__name__


class _Everything(cst.CSTVisitor):
    def __init__(self):
        self.nodes = []

    def on_visit(self, node):
        self.nodes.append(node)
        return True


def test_all_nodes_lists_what_a_libcst_visitor_visits_in_its_order():
    module = cst.parse_module(MODERN)
    seen = _Everything()
    module.visit(seen)
    listed = all_nodes(module)
    assert len(listed) == len(seen.nodes) and all(a is b for a, b in zip(listed, seen.nodes))


class _Record(cst.CSTVisitor):
    def __init__(self):
        self.events = []

    def visit_Name(self, node):
        self.events.append(("visit", node.value))

    def leave_Name(self, node):
        self.events.append(("leave", node.value))

    def visit_Call(self, node):
        self.events.append(("call", cst.Module([]).code_for_node(node.func)))
        return node.func.value != "skip" if isinstance(node.func, cst.Name) else True


def test_visitor_sees_the_same_events_as_libcst():
    module = cst.parse_module(MODERN + "skip(hidden)\nshown(also)\n")
    ours, theirs = _Record(), _Record()
    visit(module, ours)
    module.visit(theirs)
    assert ours.events == theirs.events and ("visit", "also") in ours.events and ("visit", "hidden") not in ours.events


class _Rename(cst.CSTTransformer):
    def leave_Name(self, original, updated):
        return updated.with_changes(value="renamed") if original.value == "old" else updated

    def leave_SimpleStatementLine(self, original, updated):
        return cst.RemoveFromParent() if "drop" in cst.Module([]).code_for_node(original) else updated

    def leave_Expr(self, original, updated):
        code = cst.Module([]).code_for_node(original)
        return cst.RemoveFromParent() if code == "gone()" else updated


def test_transformer_output_equals_libcst_and_unchanged_nodes_keep_identity():
    source = "a = old + 1\nb = keep(2)\ndrop(3)\nif a:\n    gone()\n    x = old\nc = 4; gone()\n"
    module = cst.parse_module(source)
    ours = visit(module, _Rename())
    assert ours.code == module.visit(_Rename()).code
    assert ours.code == "a = renamed + 1\nb = keep(2)\nif a:\n    x = renamed\nc = 4; \n"
    assert ours.body[1] is module.body[1]  # untouched statement: the same object


def test_removing_every_statement_of_a_line_drops_the_line_like_libcst():
    module = cst.parse_module("import tensorflow as tf\ngone()\nx = 1\n")
    assert visit(module, _Rename()).code == module.visit(_Rename()).code == "import tensorflow as tf\nx = 1\n"


def test_walk_of_a_deep_expression_does_not_recurse():
    module = cst.parse_module("x = " + " + ".join(["1"] * 3000) + "\n")
    names = _Record()
    visit(module, names)
    assert names.events == [("visit", "x"), ("leave", "x")]


class _Comments(cst.CSTVisitor):
    def __init__(self):
        self.seen = []

    def visit_Comment(self, node):
        self.seen.append(node.value)


def test_a_visitor_of_comments_still_sees_them():
    module = cst.parse_module("# head\nx = f(  # inside\n    1)  # tail\n")
    ours, theirs = _Comments(), _Comments()
    visit(module, ours)
    module.visit(theirs)
    assert ours.seen == theirs.seen == ["# head", "# inside", "# tail"]


@pytest.mark.parametrize("path", sorted((ROOT / "samples").glob("*.py"))[:8], ids=lambda p: p.name)
def test_node_positions_equal_libcst_position_provider(path):
    from libcst.metadata import MetadataWrapper, PositionProvider

    from tf_migrate.positions import node_positions

    module = cst.parse_module(path.read_text() + MODERN)
    assert node_positions(module) == dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider))
