"""Shared random draws for ``tf_migrate.verify``: the rule and its bookkeeping.

TensorFlow's random ops give different values in graph and eager mode, even with
the same seeds. In both runs ``install`` replaces the kernels that every public
random entry point ends in (``gen_random_ops`` and the stateless ops that Keras 3
uses), so ``tf.random_normal``, ``tf.random.uniform``, ``truncated_normal``, the
``tf.compat.v1`` initializers, ``glorot_uniform``, Keras initializers and dropout
all draw from numpy instead:

* a *site* is one random op: one op built in a graph (legacy graph mode, or a
  ``tf.function`` trace), or one eager call;
* a site's values come from ``numpy.random.RandomState`` seeded with its
  distribution, its shape and its *ordinal*: how many sites of the same
  distribution and static shape were built before it. TF seeds play no part,
  so the legacy and the migrated program share values when they build the same
  random ops in the same order, whatever seeds they pass;
* graph sites draw when they are evaluated (``numpy_function``), eager sites
  when called. Every draw is logged.

``reconcile`` then decides whether the two runs can be compared at all:

* a graph site evaluated more than once is a per-step random op (dropout, noise
  drawn inside the training graph): under TF it draws new values each time, so
  the migrated program's draws cannot be matched to it: not comparable;
* otherwise the multisets of (distribution, shape, ordinal) drawn must be equal,
  i.e. both runs drew the same values; if not (eager draws the same op on every
  step, an op is missing or extra): not comparable;
* random ops whose values are not shared (shuffles, multinomial, gamma, Poisson,
  the candidate samplers of ``nce_loss``/``sampled_softmax_loss``, ``tf.random.Generator``) make a run not comparable as soon as they are built.
"""

import inspect
import zlib

_SHARED = {
    # module: {function: (distribution, names of its extra value arguments)}
    "gen_random_ops": {
        "random_standard_normal": ("normal", ()),
        "random_uniform": ("uniform", ()),
        "truncated_normal": ("truncated_normal", ()),
        "random_uniform_int": ("uniform_int", ("minval", "maxval")),
    },
    "gen_stateless_random_ops": {
        "stateless_random_normal": ("normal", ()),
        "stateless_random_uniform": ("uniform", ()),
        "stateless_truncated_normal": ("truncated_normal", ()),
        "stateless_random_uniform_int": ("uniform_int", ("minval", "maxval")),
    },
    "gen_stateless_random_ops_v2": {
        "stateless_random_normal_v2": ("normal", ()),
        "stateless_random_uniform_v2": ("uniform", ()),
        "stateless_truncated_normal_v2": ("truncated_normal", ()),
        "stateless_random_uniform_int_v2": ("uniform_int", ("minval", "maxval")),
    },
}
_UNSHARED = {
    "gen_random_ops": (
        "random_shuffle", "multinomial", "random_gamma", "random_poisson_v2",
        "parameterized_truncated_normal",
    ),
    "gen_stateless_random_ops": (
        "stateless_multinomial", "stateless_random_binomial", "stateless_random_poisson",
        "stateless_parameterized_truncated_normal",
    ),
    "gen_stateless_random_ops_v2": (
        "stateless_shuffle", "stateless_random_uniform_full_int_v2", "stateless_random_gamma_v3",
    ),
    # nce_loss / sampled_softmax_loss draw their negative classes here: a sampler inside the training step
    "gen_candidate_sampling_ops": (
        "log_uniform_candidate_sampler", "uniform_candidate_sampler", "learned_unigram_candidate_sampler",
        "fixed_unigram_candidate_sampler", "thread_unsafe_unigram_candidate_sampler", "all_candidate_sampler",
    ),
    "gen_stateful_random_ops": (
        "stateful_standard_normal_v2", "stateful_uniform", "stateful_truncated_normal",
        "stateful_uniform_int", "stateful_uniform_full_int", "stateful_random_binomial",
    ),
}


def _values(distribution, shape, ordinal, extra, np_dtype):
    import numpy as np

    seed = zlib.crc32(f"{distribution}|{tuple(shape)}|{ordinal}".encode())
    rng = np.random.RandomState(seed)
    if distribution == "uniform_int":
        return rng.randint(int(extra[0]), int(extra[1]), size=shape).astype(np_dtype)
    if distribution == "uniform":
        values = rng.random_sample(shape).astype(np_dtype)
        return np.where(values >= 1, np.nextafter(np.asarray(1, np_dtype), 0), values)
    values = rng.standard_normal(shape)
    if distribution == "truncated_normal":
        out_of_range = np.abs(values) > 2
        while out_of_range.any():
            values[out_of_range] = rng.standard_normal(int(out_of_range.sum()))
            out_of_range = np.abs(values) > 2
    return values.astype(np_dtype)


class _Sites:
    def __init__(self, tf, log):
        self.tf = tf
        self.log = log
        self.count = 0
        self.ordinals = {}

    def new(self, distribution, static_shape):
        key = (distribution, static_shape)
        ordinal = self.ordinals.get(key, 0)
        self.ordinals[key] = ordinal + 1
        self.count += 1
        return self.count, ordinal, self.log.where()

    def random_op(self, distribution, extra_names, original):
        tf = self.tf
        from tensorflow.python.framework import tensor_util
        from tensorflow.python.ops import script_ops

        signature = inspect.signature(original)

        def op(*args, **kwargs):
            arguments = signature.bind(*args, **kwargs)
            arguments.apply_defaults()
            shape = arguments.arguments["shape"]
            extra = [arguments.arguments[name] for name in extra_names]
            if extra:
                dtype = tf.convert_to_tensor(extra[0]).dtype
            else:
                dtype = tf.as_dtype(arguments.arguments["dtype"])
            np_dtype = dtype.as_numpy_dtype
            if tf.executing_eagerly():
                concrete = tuple(int(d) for d in tf.reshape(shape, [-1]).numpy())
                site, ordinal, where = self.new(distribution, concrete)
                self.log.write(event="draw", site=site, distribution=distribution, shape=list(concrete),
                               ordinal=ordinal, where=where, graph=False)
                extra_values = [tf.convert_to_tensor(e).numpy() for e in extra]
                return tf.constant(_values(distribution, concrete, ordinal, extra_values, np_dtype), dtype=dtype)
            shape_tensor = tf.convert_to_tensor(shape)
            static = tensor_util.constant_value_as_shape(shape_tensor)
            static_key = tuple(static.as_list()) if static.rank is not None else None
            site, ordinal, where = self.new(distribution, static_key)

            def draw(shape_values, *extra_values):
                concrete = tuple(int(d) for d in shape_values.reshape(-1))
                self.log.write(event="draw", site=site, distribution=distribution, shape=list(concrete),
                               ordinal=ordinal, where=where, graph=True)
                return _values(distribution, concrete, ordinal, extra_values, np_dtype)

            out = script_ops.numpy_function(draw, [shape_tensor, *extra], dtype, stateful=True)
            out.set_shape(static)
            return out

        op.__wrapped__ = original
        return op

    def unshared_op(self, name, original):
        def op(*args, **kwargs):
            self.log.write(event="unshared", op=name, where=self.log.where())
            return original(*args, **kwargs)

        op.__wrapped__ = original
        return op


def install(tf, log):
    """Routes every random kernel of this process through shared numpy draws."""
    import importlib

    sites = _Sites(tf, log)
    for module_name, functions in _SHARED.items():
        module = importlib.import_module("tensorflow.python.ops." + module_name)
        for name, (distribution, extra_names) in functions.items():
            setattr(module, name, sites.random_op(distribution, extra_names, getattr(module, name)))
    for module_name, names in _UNSHARED.items():
        module = importlib.import_module("tensorflow.python.ops." + module_name)
        for name in names:
            if hasattr(module, name):
                setattr(module, name, sites.unshared_op(name, getattr(module, name)))


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
