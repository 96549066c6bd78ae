"""What one call costs: ``sess.run`` of a TF1 graph against a ``tf.function`` of the same small graph.

The floor under the step-time ratios of ``bench_migrated.py``: for sub-millisecond training steps the
per-call cost is most of the step. Prints the median wall time of a call (us) in each of ``--rounds``
interleaved rounds of ``--calls`` calls, and their minimum; with ``--single-thread`` both sides use
one inter-op and one intra-op thread.

    .venv/bin/python benchmarks/bench_call_overhead.py [--calls 300] [--rounds 4] [--single-thread]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import tensorflow as tf


def median_us(call, calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return 1e6 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--single-thread", action="store_true")
    args = parser.parse_args()
    config = None
    if args.single_thread:
        tf.config.threading.set_inter_op_parallelism_threads(1)
        tf.config.threading.set_intra_op_parallelism_threads(1)
        config = tf.compat.v1.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
    batch = np.ones((256, 32), np.float32)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 32])
        y = tf.reduce_sum(tf.nn.relu(x * 2.0 + 1.0))
        session = tf.compat.v1.Session(config=config)

    @tf.function(input_signature=[tf.TensorSpec([None, 32], tf.float32)])
    def compiled(x):
        return tf.reduce_sum(tf.nn.relu(x * 2.0 + 1.0))

    concrete = compiled.get_concrete_function()
    cases = {"sess.run": lambda: session.run(y, {x: batch}), "tf.function": lambda: compiled(batch).numpy(),
             "concrete function": lambda: concrete(batch).numpy()}
    for call in cases.values():
        call()
    results = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, call in cases.items():
            results[name].append(median_us(call, args.calls))
    for name, values in results.items():
        print(f"{name:18s} min {min(values):7.0f} us   rounds {' '.join(f'{v:.0f}' for v in values)}")


if __name__ == "__main__":
    main()
