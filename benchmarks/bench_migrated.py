"""Step-time benchmark: the legacy TF1 graph against the program tf-migrate makes of it.

Each program in ``benchmarks/migrated_programs/`` is a small TF1 training script
that times its own loop and prints ``STEP_MS <median ms per step>`` (200 steps
after 20 warm-up steps, ``time.perf_counter`` around the ``sess.run`` lines, so
the timing survives migration) and ``FINAL_LOSS <float>...``. For each program:

- legacy: the program runs under TF1 graph semantics, the way ``--verify`` runs
  it (``tf_migrate.verify.run_program``: ``tensorflow`` is ``compat.v1`` with v2
  behaviour disabled), with ``Session.run`` left as TF1 has it (the verifier's
  read/update order pinning is off: it costs ~50 us per call);
- migrated: ``python -m tf_migrate DIR -o OUT`` (once per variant: each
  ``--functions`` mode the CLI offers, and XLA with ``--xla``), then the output
  runs under plain TF2, again through ``run_program``.

Both runs draw TF's random initial values from the verifier's shared streams, so
their losses can be compared (rtol 1e-4, atol 1e-6). Every run is repeated
``--repeat`` times, legacy and variants interleaved, and the median of the
programs' ``STEP_MS`` is kept. The machine may be shared: the load average is
recorded with the numbers. Also counted: generated functions (``def run_``,
``@tf.function``) and lines on ``samples/`` for each variant.

    .venv/bin/python benchmarks/bench_migrated.py [--repeat 3] [--functions eager compiled] [--xla]
        [--label before] [--out benchmarks/results_migrated.md] [--steps 200] [--only NAME]

Results go to ``--out`` in a section named by ``--label``; a rerun with another
label keeps the earlier sections (before/after side by side).
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
import bench_rewrite  # noqa: E402  (machine description)
from tf_migrate import verify  # noqa: E402

PROGRAMS = HERE / "migrated_programs"
SAMPLES = REPO / "samples"
STEP_LINE = re.compile(r"^STEP_MS\s+(\S+)\s*$", re.M)
LOSS_LINE = re.compile(r"^FINAL_LOSS\s+(.+?)\s*$", re.M)
ERROR_LINE = re.compile(r"^[\w.]+(?:Error|Exception)\b")  # where a traceback's message starts
LOG_LINE = re.compile(r"^[IWEF]\d{4} ")  # TensorFlow's C++ log lines
NUMBERS = re.compile(r"\[[-+\d.e\s\[\]]*\]")  # printed arrays inside a message
LOSS_RTOL, LOSS_ATOL = 1e-4, 1e-6
XLA = "xla"
CLI_DEFAULT = "cli-default"


class RunFailed(Exception):
    """A benchmark program failed or printed no STEP_MS line."""


def cli_flags() -> Dict[str, object]:
    """What this checkout's CLI offers: its ``--functions`` modes and whether it has ``--xla``."""
    text = subprocess.run([sys.executable, "-m", "tf_migrate", "--help"], cwd=REPO, capture_output=True,
                          text=True, check=True).stdout
    modes = re.search(r"--functions \{([a-z,]+)\}", text)
    return {"functions": modes.group(1).split(",") if modes else [], "xla": "--xla" in text}


def variant_args(variant: str) -> List[str]:
    """CLI arguments of a variant: a --functions mode, XLA (compiled steps with XLA), or the CLI's default."""
    if variant == CLI_DEFAULT:
        return []
    if variant == XLA:
        return ["--xla"]
    return ["--functions", variant]


def migrate(inputs: Path, out: Path, args: Sequence[str]) -> Dict[str, str]:
    """Runs the CLI on ``inputs`` into ``out``; returns each file's outcome (eager, compat, failed)."""
    report = out.parent / f"{out.name}.report.json"
    subprocess.run([sys.executable, "-m", "tf_migrate", str(inputs), "-o", str(out), "--report", str(report), "-q",
                    *args], cwd=REPO, capture_output=True, text=True)
    compat = json.loads(report.read_text(encoding="utf-8")).get("compat_reasons", {})
    compat_names = {Path(path).name for path in compat}
    outcomes = {}
    for program in sorted(inputs.iterdir()):
        if program.suffix in (".py", ".ipynb"):
            written = (out / program.name).exists()
            outcomes[program.name] = "failed" if not written else "compat" if program.name in compat_names else "eager"
    return outcomes


def error_message(stderr: str, limit: int = 200) -> str:
    """The message of the last traceback in ``stderr``, on one line, arrays elided."""
    lines = [line for line in stderr.splitlines() if not LOG_LINE.match(line)]
    starts = [i for i, line in enumerate(lines) if ERROR_LINE.match(line)]
    if not starts:
        return ""
    message = " ".join(" ".join(lines[starts[-1]:]).split())
    message = NUMBERS.sub("[...]", message)
    return message if len(message) <= limit else message[:limit - 3] + "..."


def run_once(source: str, path: Path, mode: str, timeout: float) -> Dict[str, object]:
    """One run of a program: its STEP_MS and FINAL_LOSS values, and the run's wall seconds."""
    start = time.perf_counter()
    run = verify.run_program(source, path=path, mode=mode, timeout=timeout, pin_fetch_order=False)
    seconds = time.perf_counter() - start
    step = STEP_LINE.search(run.stdout)
    if run.timed_out:
        raise RunFailed(f"timed out after {timeout:g} s")
    if run.failed or step is None:
        raise RunFailed(error_message(run.stderr) or f"exit status {run.returncode}, no STEP_MS line")
    loss = LOSS_LINE.search(run.stdout)
    return {"ms": float(step.group(1)), "loss": [float(v) for v in loss.group(1).split()] if loss else [],
            "seconds": seconds}


def measure(programs: Sequence[Path], migrated: Dict[str, Dict[str, object]], repeat: int, timeout: float,
            slow: float) -> List[Dict[str, object]]:
    """Rows of the result table; ``migrated[variant]`` holds ``outcomes`` and ``dir`` of each migration.

    Legacy and variants run in turns, ``repeat`` rounds; one whose first run took more than ``slow``
    seconds is not run again (its ratio is far from 1 and another run would not change it).
    """
    rows = []
    for program in programs:
        row = {"program": program.name, "legacy": _cell("legacy", program), "variants": {}}
        for variant, migration in migrated.items():
            outcome = migration["outcomes"].get(program.name, "failed")
            row["variants"][variant] = _cell(outcome, Path(migration["dir"]) / program.name)
        cells = {"legacy": row["legacy"], **row["variants"]}
        for attempt in range(repeat):
            for name, cell in cells.items():
                if cell["error"] or (cell["seconds"] and cell["seconds"][0] > slow):
                    continue
                try:
                    result = run_once(cell["path"].read_text(encoding="utf-8"), program,
                                      "legacy" if name == "legacy" else "migrated", timeout)
                except (RunFailed, OSError) as error:
                    cell["error"] = str(error)
                    continue
                for key in ("ms", "loss", "seconds"):
                    cell[key].append(result[key])
            print(f"{program.name} round {attempt + 1}/{repeat}: "
                  + ", ".join(f"{name} {cell['ms'][-1:] or cell['error']}" for name, cell in cells.items()),
                  file=sys.stderr, flush=True)
        for cell in row["variants"].values():
            if losses_agree(row["legacy"]["loss"][0] if row["legacy"]["loss"] else None, cell["loss"]) is False:
                cell["control"] = rounding_control(cell["path"], program, timeout)
        rows.append(row)
    return rows


def rounding_control(migrated: Path, program: Path, timeout: float) -> Optional[bool]:
    """Whether the final losses agree when both sides run with oneDNN's fused kernels off.

    The TF1 graph and a tf.function are optimized apart: oneDNN fuses a convolution with its bias
    and activation in one and not in the other, which changes the last bits of a step, and training
    grows that. Losses that disagree only with oneDNN on are rounding, not a different program.
    None: a control run failed."""
    saved = os.environ.get("TF_ENABLE_ONEDNN_OPTS")
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"  # the runs inherit this process's environment
    try:
        legacy = run_once(program.read_text(encoding="utf-8"), program, "legacy", timeout)
        after = run_once(migrated.read_text(encoding="utf-8"), program, "migrated", timeout)
    except (RunFailed, OSError):
        return None
    finally:
        if saved is None:
            del os.environ["TF_ENABLE_ONEDNN_OPTS"]
        else:
            os.environ["TF_ENABLE_ONEDNN_OPTS"] = saved
    return losses_agree(legacy["loss"], [after["loss"]])


def _cell(outcome: str, path: Path) -> Dict[str, object]:
    return {"outcome": outcome, "path": path, "ms": [], "loss": [], "seconds": [], "error": None, "control": None}


def losses_agree(legacy: Optional[List[float]], runs: List[List[float]]) -> Optional[bool]:
    """Whether every run's final losses match the legacy ones; None when there is nothing to compare."""
    if not legacy or not runs:
        return None
    return all(len(run) == len(legacy) and all(
        math.isclose(a, b, rel_tol=LOSS_RTOL, abs_tol=LOSS_ATOL) for a, b in zip(legacy, run)) for run in runs)


def geometric_mean(values: Sequence[float]) -> Optional[float]:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def render_table(rows: Sequence[Dict[str, object]]) -> str:
    """The per-program table and, per variant, the geometric mean of migrated/legacy.

    Ratios are of the medians over runs; the ratio of the best runs is given too: on a
    shared machine other processes only ever add time, so it moves less with the load.
    """
    lines = ["| program | variant | outcome | legacy ms | migrated ms | ratio | ratio of best runs "
             "| final losses agree | note |", "|---|---|---|---|---|---|---|---|---|"]
    ratios: Dict[str, List[float]] = {}
    best_ratios: Dict[str, List[float]] = {}
    for row in rows:
        legacy = row["legacy"]["ms"]
        for variant, cell in row["variants"].items():
            ratio = best = None
            if legacy and cell["ms"]:
                ratio = statistics.median(cell["ms"]) / statistics.median(legacy)
                best = min(cell["ms"]) / min(legacy)
                ratios.setdefault(variant, []).append(ratio)
                best_ratios.setdefault(variant, []).append(best)
            lines.append(f"| {row['program']} | {variant} | {cell['outcome']} | {_ms(legacy)} | {_ms(cell['ms'])} | "
                         f"{_ratio(ratio)} | {_ratio(best)} | {_loss_check(row['legacy'], cell)} | "
                         f"{_note(row['legacy'], cell)} |")
    lines.append("")
    for variant, values in ratios.items():
        lines.append(f"- **{variant}**: geometric mean of migrated/legacy **{geometric_mean(values):.2f}x** over "
                     f"{len(values)} programs (best runs: {geometric_mean(best_ratios[variant]):.2f}x); "
                     f"worst {max(values):.1f}x.")
    return "\n".join(lines)


def _loss_check(legacy: Dict[str, object], cell: Dict[str, object]) -> str:
    legacy_loss = legacy["loss"][0] if legacy["loss"] else None
    agree = losses_agree(legacy_loss, cell["loss"])
    if agree is False and cell.get("control"):
        return (f"rounding: {_losses(legacy_loss)} vs {_losses(cell['loss'][0])}; equal with oneDNN off "
                "(TF_ENABLE_ONEDNN_OPTS=0)")
    if agree is False:
        return f"**no** ({_losses(legacy_loss)} vs {_losses(cell['loss'][0])})"
    return {None: "n/a", True: "yes"}[agree]


def _note(legacy: Dict[str, object], cell: Dict[str, object]) -> str:
    notes = [f"{who} failed: {error}" for who, error in (("legacy", legacy["error"]), ("migrated", cell["error"]))
             if error]
    if len(cell["ms"]) == 1 < len(legacy["ms"]):
        notes.append("migrated run once (slow)")
    return "; ".join(notes).replace("|", "\\|")


def _ratio(value: Optional[float]) -> str:
    return "n/a" if value is None else f"{value:.1f}x"


def _ms(runs: Sequence[float]) -> str:
    """The median of the runs' STEP_MS."""
    if not runs:
        return "n/a"
    value = statistics.median(runs)
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def _losses(values: Sequence[float]) -> str:
    return " ".join(f"{v:.6g}" for v in values)


def count_generated(out: Path) -> Dict[str, int]:
    """Generated functions and lines in a migrated copy of ``samples/`` (.py files and notebook code cells)."""
    counts = {"files": 0, "lines": 0, "def run_": 0, "@tf.function": 0, "lines in def run_": 0,
              "def compute_": 0, "repeated statements": 0}
    for path in sorted(out.rglob("*")):
        if path.suffix == ".py":
            sources = [path.read_text(encoding="utf-8")]
        elif path.suffix == ".ipynb":
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
            sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                       for c in cells if c.get("cell_type") == "code"]
        else:
            continue
        counts["files"] += 1
        for source in sources:
            counts["lines"] += len(source.splitlines())
            counts["def run_"] += len(re.findall(r"^\s*def run_", source, re.M))
            counts["@tf.function"] += len(re.findall(r"^\s*@tf\.function\b", source, re.M))
            counts["lines in def run_"] += _function_lines(source)
            counts["def compute_"] += len(re.findall(r"^\s*def compute_", source, re.M))
            counts["repeated statements"] += _repeated_statements(source)
    return counts


def _calls_helper(statement: ast.stmt) -> bool:
    """``y = compute_y(x)``: a call of the shared helper, not a copy of its code."""
    value = getattr(statement, "value", None)
    func = value.func if isinstance(value, ast.Call) else None
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name.startswith("compute_")


def _repeated_statements(source: str) -> int:
    """Copies of assignments that generated functions (run_*, compute_*) of one file repeat word for word,
    beyond the first: the forward code written more than once."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return 0
    seen: Dict[str, int] = {}

    def assignments(statements):
        for statement in statements:
            if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and not _calls_helper(statement):
                yield ast.unparse(statement)
            elif isinstance(statement, ast.With):
                yield from assignments(statement.body)

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith(("run_", "compute_")):
            for text in set(assignments(node.body)):
                seen[text] = seen.get(text, 0) + 1
    return sum(count - 1 for count in seen.values())


def _function_lines(source: str) -> int:
    try:
        tree = ast.parse(source)
    except SyntaxError:  # notebook cells with magics
        return 0
    return sum(node.end_lineno - node.lineno + 1 for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef) and node.name.startswith("run_"))


def render_counts(counts: Dict[str, Dict[str, int]], input_lines: int) -> str:
    keys = ["files", "lines", "def run_", "@tf.function", "lines in def run_", "def compute_", "repeated statements"]
    lines = [f"Input: {input_lines} lines.", "", "| variant | " + " | ".join(keys) + " |",
             "|---|" + "---|" * len(keys)]
    lines += [f"| {variant} | " + " | ".join(str(c[k]) for k in keys) + " |" for variant, c in counts.items()]
    return "\n".join(lines)


def render_section(label: str, meta: Dict[str, object], rows, counts, input_lines: int) -> str:
    info = "\n".join(f"| {key} | {value} |" for key, value in meta["machine"].items())
    return f"""<!-- run: {label} -->
## {label}

- Command: `{meta['command']}` ({meta['date']}, {meta['minutes']:.1f} min)
- Variants: {meta['variants_note']}
- Load average (1 min) before / after: {meta['load_before']:.1f} / {meta['load_after']:.1f} on {meta['machine']['cores']} cores
- Steps per run: {meta['steps']} after 20 warm-up; {meta['repeat']} runs each, median of the programs' STEP_MS

| | |
|---|---|
{info}

### Step time (ms per training step)

{render_table(rows)}

### Generated code on `samples/`

{render_counts(counts, input_lines)}
<!-- end run: {label} -->
"""


def write_results(out: Path, label: str, section: str) -> None:
    """Replaces the section of this label in ``out`` (or appends it); other sections stay."""
    header = "# Migrated programs: step time against the TF1 graph\n\nGenerated by `benchmarks/bench_migrated.py`.\n"
    text = out.read_text(encoding="utf-8") if out.exists() else header
    pattern = re.compile(rf"<!-- run: {re.escape(label)} -->.*?<!-- end run: {re.escape(label)} -->\n", re.S)
    text = pattern.sub(lambda _: section, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
    out.write_text(text, encoding="utf-8")


def choose_variants(requested: Optional[List[str]], xla: bool, offered: Dict[str, object]) -> List[str]:
    """The variants to measure; raises ValueError for what this CLI does not offer."""
    modes = offered["functions"]
    if requested and not modes:
        raise ValueError("this tf-migrate has no --functions flag; run without --functions")
    unknown = [mode for mode in requested or [] if mode not in modes]
    if unknown:
        raise ValueError(f"--functions {' '.join(unknown)}: the CLI offers {', '.join(modes)}")
    if xla and not offered["xla"]:
        raise ValueError("this tf-migrate has no --xla flag")
    variants = list(requested or modes or [CLI_DEFAULT])
    return variants + [XLA] if xla else variants


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each program and variant (default 3)")
    parser.add_argument("--functions", nargs="+", metavar="MODE",
                        help="--functions modes to measure (default: all the CLI offers)")
    parser.add_argument("--xla", action="store_true", help="also measure the CLI's --xla output")
    parser.add_argument("--steps", type=int, default=200, help="timed steps per run (default 200)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="programs whose name contains NAME")
    parser.add_argument("--label", default="latest", help="section of the results file (default latest)")
    parser.add_argument("--out", type=Path, default=HERE / "results_migrated.md")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per program run")
    parser.add_argument("--slow", type=float, default=60.0,
                        help="a run that takes longer (s) is not repeated (default 60)")
    args = parser.parse_args(argv)
    try:
        variants = choose_variants(args.functions, args.xla, cli_flags())
    except ValueError as error:
        parser.error(str(error))
    programs = [p for p in sorted(PROGRAMS.glob("*.py")) if not args.only or any(n in p.name for n in args.only)]
    os.environ["BENCH_STEPS"] = str(args.steps)  # the runs inherit this process's environment
    start, load_before = time.time(), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-migrated-") as tmp:
        migrated, counts = {}, {}
        for variant in variants:
            out = Path(tmp) / variant
            outcomes = migrate(PROGRAMS, out / "programs", variant_args(variant))
            migrated[variant] = {"dir": out / "programs", "outcomes": outcomes}
            migrate(SAMPLES, out / "samples", variant_args(variant))
            counts[variant] = count_generated(out / "samples")
        rows = measure(programs, migrated, args.repeat, args.timeout, args.slow)
    input_lines = count_generated(SAMPLES)["lines"]
    note = ", ".join(variants)
    if variants == [CLI_DEFAULT]:
        note = f"{CLI_DEFAULT}: this tf-migrate has no --functions flag; its output is eager functions"
    meta = {
        "command": shlex.join(["python", "benchmarks/bench_migrated.py",
                               *(argv if argv is not None else sys.argv[1:])]),
        "date": time.strftime("%Y-%m-%d %H:%M"), "minutes": (time.time() - start) / 60, "variants_note": note,
        "load_before": load_before, "load_after": os.getloadavg()[0], "steps": args.steps, "repeat": args.repeat,
        "machine": bench_rewrite.machine(None),
    }
    section = render_section(args.label, meta, rows, counts, input_lines)
    write_results(args.out, args.label, section)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
