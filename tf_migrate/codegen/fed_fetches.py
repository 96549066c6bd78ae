"""Feeds fetched back: what TF1's run gave for a fetched tensor it was fed, from what the eager call returns.

    x = tf.placeholder(tf.int64, [])
    print(sess.run([x * 2, x], {x: 3}))                 # [np.int64(6), array(3)]
    print(to_numpy(run_x(x=3)))                         # [np.int64(6), np.int64(3)]   (the run, converted)
    print(as_fed_arrays(to_numpy(run_x(x=3)), (1,)))   # [np.int64(6), array(3)]

TF1 did not compute a fed tensor: its run gave back the value fed, converted to the tensor's dtype
(``np.asarray(value, dtype)``): a fed scalar came back as a 0-d array, where a computed scalar is a numpy scalar,
and the two print differently inside a list (``array(3)`` against ``np.int64(3)``). The generated function returns
the fed value as a tensor, whose ``.numpy()`` is a numpy scalar; the call site turns the fed ones back into arrays
(``numpy.asarray`` of an array is the array itself, so only scalars change). Only the fetch itself, or the items of
a list, tuple or dict literal it is (dict keys written as literals), are addressed; a feed fetched deeper in a
structure keeps the numpy scalar.
"""
from __future__ import annotations

import json
from typing import Iterable, List, Optional, Union

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.literals import Key, literal_key

FED_ARRAYS = "as_fed_arrays"
WHOLE = "whole"  # the fetch is itself a fed tensor


def fed_positions(fetch: cst.BaseExpression, fed_keys: Iterable[str]) -> Union[str, List[Key], None]:
    """:data:`WHOLE` where ``fetch`` is one of ``fed_keys``; the indices (or literal keys) of the items of a list,
    tuple or dict literal fetch that are; None where none is (or none can be addressed)."""
    fed = set(fed_keys)
    if not fed:
        return None
    if symbol_key(fetch) in fed:
        return WHOLE
    positions: List[Key] = []
    if isinstance(fetch, (cst.List, cst.Tuple)):
        if any(isinstance(element, cst.StarredElement) for element in fetch.elements):
            return None
        positions = [index for index, element in enumerate(fetch.elements) if symbol_key(element.value) in fed]
    elif isinstance(fetch, cst.Dict):
        for element in fetch.elements:
            if not isinstance(element, cst.DictElement):
                return None  # (``**more``: the keys are not all known)
            if symbol_key(element.value) in fed and literal_key(element.key) is not None:
                positions.append(literal_key(element.key))
    return positions or None


def with_fed_arrays(result: cst.BaseExpression, positions: Union[str, List[Key]], helper: str,
                    numpy: str) -> cst.BaseExpression:
    """``result`` (what the run's call gives, as numpy) with the fed values at ``positions`` as arrays."""
    if positions == WHOLE:
        return cst.Call(cst.Attribute(cst.Name(numpy), cst.Name("asarray")), args=[cst.Arg(result)])
    items = [json.dumps(position) if isinstance(position, str) else repr(position) for position in positions]
    written = f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return cst.Call(cst.Name(helper), args=[cst.Arg(result), cst.Arg(cst.parse_expression(written))])


def fed_arrays_helper(numpy: str, name: str = FED_ARRAYS) -> str:
    """The module helper :func:`with_fed_arrays` calls for the items of a list, tuple or dict."""
    return (f"\n\ndef {name}(fetched, fed):\n"
            f"    \"\"\"The fetched values with those at ``fed`` (indices or keys) as the arrays TF1's run gave for "
            f"fetched feeds\n"
            f"    (a fed scalar as a 0-d array, not a numpy scalar).\"\"\"\n"
            f"    if isinstance(fetched, dict):\n"
            f"        return type(fetched)((key, {numpy}.asarray(value) if key in fed else value) "
            f"for key, value in fetched.items())\n"
            f"    return type(fetched)({numpy}.asarray(value) if index in fed else value "
            f"for index, value in enumerate(fetched))\n")


def numpy_alias(aliases: dict) -> Optional[str]:
    """The name the module binds numpy to (``np``), if it imports it."""
    return next((local for local, full in sorted(aliases.items()) if full == "numpy"), None)
