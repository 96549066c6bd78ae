"""Rewrite-speed benchmark: tf-migrate start-up, -j1, -j2 against tf_upgrade_v2.

Builds the generated TF1 corpus (``make_corpus.py``) in a temporary folder,
then measures, each in a fresh process:

- start-up: ``python -m tf_migrate SMALL.py`` (diff to a pipe, nothing written),
  and whether TensorFlow / Keras got imported (``sys.modules``) plus the
  slowest imports (``-X importtime``);
- ``tf-migrate CORPUS -o OUT -j1`` and ``-j2``;
- ``tf_upgrade_v2 --intree CORPUS --outtree OUT``;
- (``--phases``) one in-process pass over the corpus with a timer on each
  engine phase and each rule, in CPU seconds, to show where the time goes.

Wall time, CPU time and peak RSS come from ``os.wait4`` of each child (CPU
time and peak RSS include the worker processes of ``-j2``). The machine may
be shared, so every run is repeated, the median and the best are kept, and the
load average is recorded next to the numbers; files/s is also given per CPU
second, which load does not inflate.

    .venv/bin/python benchmarks/bench_rewrite.py [--repeat 3] [--phases] [--out benchmarks/results_rewrite.md]
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import make_corpus  # noqa: E402

TARGET_STARTUP_S = 0.5
TARGET_SPEEDUP = 2.0  # issue #14 (wall time of -j default against one tf_upgrade_v2 process); issue 3 asked 5x
HEAVY_MODULES = ("tensorflow", "keras", "tf_keras", "tensorboard", "jax", "torch")
HAND_WRITTEN = "<!-- hand-written analysis below: kept when the tables above are regenerated -->"
QUIET_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3"}
# Byte-code as an installed copy has it (pip compiles packages when it installs them): the children may write and
# read .pyc files, kept out of the source tree. An environment that sets PYTHONDONTWRITEBYTECODE (this project's CI
# machines do) would otherwise recompile every tf_migrate module in every process, about 0.25 s of each start-up.
PYCACHE_PREFIX = Path(tempfile.gettempdir()) / "tf_migrate_bench_pycache"


def child_env(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The environment of a measured child: this one, quiet, with byte-code caching on (``PYCACHE_PREFIX``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return dict(env, **QUIET_ENV, PYTHONPYCACHEPREFIX=str(PYCACHE_PREFIX), **(extra or {}))


@dataclass
class Run:
    wall: float
    cpu: float
    max_rss_mb: float
    rc: int
    load: float


def timed(cmd: Sequence[str], cwd: Optional[Path] = None, env: Optional[Dict[str, str]] = None) -> Run:
    """Run ``cmd``; wall, CPU (user+sys, children included) and peak RSS from wait4."""
    load = os.getloadavg()[0]
    full_env = child_env(env)
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a chatty child cannot block on it
        start = time.perf_counter()
        proc = subprocess.Popen(list(cmd), cwd=cwd, env=full_env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        rc = os.waitstatus_to_exitcode(status)
        proc.returncode = rc
        if rc not in (0, 1, 123):
            err.seek(0)
            tail = err.read().decode(errors="replace")[-500:]
            print(f"warning: {' '.join(cmd[:4])}... exited {rc}: {tail}", file=sys.stderr)
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, rc, load)


def repeat(cmd: Sequence[str], times: int, before=None, **kwargs) -> List[Run]:
    runs = []
    for _ in range(times):
        if before is not None:
            before()
        runs.append(timed(cmd, **kwargs))
    return runs


def export_commit(rev: str, dest: Path) -> str:
    """Write tf_migrate/ of commit ``rev`` under ``dest`` (others may be editing the work tree); return its id."""
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", rev], capture_output=True, text=True,
                            check=True).stdout.strip()
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "tf_migrate"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return commit


def machine(pinned: Optional[str]) -> Dict[str, str]:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    except OSError:
        pass

    def version(dist: str) -> str:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "tf_migrate"],
                           capture_output=True, text=True).stdout.strip()
    return {
        "cpu": cpu,
        "cores": str(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()),
        "memory": mem,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "tensorflow": version("tensorflow-cpu") if version("tensorflow-cpu") != "not installed" else version(
            "tensorflow"),
        "libcst": version("libcst"),
        "tf_migrate": f"commit {pinned} (exported with git archive)" if pinned else
        f"work tree at {commit}" + (" + uncommitted changes in tf_migrate/" if dirty else ""),
    }


def startup(small: Path, python: str, times: int, src: Path) -> Dict[str, object]:
    cmd = [python, "-m", "tf_migrate", str(small)]
    timed(cmd, cwd=src)  # warm-up: byte-compile tf_migrate once, as an installed copy would be
    runs = repeat(cmd, times, cwd=src)
    probe = (
        "import sys, json, io, contextlib\n"
        "from tf_migrate import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        f"    cli.main([{str(small)!r}])\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY_MODULES!r})))\n"
    )
    heavy = json.loads(subprocess.run([python, "-c", probe], cwd=src, capture_output=True, text=True,
                                      env=child_env()).stdout.strip().splitlines()[-1])
    baseline = repeat([python, "-c", "pass"], times)
    importtime = subprocess.run([python, "-X", "importtime", "-m", "tf_migrate", str(small)], cwd=src,
                                capture_output=True, text=True, env=child_env()).stderr
    top_level = []
    for line in importtime.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
            if cumulative.isdigit() and not name.startswith(" ") and "." not in name.strip():
                top_level.append((int(cumulative) / 1e6, name.strip()))
    top_level.sort(reverse=True)
    return {"runs": runs, "heavy_modules": heavy, "python_bare": baseline, "imports": top_level[:6]}


def phases(corpus: List[Path], src: Path) -> Dict[str, float]:
    """CPU seconds per engine phase and per rule over the corpus, in this process."""
    sys.path.insert(0, str(src))
    from tf_migrate import engine
    from tf_migrate.rules import RuleContext, all_rules
    from tf_migrate.tfnames import TFNames

    totals: Dict[str, float] = {}

    def wrap(owner, attr, label, static=False):
        original = getattr(owner, attr, None)
        if original is None:
            return

        def timed_call(*args, **kwargs):
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                totals[label] = totals.get(label, 0.0) + time.process_time() - start

        setattr(owner, attr, staticmethod(timed_call) if static else timed_call)

    wrap(engine, "parse", "parse (libcst.parse_module)")
    wrap(engine, "blockers_of", "eager/compat decision (blockers_of)")
    for name in ("_apply", "_run_rules"):  # the rule loop (its name has changed before)
        wrap(engine, name, "all rules")
    import tf_migrate.rules as rules_package
    if hasattr(rules_package, "_resolve_positions"):  # one pass on the input, one per rewritten module reported on
        wrap(rules_package, "_resolve_positions", "  positions for findings, in rules and decision")
    else:
        wrap(RuleContext, "_position", "  positions for findings (PositionProvider), in rules and decision")
    scan = TFNames.__dict__["scan"].__func__

    def timed_scan(cls, module):
        start = time.process_time()
        try:
            return scan(cls, module)
        finally:
            totals["TFNames.scan"] = totals.get("TFNames.scan", 0.0) + time.process_time() - start

    TFNames.scan = classmethod(timed_scan)
    for rule in all_rules():
        wrap(type(rule), "apply", f"  rule {rule.RULE_ID}")
    texts = [(str(p), p.read_text(encoding="utf-8")) for p in corpus if p.suffix == ".py"]
    engine.migrate_source(texts[0][1], texts[0][0])  # warm caches (rename tables)
    totals.clear()
    start = time.process_time()
    for path, text in texts:
        engine.migrate_source(text, path)
    totals["total migrate_source"] = time.process_time() - start
    top = ("parse (libcst.parse_module)", "eager/compat decision (blockers_of)", "all rules", "TFNames.scan")
    totals["rest (output code, compile check, ...)"] = totals["total migrate_source"] - sum(
        totals.get(label, 0.0) for label in top)
    totals["files"] = float(len(texts))
    return totals


def cprofile(corpus: List[Path], count: int, src: Path) -> str:
    """cProfile of migrate_source over the first ``count`` files: tf_migrate functions and hot spots."""
    import cProfile
    import io
    import pstats

    sys.path.insert(0, str(src))
    from tf_migrate import engine

    texts = [(str(p), p.read_text(encoding="utf-8")) for p in corpus if p.suffix == ".py"][:count]
    engine.migrate_source(texts[0][1], texts[0][0])
    profiler = cProfile.Profile()
    profiler.enable()
    for path, text in texts:
        engine.migrate_source(text, path)
    profiler.disable()
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer)
    stats.sort_stats("cumulative").print_stats("tf_migrate", 40)
    stats.sort_stats("tottime").print_stats(15)
    return buffer.getvalue()


def summarize(runs: List[Run]) -> Dict[str, float]:
    walls = [r.wall for r in runs]
    return {"median": statistics.median(walls), "best": min(walls), "cpu": statistics.median(r.cpu for r in runs),
            "rss": max(r.max_rss_mb for r in runs), "load": statistics.mean(r.load for r in runs),
            "rc": max(r.rc for r in runs)}


def render(info, start, corpus_n, corpus_lines, results, outcomes, phase_totals, repeats) -> str:
    out = ["# Rewrite speed: tf-migrate vs tf_upgrade_v2", "",
           "Generated by `benchmarks/bench_rewrite.py` "
           f"({time.strftime('%Y-%m-%d %H:%M', time.localtime())}); corpus from `benchmarks/make_corpus.py` "
           f"(seed 0): {corpus_n} TF1 .py files, {corpus_lines} lines, every one runs under TF1 semantics.", "",
           "## Machine", "", "| | |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in info.items()]
    out += ["", "The machine was shared with other jobs while this ran; the load average (1 min) is given with each "
            "row. Wall times are the median (and best) of the repeats; CPU s is user+sys of the process and its "
            "workers, which load does not inflate. Every child may read and write byte-code (.pyc, under "
            f"`{PYCACHE_PREFIX}`), as an installed copy reads the byte-code pip compiled when it installed it; "
            "tf-migrate runs once unmeasured first (start-up), which writes it. An environment with "
            "`PYTHONDONTWRITEBYTECODE=1` and no cache compiles every tf_migrate module in every process: about "
            "0.25 s more start-up.", ""]

    su = start["runs"]
    s = summarize(su)
    bare = summarize(start["python_bare"])
    verdict = "met" if s["best"] <= TARGET_STARTUP_S else "missed"
    out += ["## Start-up (one small file, diff to a pipe)", "",
            "| command | median s | best s | CPU s | peak RSS MB | load |", "|---|---|---|---|---|---|",
            f"| `python -c pass` | {bare['median']:.3f} | {bare['best']:.3f} | {bare['cpu']:.3f} | "
            f"{bare['rss']:.0f} | {bare['load']:.1f} |",
            f"| `python -m tf_migrate small.py` | {s['median']:.3f} | {s['best']:.3f} | {s['cpu']:.3f} | "
            f"{s['rss']:.0f} | {s['load']:.1f} |", "",
            f"Target ≤ {TARGET_STARTUP_S} s: **{verdict}** (best run; the median is what a loaded machine gives). "
            "Heavy modules in `sys.modules` after a run: "
            + (", ".join(f"`{m}`" for m in start["heavy_modules"][:5]) or "**none** (no TensorFlow import)") + ".",
            "", "Slowest top-level imports (`-X importtime`, cumulative): "
            + ", ".join(f"`{name}` {sec:.3f} s" for sec, name in start["imports"]) + ".", ""]

    cores = int(info["cores"])
    base = summarize(results["tf_upgrade_v2"])
    out += [f"## Corpus of {corpus_n} files ({repeats} runs each)", "",
            "| tool | median wall s | best wall s | files/s (median) | CPU s | files per CPU s | peak RSS MB | "
            "load | vs tf_upgrade_v2 (wall) |", "|---|---|---|---|---|---|---|---|---|"]
    for name, runs in results.items():
        r = summarize(runs)
        out.append(f"| {name} | {r['median']:.2f} | {r['best']:.2f} | {corpus_n / r['median']:.1f} | {r['cpu']:.1f} "
                   f"| {corpus_n / r['cpu']:.1f} | {r['rss']:.0f} | {r['load']:.1f} | "
                   f"{base['median'] / r['median']:.2f}x |")
    j1, j2 = summarize(results["tf-migrate -j1"]), summarize(results["tf-migrate -j2"])
    speed = base["median"] / j1["median"]
    best_speed = base["best"] / min(j1["best"], j2["best"])
    out += ["", f"- Target: tf-migrate ≥ {TARGET_SPEEDUP:.0f}x the files/s of tf_upgrade_v2. Measured: "
            f"{speed:.2f}x with -j1, {base['median'] / j2['median']:.2f}x with -j2 (best runs: {best_speed:.2f}x): "
            f"**{'met' if max(speed, base['median'] / j2['median']) >= TARGET_SPEEDUP else 'missed'}**.",
            f"- -j2 speed-up over -j1: {j1['median'] / j2['median']:.2f}x wall (ideal 2.0 on 2 cores); CPU s "
            f"{j1['cpu']:.1f} vs {j2['cpu']:.1f}."
            + (f" **Not meaningful here**: the load average ({max(j1['load'], j2['load']):.1f}) exceeded the "
               f"{cores} cores, so the second worker had no free core." if max(j1["load"], j2["load"]) > cores - 0.5
               else ""),
            f"- tf-migrate outcomes on the corpus: {outcomes}.", ""]
    if phase_totals:
        files = phase_totals.pop("files")
        total = phase_totals["total migrate_source"]
        out += ["## Where the time goes (one process, CPU s over the corpus)", "",
                "| phase | CPU s | ms / file | share |", "|---|---|---|---|"]
        for label, sec in sorted(phase_totals.items(), key=lambda kv: -kv[1]):
            out.append(f"| {label} | {sec:.2f} | {1000 * sec / files:.1f} | {100 * sec / total:.0f}% |")
        out += ["", "Indented rows are inside `all rules`. Run `bench_rewrite.py --phases` to refresh; the "
                "analysis and suggestions below were written from a cProfile run.", ""]
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=210)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--phases", action="store_true", help="also time each engine phase and rule in-process")
    parser.add_argument("--commit", metavar="REV", help="benchmark tf_migrate/ as committed at REV (default: the "
                        "work tree, which others may be editing)")
    parser.add_argument("--cprofile", type=int, metavar="N", help="print a cProfile of N files and exit")
    parser.add_argument("--skip-upgrade", action="store_true", help="do not run tf_upgrade_v2")
    parser.add_argument("--out", type=Path, default=HERE / "results_rewrite.md")
    parser.add_argument("--appendix", type=Path, help="markdown appended verbatim (default: keep the hand-written "
                        "part of --out, after the HAND_WRITTEN marker)")
    args = parser.parse_args(argv)
    python = sys.executable
    bindir = Path(python).parent
    upgrade = str(bindir / "tf_upgrade_v2") if (bindir / "tf_upgrade_v2").exists() else shutil.which("tf_upgrade_v2")
    with tempfile.TemporaryDirectory(prefix="tfm-bench-") as tmp:
        tmp = Path(tmp)
        src = REPO
        pinned = None
        if args.commit:
            src = tmp / "src"
            pinned = export_commit(args.commit, src)
        if args.cprofile:
            print(cprofile(make_corpus.build(tmp / "corpus", args.files), args.cprofile, src))
            return 0
        info = machine(pinned)
        corpus_dir = tmp / "corpus"
        paths = make_corpus.build(corpus_dir, args.files)
        corpus_lines = sum(p.read_text(encoding="utf-8").count("\n") for p in paths)
        small = min(paths, key=lambda p: p.stat().st_size)
        print(f"corpus: {len(paths)} files in {corpus_dir}; small file {small.name}", file=sys.stderr)
        start = startup(small, python, max(5, args.repeat), src)
        print(f"start-up: best {min(r.wall for r in start['runs']):.3f} s", file=sys.stderr)
        out_dir = tmp / "out"
        clear = lambda: shutil.rmtree(out_dir, ignore_errors=True)  # noqa: E731
        results: Dict[str, List[Run]] = {}
        if not args.skip_upgrade and upgrade:
            results["tf_upgrade_v2"] = repeat([upgrade, "--intree", str(corpus_dir), "--outtree", str(out_dir),
                                               "--reportfile", str(tmp / "upgrade_report.txt")],
                                              args.repeat, before=clear, cwd=tmp)
        report_json = tmp / "report.json"
        for jobs in (1, 2):
            results[f"tf-migrate -j{jobs}"] = repeat(
                [python, "-m", "tf_migrate", str(corpus_dir), "-o", str(out_dir), "-q", "-j", str(jobs),
                 "--report", str(report_json)], args.repeat, before=clear, cwd=src)
            print(f"-j{jobs}: median {statistics.median(r.wall for r in results[f'tf-migrate -j{jobs}']):.2f} s",
                  file=sys.stderr)
        outcomes = json.loads(report_json.read_text())["outcomes"]
        if "tf_upgrade_v2" in results:
            # keep tf_upgrade_v2 first so the comparison column reads naturally
            results = {"tf_upgrade_v2": results.pop("tf_upgrade_v2"), **results}
        phase_totals = phases(paths, src) if args.phases else {}
    if "tf_upgrade_v2" not in results:  # no baseline to compare against: the figures only, nothing written
        print(json.dumps({**{k: summarize(v) for k, v in results.items()}, "phases (CPU s)": phase_totals}, indent=2))
        return 0
    text = render(info, start, len(paths), corpus_lines, results, dict(sorted(outcomes.items())), phase_totals,
                  args.repeat)
    if args.appendix:
        text += "\n" + args.appendix.read_text(encoding="utf-8")
    elif args.out.exists() and HAND_WRITTEN in args.out.read_text(encoding="utf-8"):
        text += "\n" + HAND_WRITTEN + args.out.read_text(encoding="utf-8").split(HAND_WRITTEN, 1)[1]
    args.out.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
