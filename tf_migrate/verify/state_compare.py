"""Compares the trained variables of two verify runs (``child/state_dump.py`` saves them).

Pairing: TF1 names variables by scope (``layer1/W``, ``dense/kernel``); an
eager migration keeps those names where it creates variables with ``name=``
(the same names ``saver-var-list`` keys checkpoints by) or where Keras happens
to give the same layer names. When every legacy name is found among the
migrated variables with the same shape, variables pair by name (the k-th
variable of a name with the k-th of that name: a program that resets its
graph builds ``Variable`` again). Otherwise the
i-th legacy variable of a shape pairs with the i-th migrated variable of that
shape, both in creation order: the same rule that aligns random draws, so the
variable initialized from a draw is the one compared.

Initial values are compared first (a wrong initializer is named even when
training spread its error to every variable): they match when
``|a - b| <= atol + rtol * |b|`` elementwise. Trained values drift apart
by rounding over many steps (graph and eager kernels round differently, and
Adam scales tiny gradient differences up to whole steps, so a few values
can move far), so a trained variable differs only when at least ``DRIFT``
of its values differ by more than ``DRIFT`` of its largest magnitude; less is
reported as drift, not as a difference.
"""
from dataclasses import dataclass
from typing import List, Optional, Tuple

DRIFT = 0.1
EQUAL = "equal"
DIFFERENT = "different"
UNMATCHED = "unmatched"


@dataclass(frozen=True)
class StateVerdict:
    status: str  # EQUAL, DIFFERENT or UNMATCHED
    detail: str


def load(events) -> Optional[List[Tuple[str, object, object]]]:
    """[(name, value, initial value or None)] a run saved, or None when it saved none."""
    import numpy as np

    states = [e for e in events if e.get("event") == "state"]
    if not states or not states[-1].get("saved"):
        return None
    state = states[-1]
    try:
        with np.load(state["path"], allow_pickle=False) as arrays:
            return [(entry["name"], arrays[f"v{i}"], arrays[f"i{i}"] if entry.get("initial") else None)
                    for i, entry in enumerate(state["variables"])]
    except (OSError, ValueError):  # unreadable (object arrays need unpickling): nothing to compare
        return None


def _pairs(legacy, migrated):
    """(legacy entry, migrated entry or None) for each legacy variable (see module doc)."""
    # A name can repeat (a program that resets its graph and builds "Variable" again): the k-th
    # variable of a name pairs with the k-th of that name.
    migrated_by_name = {key: entry for key, entry in _numbered(migrated)}
    numbered = _numbered(legacy)
    if all(key in migrated_by_name and _shape(migrated_by_name[key][1]) == _shape(entry[1])
           for key, entry in numbered):
        return [(entry, migrated_by_name[key]) for key, entry in numbered]
    by_shape = {}
    for entry in migrated:
        by_shape.setdefault(_shape(entry[1]), []).append(entry)
    return [(entry, (by_shape.get(_shape(entry[1])) or [None]).pop(0)) for entry in legacy]


def _numbered(entries):
    """((name, how many before it had that name), entry) for each entry."""
    seen = {}
    numbered = []
    for entry in entries:
        seen[entry[0]] = seen.get(entry[0], -1) + 1
        numbered.append(((entry[0], seen[entry[0]]), entry))
    return numbered


def _shape(value):
    return tuple(getattr(value, "shape", ()))


def first_difference(a, b, rtol, atol, drift=None):
    """(index, count) of the first value out of tolerance and how many are, or None.

    With ``drift``, differences below that share of the largest magnitude count as none,
    and so do differences in fewer than that share of the values.
    """
    import numpy as np

    a, b = np.asarray(a), np.asarray(b)
    if drift is not None and a.dtype.kind in "fc" and a.size:
        scale = max(float(np.nanmax(np.abs(a))), float(np.nanmax(np.abs(b))))
        atol = max(atol, drift * scale)
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        close = np.isclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    else:
        close = a == b
    wrong = int(close.size - np.count_nonzero(close))
    if wrong == 0 or (drift is not None and wrong < drift * close.size):
        return None
    index = np.unravel_index(int(np.argmin(close.reshape(-1))), a.shape)
    return index, wrong


def compare(legacy, migrated, *, rtol=1e-5, atol=1e-6) -> Optional[StateVerdict]:
    """How the variables compare, initial values first, or None when a run saved none.

    ``legacy``, ``migrated``: ``load``'s lists of (name, trained value, initial value or None).
    """
    if legacy is None or migrated is None:
        return None
    pairs = _pairs(legacy, migrated)
    unpaired = [entry[0] for entry, other in pairs if other is None]
    if unpaired or len(legacy) != len(migrated):
        return StateVerdict(UNMATCHED, (
            f"the legacy program trained {len(legacy)} variables, the migrated one {len(migrated)}"
            + (f"; no migrated variable of the shape of {', '.join(unpaired[:3])}" if unpaired else "")
        ))
    for what, position, drift in (("initial value of", 2, None), ("trained variable", 1, DRIFT)):
        for entry, other in pairs:
            if entry[position] is None or other[position] is None:
                continue
            if _shape(entry[position]) != _shape(other[position]):
                shown = entry[0] + (f" (migrated {other[0]})" if other[0] != entry[0] else "")
                return StateVerdict(DIFFERENT, f"{what} {shown} has shape {_shape(entry[position])} in the legacy "
                                               f"run and {_shape(other[position])} in the migrated one")
            found = first_difference(entry[position], other[position], rtol, atol, drift)
            if found is None:
                continue
            (index, wrong), name = found, entry[0]
            shown = name + (f" (migrated {other[0]})" if other[0] != name else "")
            where = f"[{', '.join(str(int(i)) for i in index)}]" if index else ""
            size = getattr(entry[position], "size", 1)
            return StateVerdict(DIFFERENT, (
                f"{what} {shown} differs: {entry[position][index]} != {other[position][index]} at {name}{where} "
                f"({wrong} of {size} values differ)"
            ))
    counted = f"{len(pairs)} trained variable{'s' if len(pairs) != 1 else ''}"
    drifted = [entry[0] for entry, other in pairs if first_difference(entry[1], other[1], rtol, atol)]
    if drifted:
        return StateVerdict(EQUAL, (
            f"{counted} equal within drift ({', '.join(drifted[:3])}{' ...' if len(drifted) > 3 else ''} "
            "drifted)"
        ))
    return StateVerdict(EQUAL, f"{counted} equal")
