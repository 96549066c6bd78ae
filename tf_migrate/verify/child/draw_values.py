"""The values of a shared random draw, for ``random_draws`` (inside each verify program's process).

A draw's values are a function of its key (class and index) and its concrete shape alone, drawn with numpy from a
seed made of them, so the legacy and the migrated program get the same values for the same key.
"""

import zlib


def values(draw_key, shape, np_dtype, extra=()):
    """The values of one draw: a function of its key and concrete shape only."""
    import numpy as np

    distribution = draw_key[1]
    rng = np.random.RandomState(zlib.crc32(f"{draw_key}|{tuple(shape)}".encode()))
    if distribution == "shuffle":
        return rng.permutation(shape[0]).astype(np_dtype)
    if distribution == "uniform_int":
        return rng.randint(int(extra[0]), int(extra[1]), size=shape).astype(np_dtype)
    if distribution == "uniform":
        drawn = rng.random_sample(shape).astype(np_dtype)
        return np.where(drawn >= 1, np.nextafter(np.asarray(1, np_dtype), 0), drawn)
    drawn = rng.standard_normal(shape)
    if distribution == "truncated_normal":
        out_of_range = np.abs(drawn) > 2
        while out_of_range.any():
            drawn[out_of_range] = rng.standard_normal(int(out_of_range.sum()))
            out_of_range = np.abs(drawn) > 2
    return drawn.astype(np_dtype)


def log_uniform_candidates(draw_key, true_classes, num_sampled, unique, range_max):
    """(candidates, expected counts of the true classes, of the candidates), as TF's log-uniform sampler.

    P(k) = log((k + 2) / (k + 1)) / log(range_max + 1). With ``unique`` the draws
    repeat until ``num_sampled`` distinct classes came, and a class's expected
    count over those ``tries`` draws is ``1 - (1 - P(k)) ** tries``; without it,
    ``P(k) * num_sampled``.
    """
    import numpy as np

    rng = np.random.RandomState(zlib.crc32(f"{draw_key}".encode()))
    log_range = np.log(range_max + 1.0)

    def draw_one():
        return (int(np.exp(rng.random_sample() * log_range)) - 1) % range_max

    def expected(classes):
        classes = np.asarray(classes, np.float64)
        probability = np.log((classes + 2.0) / (classes + 1.0)) / log_range
        if unique:
            return (-np.expm1(tries * np.log1p(-probability))).astype(np.float32)
        return (probability * num_sampled).astype(np.float32)

    if unique:
        chosen, tries = [], 0
        while len(chosen) < num_sampled:
            tries += 1
            candidate = draw_one()
            if candidate not in chosen:
                chosen.append(candidate)
    else:
        tries = num_sampled
        chosen = [draw_one() for _ in range(num_sampled)]
    candidates = np.asarray(chosen, np.int64)
    return candidates, expected(true_classes), expected(candidates)
