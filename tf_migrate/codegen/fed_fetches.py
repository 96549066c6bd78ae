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
from typing import Callable, Iterable, List, Optional, Set, Union

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.imports import insert_after_tensorflow_import
from tf_migrate.cst.literals import Key, literal_key
from tf_migrate.cst.names import fresh

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


class FedArrays:
    """The fetched-feed wrapping of one module's runs: the helper's and numpy's names there (numpy's own alias
    where the module imports it), and whether a call was wrapped."""

    def __init__(self, aliases: dict, taken: Set[str]) -> None:
        self.helper = fresh(FED_ARRAYS, taken)
        taken.add(self.helper)
        self.numpy = numpy_alias(aliases)
        self.numpy_imported = self.numpy is not None
        if self.numpy is None:
            self.numpy = fresh("np", taken)
            taken.add(self.numpy)
        self.used = False

    def wrap(self, call: cst.BaseExpression, fetch: cst.BaseExpression, fed_keys: Iterable[str]) -> cst.BaseExpression:
        """``call`` (a run's replacement, as numpy) giving back the fed values ``fetch`` names as arrays."""
        positions = fed_positions(fetch, fed_keys)
        if positions is None:
            return call
        self.used = True
        return with_fed_arrays(call, positions, self.helper, self.numpy)

    def wrappers(self) -> Set[str]:
        """The calls that wrap a run's value (for a run whose value is dropped: cst/statements.DiscardedConversions)."""
        return {self.helper, f"{self.numpy}.asarray"} if self.used else set()

    def finish(self, module: cst.Module, used: Set[str], add_helper: Callable[[cst.Module, str], cst.Module]):
        """``module`` with the helper where a call still uses it (``add_helper`` writes it) and numpy imported where
        the module did not import it; ``used``: the names the module reads after the rewrite."""
        if not self.used or (self.helper not in used and self.numpy not in used):
            return module
        if self.helper in used:
            module = add_helper(module, fed_arrays_helper(self.numpy, self.helper))
        if not self.numpy_imported:
            module = insert_after_tensorflow_import(module, [f"import numpy as {self.numpy}"])
        return module
