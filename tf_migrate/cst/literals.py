"""Collections written as literals, and reads of their items by a literal index or key.

``[a, b]``, ``(a, b)``, ``{"loss": a, 0: b}`` and ``dict(loss=a)`` give their items with the index or key each
is read by; ``ops[0]`` and ``ops["loss"]`` give the index or key they read. Both the rule that reads such items
through their names (``rules/collection_items``) and the check of runs needing part of a collection
(``analysis/collection_updates``) read collections here.
"""
from __future__ import annotations

from typing import List, Optional, Tuple, Union

import libcst as cst

Key = Union[int, str, bytes]


def literal_items(value: cst.BaseExpression) -> Optional[List[Tuple[Key, cst.BaseExpression]]]:
    """(index or key, value) of each item of a list, tuple or dict literal or a ``dict(k=v)`` call, in order;
    None for another expression, a starred item, ``**more``, or a key that is not a string or integer literal.
    (``dict`` is taken by its name: a caller whose module rebinds it must not ask.)"""
    if isinstance(value, cst.Dict):
        found: List[Tuple[Key, cst.BaseExpression]] = []
        for element in value.elements:
            if not isinstance(element, cst.DictElement) or literal_key(element.key) is None:
                return None
            found.append((literal_key(element.key), element.value))
        return found
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict":
        if any(arg.keyword is None or arg.star for arg in value.args):
            return None
        return [(arg.keyword.value, arg.value) for arg in value.args]
    if isinstance(value, (cst.List, cst.Tuple)) and not any(isinstance(e, cst.StarredElement) for e in value.elements):
        return [(index, element.value) for index, element in enumerate(value.elements)]
    return None


def literal_key(node: cst.BaseExpression) -> Optional[Key]:
    """The value of a string or integer literal (``"loss"``, ``0``); None for anything else."""
    if isinstance(node, (cst.SimpleString, cst.Integer)):
        return node.evaluated_value
    return None


def item_read(subscript: cst.Subscript) -> Optional[Key]:
    """The literal index or key ``x[0]`` / ``x["loss"]`` reads; None for a slice, a computed index, or several."""
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return None
    return literal_key(subscript.slice[0].slice.value)
