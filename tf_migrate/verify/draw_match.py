"""Whether the random draws of two verify runs match (``child/random_draws.py`` logs them).

Both runs draw values that are a function of each draw's key (class, index,
concrete shape) alone, so equal multisets of keys mean both programs drew the
same random tensors. They are not comparable when:

* either run built a random op whose values are not shared (multinomial,
  gamma, Poisson), or drew inside a graph while loop (its iterations may run
  in parallel, so which draws which values is not fixed);
* one run drew a key twice: a class got a new graph site after its sites had
  been evaluated, so indices ``e * m + c`` overlap and values repeat;
* the multisets differ (unless one run drew nothing at all: then no value it
  used can be misaligned, and the outputs decide): an op drawn on every step in one program and once in
  the other, an op missing or extra, or same-class ops built in another order.
"""
from collections import Counter


def _key(event):
    purpose, distribution, shape_key = event["draw_class"]
    shape_key = tuple(shape_key) if shape_key is not None else None
    return (purpose, distribution, shape_key, event["n"], tuple(event["shape"]))


def _draws(events):
    return [e for e in events if e.get("event") == "draw"]


def reconcile(legacy_events, migrated_events):
    """Why the two runs' random draws cannot be matched, or None when they match."""
    for label, events in (("legacy", legacy_events), ("migrated", migrated_events)):
        unshared = [e for e in events if e.get("event") == "unshared"]
        if unshared:
            first = unshared[0]
            return (
                f"the {label} program uses the random op {first['op']} at {first['where']}, "
                "whose values the verifier cannot share between graph and eager runs"
            )
    for label, events in (("legacy", legacy_events), ("migrated", migrated_events)):
        loops = [e for e in _draws(events) if e.get("loop")]
        if loops:
            return (
                f"the {label} program draws random values inside a while loop at {loops[0]['where']} "
                "(dynamic_rnn, tf.while_loop); its iterations may run in parallel, so their draws cannot be aligned"
            )
    counts = {}
    for label, events in (("legacy", legacy_events), ("migrated", migrated_events)):
        counts[label] = Counter(_key(e) for e in _draws(events))
        repeated = [key for key, count in counts[label].items() if count > 1]
        if repeated:
            return (
                f"the {label} program drew {_describe(repeated[:1], events)} more than once: a random op "
                "was built after others of its kind had been evaluated, so their draws cannot be aligned"
            )
    if counts["legacy"] == counts["migrated"] or not counts["legacy"] or not counts["migrated"]:
        return None  # a program that drew nothing cannot have used a value the other drew
    extra_legacy = sorted(counts["legacy"] - counts["migrated"], key=_order)
    extra_migrated = sorted(counts["migrated"] - counts["legacy"], key=_order)
    return (
        f"random draws differ: the legacy program drew {sum(counts['legacy'].values())} random tensors, "
        f"the migrated one {sum(counts['migrated'].values())}; unmatched legacy draws "
        f"{_describe(extra_legacy, legacy_events)}, unmatched migrated draws "
        f"{_describe(extra_migrated, migrated_events)} (an op drawn on every step in one program but "
        "once in the other, an op missing or extra, or ops of one kind and shape built in another order)"
    )


def legacy_drew_more(legacy_events, migrated_events) -> bool:
    """Whether the legacy run drew every tensor the migrated one drew, and more (a second initializer run
    drawing the first model's variables again, which eager code made once). Each value the migrated run used is
    then one the legacy run drew under the same key, but the legacy run may have used another there; equal
    output still shows equal output, other output proves nothing."""
    legacy = Counter(_key(e) for e in _draws(legacy_events))
    migrated = Counter(_key(e) for e in _draws(migrated_events))
    return bool(migrated) and not migrated - legacy and bool(legacy - migrated)


def _order(key):
    return tuple(repr(part) for part in key)


def _describe(keys, events):
    if not keys:
        return "none"
    where = {_key(e): e["where"] for e in _draws(events)}
    shown = [
        f"{purpose} {distribution}{list(shape)} #{n} at {where.get((purpose, distribution, shape_key, n, shape), '?')}"
        for purpose, distribution, shape_key, n, shape in keys[:3]
    ]
    more = f" and {len(keys) - 3} more" if len(keys) > 3 else ""
    return ", ".join(shown) + more
