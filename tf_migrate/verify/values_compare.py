"""Compares the results a program's names hold at its end (``child/program_values.py`` saves them).

The legacy run keeps the module-level names bound to what ``Session.run`` returned
(or lists of such results); the migrated run keeps every name holding numbers. Each
legacy name is looked up by name in the migrated run: a name the migration no longer
binds is not compared (it may have folded a fetch into a compiled step), a name bound
to numbers of another shape is a difference. Values compare like trained variables
(``state_compare``): within ``rtol``/``atol`` they are equal; apart by drift only
(under ``DRIFT`` of the largest magnitude, or in under ``DRIFT`` of the values) they are
equal within drift; otherwise they differ, and the verdict names the first one.
"""
from typing import List, Optional, Tuple

from tf_migrate.verify.state_compare import DIFFERENT, DRIFT, EQUAL, StateVerdict, first_difference


def load(events) -> Optional[List[Tuple[str, object, bool]]]:
    """[(name, value, fetched)] a run saved, or None when it saved none."""
    import numpy as np

    saved = [e for e in events if e.get("event") == "values"]
    if not saved:
        return None
    try:
        with np.load(saved[-1]["path"], allow_pickle=False) as arrays:
            return [(entry["name"], arrays[f"n{i}"], entry["fetched"]) for i, entry in enumerate(saved[-1]["names"])]
    except (OSError, ValueError):  # unreadable: nothing to compare
        return None


def compare(legacy, migrated, *, rtol=1e-5, atol=1e-6) -> Optional[StateVerdict]:
    """How the legacy run's results compare with the same names in the migrated run, or None
    when there is nothing to compare."""
    if not legacy or not migrated:
        return None
    by_name = {name: value for name, value, _ in migrated}
    pairs = [(name, value, by_name[name]) for name, value, fetched in legacy if fetched and name in by_name]
    if not pairs:
        return None
    drifted = []
    for name, value, other in pairs:
        if value.shape != other.shape:
            return StateVerdict(DIFFERENT, (
                f"`{name}` holds numbers of shape {tuple(value.shape)} at the legacy program's end, "
                f"of shape {tuple(other.shape)} at the migrated one's"))
        found = first_difference(value, other, rtol, atol, DRIFT)
        if found is not None:
            (index, wrong) = found
            where = f"[{', '.join(str(int(i)) for i in index)}]" if index else ""
            return StateVerdict(DIFFERENT, (
                f"`{name}{where}` is {value[index]} at the legacy program's end, {other[index]} at the migrated "
                f"one's ({wrong} of {value.size} values differ)"))
        if first_difference(value, other, rtol, atol) is not None:
            drifted.append(name)
    counted = f"{len(pairs)} result{'s' if len(pairs) != 1 else ''} held by names"
    if drifted:
        return StateVerdict(EQUAL, f"{counted} equal within drift ({', '.join(drifted[:3])} drifted)")
    return StateVerdict(EQUAL, f"{counted} equal")
