"""Jacobian benchmark: the seed's TF1 recipes, TF's own vectorizers and the compat shims.

Run on demand (not a unit test), on an otherwise idle machine:

    .venv/bin/python benchmarks/bench_jacobian.py            # ~5-10 min on 2 cores
    .venv/bin/python benchmarks/bench_jacobian.py --quick    # m, n <= 100 only

It writes benchmarks/results_jacobian.md: per problem and size, the time of graph
build + first run ("first"), the best time of a repeated call ("steady": the
minimum, as timeit reports, since other processes only ever add time; measured
round-robin over all methods of a problem) and the peak resident memory above
the baseline during build + first run ("peak MB": VmHWM, reset before each
method; TF's allocator may reuse freed memory, so it is an estimate), then the
targets of issue 2, met or not.
"""

import argparse
import os
import platform
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.ops.parallel_for import gradients as parallel_for  # noqa: E402

import compat  # noqa: E402

SIZES = {
    "full": [(100, 100), (500, 500), (1000, 1000), (1000, 100)],
    "quick": [(100, 100), (100, 20)],
}
SEED_LOOP_MAX_M = 500  # measured ~70 s at m = 1000 (shared/REFERENCE.md): skipped above
MLP_SEED_LOOP_MAX_M = 100
STEADY_SECONDS = 2.0  # per method, spread over ROUNDS rounds of at least one call each
ROUNDS = 5
HIDDEN = 256
PROBLEMS = ("tanh(A x)", f"MLP n-{HIDDEN}-m, tanh")


# --- problems: y = f(x) with x of shape (n,), y of shape (m,) ---------------------------


@dataclass
class Problem:
    name: str
    m: int
    n: int
    weights: dict = field(default_factory=dict)

    def __post_init__(self):
        rng = np.random.default_rng(0)
        normal = lambda *shape: (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)  # noqa: E731
        self.x = rng.standard_normal(self.n).astype(np.float32)
        if self.name == PROBLEMS[0]:
            self.weights = {"A": normal(self.m, self.n)}
        else:
            self.weights = {"W1": normal(HIDDEN, self.n), "W2": normal(self.m, HIDDEN)}

    def make(self, variables):
        """Returns f(x) over these tf.Variables (created in the current graph or eagerly)."""
        if self.name == PROBLEMS[0]:
            a = variables["A"]
            return lambda x: tf.tanh(tf.linalg.matvec(a, x))
        w1, w2 = variables["W1"], variables["W2"]
        return lambda x: tf.linalg.matvec(w2, tf.tanh(tf.linalg.matvec(w1, x)))

    def gemm_reference(self, variables, x):
        """The whole Jacobian as one hand-batched VJP: identity cotangents, GEMMs."""
        eye = tf.eye(self.m)
        if self.name == PROBLEMS[0]:
            a = variables["A"]
            y = tf.tanh(tf.linalg.matvec(a, x))
            return (eye * (1 - y**2)) @ a
        w1, w2 = variables["W1"], variables["W2"]
        h = tf.tanh(tf.linalg.matvec(w1, x))
        return ((eye @ w2) * (1 - h**2)) @ w1


# --- measurement -----------------------------------------------------------------------------


@dataclass
class Result:
    first_s: float = float("nan")
    steady_ms: float = float("nan")
    peak_mb: float = float("nan")
    note: str = ""


def _rss_kb(field_name):
    status = Path("/proc/self/status").read_text()
    return int(re.search(rf"{field_name}:\s+(\d+)", status).group(1))


def _reset_peak():
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
    except OSError:
        pass


def prepare(runner, problem, builder):
    """Builds and runs a method once: (Result with first_s and peak_mb, call, close)."""
    _reset_peak()
    before = _rss_kb("VmRSS")
    first, call, close = runner(problem, builder)
    return Result(first, peak_mb=(_rss_kb("VmHWM") - before) / 1024), call, close


def best_times(calls):
    """Best time per call in ms, measured round-robin so that other load hits all alike."""
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(ROUNDS):
        for name, call in calls.items():
            deadline = time.perf_counter() + STEADY_SECONDS / ROUNDS
            while True:
                start = time.perf_counter()
                call()
                best[name] = min(best[name], (time.perf_counter() - start) * 1e3)
                if time.perf_counter() > deadline:
                    break
    return best


def in_graph(problem, build):
    """Graph mode, as TF1 code runs it: build + first sess.run, then sess.run again."""
    start = time.perf_counter()
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        variables = {k: tf.compat.v1.Variable(v) for k, v in problem.weights.items()}
        x = tf.compat.v1.placeholder(tf.float32, (problem.n,))
        out = build(problem, variables, x)
        sess = tf.compat.v1.Session(graph=graph)
        sess.run(tf.compat.v1.global_variables_initializer())
        sess.run(out, {x: problem.x})
    return time.perf_counter() - start, lambda: sess.run(out, {x: problem.x}), sess.close


def eager(problem, make_call):
    """Eager mode: make_call(problem, f, variables, x) returns the function to call."""
    variables = {k: tf.Variable(v) for k, v in problem.weights.items()}
    f, x = problem.make(variables), tf.constant(problem.x)
    start = time.perf_counter()
    call = make_call(problem, f, variables, x)
    np.asarray(call())
    return time.perf_counter() - start, lambda: np.asarray(call()), lambda: None


# --- methods ---------------------------------------------------------------------------------


def seed_loop(problem, variables, x):
    y = problem.make(variables)(x)
    return tf.stack([tf.gradients(y[i], x)[0] for i in range(problem.m)])


def map_fn_over_indices(problem, variables, x):
    y = problem.make(variables)(x)
    return tf.map_fn(
        lambda i: tf.gradients(tf.gather(y, i), x)[0],
        tf.range(problem.m),
        fn_output_signature=tf.float32,
    )


def tape_jacobian_eager(problem, f, variables, x):
    def call():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.jacobian(y, x)

    return call


def tape_jacobian_function(problem, f, variables, x):
    @tf.function
    def call(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.jacobian(y, x)

    return lambda: call(x)


def forward_accumulator_in_graph(problem, variables, x):
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = problem.make(variables)(x)
    return acc.jvp(y)


def tape_jacobian_sum_eager(problem, f, variables, x):
    jac = tape_jacobian_eager(problem, f, variables, x)
    return lambda: tf.reduce_sum(jac(), axis=1)  # the seed's TF2 recipe for dy/dx


def tape_jacobian_sum_function(problem, f, variables, x):
    jac = tape_jacobian_eager(problem, f, variables, x)
    return tf.function(lambda: tf.reduce_sum(jac(), axis=1), autograph=False)


def gemm_function(problem, f, variables, x):
    call = tf.function(lambda x: problem.gemm_reference(variables, x), autograph=False)
    return lambda: call(x)


def pfor_jacobian(problem, variables, x):
    return parallel_for.jacobian(problem.make(variables)(x), x)


def gemm_in_graph(problem, variables, x):
    return problem.gemm_reference(variables, x)


def jacobian_v1(method):
    return lambda problem, variables, x: compat.jacobian_v1(
        problem.make(variables), x, method=method
    )


def jacobian_v1_sum(problem, variables, x):
    return tf.reduce_sum(compat.jacobian_v1(problem.make(variables), x), axis=1)


def per_output_grad_v1(problem, variables, x):
    return compat.per_output_grad_v1(problem.make(variables), x)


def jacobian_v2(problem, f, variables, x):
    return lambda: compat.jacobian_v2(f, x)


def per_output_grad_v2(problem, f, variables, x):
    return lambda: compat.per_output_grad_v2(f, x)


GRAPH, EAGER = "graph (TF1 Session)", "eager (TF2)"
SEED_LOOP = "seed loop: tf.gradients(y[i], x) per element"
GEMM = "hand-batched VJP, GEMM (reference)"
V1 = "compat.jacobian_v1 (auto)"
TAPE_EAGER = "GradientTape.jacobian, eager"
TAPE_FUNCTION = "GradientTape.jacobian in tf.function"
V2 = "compat.jacobian_v2(f, x) (auto)"
SUM_V1 = "Jacobian then sum: jacobian_v1 + reduce_sum"
PER_OUTPUT_V1 = "compat.per_output_grad_v1"
SUM_EAGER = "Jacobian then sum: tape.jacobian + reduce_sum, eager (seed TF2)"
SUM_FUNCTION = "Jacobian then sum: tape.jacobian + reduce_sum, tf.function"
PER_OUTPUT_V2 = "compat.per_output_grad_v2(f, x)"

# (name, mode, runner, builder): builder(problem, variables, x) -> tensor for in_graph,
# builder(problem, f, variables, x) -> call for eager.
METHODS = [
    (SEED_LOOP, GRAPH, in_graph, seed_loop),
    ("tf.map_fn over tf.range(m)", GRAPH, in_graph, map_fn_over_indices),
    ("parallel_for.jacobian (pfor)", GRAPH, in_graph, pfor_jacobian),
    (GEMM, GRAPH, in_graph, gemm_in_graph),
    (V1, GRAPH, in_graph, jacobian_v1("auto")),
    ("compat.jacobian_v1 method='pfor'", GRAPH, in_graph, jacobian_v1("pfor")),
    ("compat.jacobian_v1 method='forward'", GRAPH, in_graph, jacobian_v1("forward")),
    (TAPE_EAGER, EAGER, eager, tape_jacobian_eager),
    (TAPE_FUNCTION, EAGER, eager, tape_jacobian_function),
    ("hand-batched VJP, GEMM, in tf.function", EAGER, eager, gemm_function),
    (V2, EAGER, eager, jacobian_v2),
]

DERIVATIVE_METHODS = [
    (SUM_V1, GRAPH, in_graph, jacobian_v1_sum),
    (PER_OUTPUT_V1, GRAPH, in_graph, per_output_grad_v1),
    ("ForwardAccumulator with ones, in graph mode", GRAPH, in_graph, forward_accumulator_in_graph),
    (SUM_EAGER, EAGER, eager, tape_jacobian_sum_eager),
    (SUM_FUNCTION, EAGER, eager, tape_jacobian_sum_function),
    (PER_OUTPUT_V2, EAGER, eager, per_output_grad_v2),
]


def skip_reason(name, problem):
    if name != SEED_LOOP:
        return None
    limit = SEED_LOOP_MAX_M if problem.name == PROBLEMS[0] else MLP_SEED_LOOP_MAX_M
    if problem.m > limit:
        return (
            f"skipped: the seed loop above m = {limit} on {problem.name} "
            "(it takes ~70 s at m = 1000, shared/REFERENCE.md)"
        )
    return None


def run_problem(problem, log):
    """All methods on one problem: first runs in turn, then steady times round-robin."""
    results, calls, closes = {}, {}, []
    for name, _, runner, builder in METHODS + DERIVATIVE_METHODS:
        reason = skip_reason(name, problem)
        if reason:
            results[name] = Result(note=reason)
            continue
        results[name], calls[name], close = prepare(runner, problem, builder)
        closes.append(close)
    for name, steady in best_times(calls).items():
        results[name].steady_ms = steady
    for close in closes:
        close()
    for name, result in results.items():
        log(
            f"{problem.name:>20} {problem.m:>5}x{problem.n:<5} {name:<62} "
            f"first {result.first_s:8.3f} s  steady {result.steady_ms:9.3f} ms  "
            f"peak {result.peak_mb:7.1f} MB {result.note}"
        )
    return results


def run_all(sizes, log):
    """(problem name, m, n, method) -> Result, after a warm-up that is thrown away."""
    for problem_name in PROBLEMS:
        run_problem(Problem(problem_name, 4, 4), lambda line: None)
    results = {}
    for problem_name in PROBLEMS:
        for m, n in sizes:
            for name, result in run_problem(Problem(problem_name, m, n), log).items():
                results[problem_name, m, n, name] = result
    return results


# --- report ----------------------------------------------------------------------------------


def _fmt(value, digits):
    return "–" if value != value else f"{value:.{digits}f}"


def _cell(res):
    if res.note:
        return res.note.split(":")[0]
    return f"{_fmt(res.first_s, 3)} / {_fmt(res.steady_ms, 2)} / {_fmt(res.peak_mb, 0)}"


def machine():
    cpu = "unknown CPU"
    try:
        cpu = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text()).group(1)
    except (OSError, AttributeError):
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{cores} cores ({cpu}), CPU only, {platform.system()} {platform.machine()}; Python "
        f"{platform.python_version()}, TensorFlow {tf.__version__} (oneDNN on: "
        f"{os.environ.get('TF_ENABLE_ONEDNN_OPTS', 'default')}), numpy {np.__version__}; float32"
    )


def targets(results, sizes):
    """(target, measured, met) rows for the sizes that were run."""
    tanh, mlp = PROBLEMS

    def ratio(problem, size, slow, fast, attribute="steady_ms"):
        a = getattr(results.get((problem, *size, slow), Result()), attribute)
        b = getattr(results.get((problem, *size, fast), Result()), attribute)
        return a / b if b == b and b > 0 else float("nan")

    def faster(label, value, goal):
        return (label, f"{value:.0f}× faster", value >= goal)

    def slower(label, value, limit):
        return (label, f"{value:.2f}× the time", value <= limit)

    rows = []
    if (500, 500) in sizes:
        speedup = ratio(tanh, (500, 500), SEED_LOOP, V1, "first_s")
        rows.append(
            faster(
                f"jacobian_v1 build + first run ≥ 30× faster than the seed loop, {tanh}, 500×500",
                speedup,
                30,
            )
        )
    for problem in PROBLEMS:
        for size in sizes:
            if max(size) <= 500:
                rows.append(
                    slower(
                        f"jacobian_v1 steady ≤ 1.5× the GEMM reference, {problem}, "
                        f"{size[0]}×{size[1]}",
                        ratio(problem, size, V1, GEMM),
                        1.5,
                    )
                )
    if (100, 100) in sizes:
        rows.append(
            slower(
                f"jacobian_v2(f, x) repeated ≤ 1.5× tape.jacobian in tf.function, {tanh}, 100×100",
                ratio(tanh, (100, 100), V2, TAPE_FUNCTION),
                1.5,
            )
        )
        rows.append(
            faster(
                f"jacobian_v2(f, x) repeated ≥ 100× faster than eager tape.jacobian, "
                f"{tanh}, 100×100",
                ratio(tanh, (100, 100), TAPE_EAGER, V2),
                100,
            )
        )
    if (500, 500) in sizes:
        pairs = [
            ("per_output_grad_v1 vs jacobian_v1 + sum (graph)", SUM_V1, PER_OUTPUT_V1),
            (
                "per_output_grad_v2 vs tape.jacobian + sum in tf.function",
                SUM_FUNCTION,
                PER_OUTPUT_V2,
            ),
            (
                "per_output_grad_v2 vs the seed's eager tape.jacobian + sum",
                SUM_EAGER,
                PER_OUTPUT_V2,
            ),
        ]
        for problem in PROBLEMS:
            for label, slow, fast in pairs:
                rows.append(
                    faster(
                        f"y-shaped derivative ≥ 20× faster: {label}, {problem}, 500×500",
                        ratio(problem, (500, 500), slow, fast),
                        20,
                    )
                )
    return rows


def report(results, sizes, load_before, load_after, wall):
    lines = [
        "# Jacobian benchmark (issue 2)",
        "",
        f"Machine: {machine()}.",
        f"Load average before / after the run: {load_before} / {load_after} (other work on "
        "the machine inflates the times). One process; written by "
        f"`benchmarks/bench_jacobian.py` in {wall / 60:.1f} min.",
        "",
        "*first*: graph build (or trace) + first run, s. *steady*: best of repeated calls, ms, "
        "measured round-robin over the methods of a problem. *peak*: resident memory above "
        "the baseline during build + first run, MB (an estimate).",
        "",
    ]
    for problem_name in dict.fromkeys(key[0] for key in results):
        lines += [f"## {problem_name}", ""]
        header = (
            "| method | mode | "
            + " | ".join(f"{m}×{n} first / steady / peak" for m, n in sizes)
            + " |"
        )
        lines += [header, "|" + "---|" * (2 + len(sizes))]
        for name, mode, _, _ in METHODS + DERIVATIVE_METHODS:
            cells = [_cell(results.get((problem_name, m, n, name), Result())) for m, n in sizes]
            lines.append(f"| {name} | {mode} | " + " | ".join(cells) + " |")
        lines.append("")
    notes = sorted({res.note for res in results.values() if res.note})
    if notes:
        lines += ["Skipped: " + "; ".join(n.split(": ", 1)[1] for n in notes) + ".", ""]
    lines += ["## Targets", "", "| target | measured | met |", "|---|---|---|"]
    for label, measured, met in targets(results, sizes):
        lines.append(f"| {label} | {measured} | {'yes' if met else '**no**'} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (a smoke run)")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).with_name("results_jacobian.md")
    )
    args = parser.parse_args(argv)
    sizes = SIZES["quick" if args.quick else "full"]
    load_before = " ".join(f"{v:.1f}" for v in os.getloadavg())
    start = time.perf_counter()
    results = run_all(sizes, lambda line: print(line, flush=True))
    wall = time.perf_counter() - start
    load_after = " ".join(f"{v:.1f}" for v in os.getloadavg())
    args.output.write_text(report(results, sizes, load_before, load_after, wall))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
