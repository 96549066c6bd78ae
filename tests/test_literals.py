"""Collections written as literals and their items read by a literal index or key (tf_migrate/cst/literals)."""
import libcst as cst
import pytest

from tf_migrate.cst.literals import item_read, literal_items
from tf_migrate.cst.text import code


def _items(source):
    found = literal_items(cst.parse_expression(source))
    return None if found is None else [(key, code(value)) for key, value in found]


@pytest.mark.parametrize("source, expected", [
    ("[a, b]", [(0, "a"), (1, "b")]),
    ("(a, b + 1)", [(0, "a"), (1, "b + 1")]),
    ('{"loss": a, 3: b}', [("loss", "a"), (3, "b")]),
    ("dict(loss=a, train=t)", [("loss", "a"), ("train", "t")]),
    ("[]", []),
])
def test_items_of_a_literal_with_the_key_each_is_read_by(source, expected):
    assert _items(source) == expected


@pytest.mark.parametrize("source", [
    "[a, *rest]",            # a starred item: the indices after it are not known
    "{k: a}",                # a computed key
    '{"a": a, **more}',      # more items from elsewhere
    "dict(base, a=a)",       # a positional mapping
    "dict(**kw)",
    "make(a, b)",            # not a literal
    "ops",
])
def test_not_a_literal_of_known_items(source):
    assert _items(source) is None


@pytest.mark.parametrize("source, expected", [
    ("ops[0]", 0),
    ('ops["loss"]', "loss"),
    ("ops[i]", None),        # computed
    ("ops[1:]", None),       # a slice
    ("ops[0, 1]", None),     # several
    ("ops[-1]", None),       # a unary minus is not a literal index here
])
def test_item_read_by_a_literal(source, expected):
    subscript = cst.parse_expression(source)
    assert item_read(subscript) == expected
