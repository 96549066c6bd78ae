"""Whether the random draws of two verify runs match (``child/random_draws.py`` logs them)."""


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
        draws = {}
        for e in events:
            if e.get("event") == "draw" and e["graph"]:
                draws.setdefault(e["site"], []).append(e)
        for site_draws in draws.values():
            if len(site_draws) > 1:
                first = site_draws[0]
                return (
                    f"per-step random op: the {label} program's {first['distribution']} op at "
                    f"{first['where']} is evaluated {len(site_draws)} times; TF draws new values "
                    "each time, which cannot be matched between graph and eager runs"
                )
    legacy = sorted(_draw_keys(legacy_events))
    migrated = sorted(_draw_keys(migrated_events))
    if legacy != migrated:
        extra_legacy = [k for k in legacy if k not in migrated]
        extra_migrated = [k for k in migrated if k not in legacy]
        return (
            f"random draws differ: the legacy program drew {len(legacy)} random tensors, the "
            f"migrated one {len(migrated)}; unmatched legacy draws {_describe(extra_legacy, legacy_events)}, "
            f"unmatched migrated draws {_describe(extra_migrated, migrated_events)} (an op drawn "
            "on every step in one program but once in the other, or ops built in another order)"
        )
    return None


def _draw_keys(events):
    return [
        (e["distribution"], tuple(e["shape"]), e["ordinal"])
        for e in events
        if e.get("event") == "draw"
    ]


def _describe(keys, events):
    if not keys:
        return "none"
    where = {(e["distribution"], tuple(e["shape"]), e["ordinal"]): e["where"] for e in events if e.get("event") == "draw"}
    shown = [f"{d}{list(s)} #{o} at {where.get((d, s, o), '?')}" for d, s, o in keys[:3]]
    more = f" and {len(keys) - 3} more" if len(keys) > 3 else ""
    return ", ".join(shown) + more
