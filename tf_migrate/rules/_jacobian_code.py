"""The vectorized form of a TF1 Jacobian recipe, as code (see :mod:`tf_migrate.rules._jacobian`).

``y_sums``: what one ``tf.gradients`` call differentiated, for every index at once
(``tf.reduce_sum(y, axis=1)``, or ``y`` itself for a vector); the batched call with the
element's wrappers applied to every row; and the rows moved to the axis ``tf.stack`` put them
on. Where the program text settles a rank (:mod:`tf_migrate.analysis.static_ranks`), axes and
permutations are written out; elsewhere they are computed from ``.shape.rank``.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.text import code
from tf_migrate.rules._edits import int_literal
from tf_migrate.rules._jacobian import Element, IndexRange, covers_axis


def sums_expression(element: Element, rng: IndexRange, tf: str, rank: Optional[int] = None) -> str:
    """``y_sums``: what one tf.gradients call differentiated, for every index of the range. ``rank``: the base's,
    where the text settles it (analysis.static_ranks): the axes are then written out, or there is no sum."""
    base = code(element.base)
    sliced, dropped, kept_before = [], 0, 0
    for i, el in enumerate(element.subscript):
        if i == element.position:
            sliced.append(":")
        elif isinstance(el.slice, cst.Index):
            dropped += 1
            sliced.append(code(el.slice.value))
        else:
            kept_before += i < element.position
            sliced.append(code(el.slice))
    full = all(s == ":" for s in sliced)
    rows = base if full else f"{base}[{', '.join(sliced)}]"
    summed = None
    if rank is not None:
        summed = [a for a in range(rank - dropped) if a != kept_before]
    if summed is not None:
        axis = str(summed[0]) if len(summed) == 1 else "[" + ", ".join(map(str, summed)) + "]"
    elif kept_before == 0:
        axis = f"list(range(1, {base}.shape.rank" + (f" - {dropped}" if dropped else "") + "))"
    else:
        rank_code = f"{base}.shape.rank" + (f" - {dropped}" if dropped else "")
        axis = "[" + "".join(f"{a}, " for a in range(kept_before)) + f"*range({kept_before + 1}, {rank_code})]"
    selection = ""
    if not covers_axis(rng, element, tf):
        start = "" if rng.start is None or int_literal(rng.start) == 0 else code(rng.start)
        step = "" if rng.step is None else ":" + code(rng.step)
        selection = f"[{start}:{code(rng.stop)}{step}]"
    if summed == []:  # a vector: each row is one element, the gradient's ys as they are
        if not selection:
            return rows
        sliced[element.position] = selection[1:-1]
        return f"{base}[{', '.join(sliced)}]"
    return f"{tf}.reduce_sum({rows}, axis={axis}){selection}"


def sums_stem(element: Element) -> str:
    key = symbol_key(element.base)
    stem = key.split(".")[-1] if key is not None else "ys"
    kept_before = sum(1 for i, el in enumerate(element.subscript)
                      if i < element.position and not isinstance(el.slice, cst.Index))
    return f"{stem}_" + {0: "row_sums", 1: "col_sums"}.get(kept_before, f"axis{kept_before}_sums")


def batched_expression(element: Element, sums: str, jacobian: str, tf: str, wrappers=None) -> str:
    """Every element at once: ``F`` applied to each row of the Jacobian of ``sums``."""
    out = f"{jacobian}({sums}, {code(element.source)})"
    for kind, arg in element.wrappers if wrappers is None else wrappers:
        if kind == "expand_dims":
            axis = int_literal(arg)
            out = f"{tf}.expand_dims({out}, axis={axis + 1 if axis >= 0 else axis})"
        else:
            out = f"{tf}.reshape({out}, [-1, {', '.join(code(e.value) for e in arg.elements)}])"
    return out


def batched_rank(element: Element, source_rank: Optional[int], wrappers=None) -> Optional[int]:
    """The rank of :func:`batched_expression`'s value where the source's rank is known: one axis for the rows,
    the source's axes, and what the wrappers add (``expand_dims`` one, ``reshape`` to ``[-1, *dims]`` its dims)."""
    if source_rank is None:
        return None
    rank = 1 + source_rank
    for kind, arg in element.wrappers if wrappers is None else wrappers:
        rank = rank + 1 if kind == "expand_dims" else 1 + len(arg.elements)
    return rank


def stacked_along(name: str, axis: int, tf: str, rank: Optional[int] = None) -> str:
    """The rows of ``name`` (a leading axis) moved to ``axis``, as tf.stack(rows, axis) puts them. ``rank``: the
    value's, where known: the permutation is then written out."""
    if axis == 0:
        return name
    if rank is not None and -rank <= axis < rank:
        position = axis % rank
        order = [a for a in range(1, rank)]
        order.insert(position, 0)
        return f"{tf}.transpose({name}, [{', '.join(map(str, order))}])"
    if axis == -1:
        return f"{tf}.transpose({name}, [*range(1, {name}.shape.rank), 0])"
    leading = ", ".join(str(a) for a in range(1, axis + 1))
    return f"{tf}.transpose({name}, [{leading}, 0, *range({axis + 1}, {name}.shape.rank)])"
