"""Fuzz tf-migrate with N generated programs and write benchmarks/results_fuzz.md.

    .venv/bin/python benchmarks/fuzz_run.py 10000            # seeds 0..9999, all cores
    .venv/bin/python benchmarks/fuzz_run.py 500 --start 10000 -j 1
    .venv/bin/python benchmarks/fuzz_run.py --replay 1234     # one case: input, verdict, output
    .venv/bin/python benchmarks/fuzz_run.py --semantic 500 --append   # run programs both ways too
    .venv/bin/python benchmarks/fuzz_run.py --semantic --replay 12    # one of those: features, verdict, output

Program number S is ``tests.fuzz_grammar.case(S)``: 55% drawn from the TF1
grammar, 15% in the shapes of real code, 30% mutated samples, 15% of all as
notebooks, mostly ``--mode auto``.
Each is written to a file and migrated in place twice, the way ``tf-migrate -w``
does; ``tests/fuzz_grammar.py`` lists the invariants checked.

``--semantic N`` instead runs N programs in the shapes of real code
(``tests/fuzz_shapes.py``) under TF1 graph semantics and their migrations
(eagerly, or compat as TF1), and counts migrations that raise, print other
numbers or get another mode than the program's features call for.
"""
from __future__ import annotations

import argparse
import collections
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import fuzz_grammar as fg  # noqa: E402
from tests import fuzz_shapes as fs  # noqa: E402

TIMEOUT = "timeout"  # one program took longer than --timeout seconds
HARNESS = "harness-error"  # the checker itself failed: a bug here, not in tf-migrate
_folder = None


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _init() -> None:
    global _folder
    _folder = Path(tempfile.mkdtemp(prefix="tf-migrate-fuzz-"))
    signal.signal(signal.SIGALRM, _alarm)


def _quiet_tensorflow() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")


def _run_semantic(job):
    seed, timeout = job
    _quiet_tensorflow()
    program = fs.shaped_program(random.Random(seed))
    start = time.perf_counter()
    signal.alarm(timeout)
    try:
        verdict = fg.check_semantics(program)
        category, detail, outcome = verdict.category, verdict.detail, verdict.outcome
    except _Timeout:
        category, detail, outcome = TIMEOUT, f"over {timeout} s", ""
    except Exception as error:  # noqa: BLE001 - recorded, the run goes on
        category, detail, outcome = HARNESS, f"{type(error).__name__}: {error}", ""
    finally:
        signal.alarm(0)
    known = fg.Verdict(category, detail).known_issue
    return dict(seed=seed, origin="shapes", kind="py", mode="auto", category=category, detail=detail,
                outcome=outcome, kept=[], seconds=time.perf_counter() - start, known=known,
                features=sorted(program.features), expected=program.expected_mode)


def _run(job):
    seed, timeout = job
    case = fg.case(seed)
    start = time.perf_counter()
    signal.alarm(timeout)
    try:
        verdict = fg.check(_folder, case.source, case.kind, case.mode, name=f"case{seed}")
        category, detail, outcome, kept = verdict.category, verdict.detail, verdict.outcome, verdict.compat_v1_kept
    except _Timeout:
        category, detail, outcome, kept = TIMEOUT, f"over {timeout} s", "", []
    except Exception as error:  # noqa: BLE001 - recorded, the run goes on
        category, detail, outcome, kept = HARNESS, f"{type(error).__name__}: {error}", "", []
    finally:
        signal.alarm(0)
    known = fg.Verdict(category, detail).known_issue
    return dict(seed=seed, origin=case.origin, kind=case.kind, mode=case.mode, category=category,
                detail=detail, outcome=outcome, kept=kept, seconds=time.perf_counter() - start, known=known)


def fuzz(count: int, start: int, jobs: int, timeout: int, semantic: bool = False) -> dict:
    rows = []
    began = time.perf_counter()
    work = _run_semantic if semantic else _run
    with Pool(jobs, initializer=_init) as pool:
        for done, row in enumerate(pool.imap_unordered(work, [(s, timeout) for s in range(start, start + count)],
                                                       chunksize=4), 1):
            rows.append(row)
            if row["category"] in fg.VIOLATIONS + (TIMEOUT, HARNESS, fg.SELF_CHECK):
                print(f"seed {row['seed']}: {row['category']}: {row['detail'][:200]}", file=sys.stderr)
            if done % 100 == 0 or done == count:
                print(f"{done}/{count} in {time.perf_counter() - began:.0f} s", file=sys.stderr)
    return dict(rows=sorted(rows, key=lambda r: r["seed"]), wall=time.perf_counter() - began,
                count=count, start=start, jobs=jobs, timeout=timeout, semantic=semantic)


def _commit() -> str:
    if os.environ.get("FUZZ_COMMIT"):  # a run from an exported snapshot (git archive) names its commit
        return os.environ["FUZZ_COMMIT"]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "tf_migrate"], cwd=ROOT, capture_output=True,
                               text=True).stdout.strip()
        return head + (" (+ uncommitted changes in tf_migrate/)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def report(result: dict) -> str:
    rows = result["rows"]
    categories = collections.Counter(r["category"] for r in rows)
    outcomes = collections.Counter(r["outcome"] or "-" for r in rows)
    kept = collections.Counter(name for r in rows for name in r["kept"])
    by_kind = collections.Counter((r["kind"], r["origin"] if r["origin"] in ("grammar", "shapes") else "mutation")
                                  for r in rows)
    cpu = sum(r["seconds"] for r in rows)
    lost = categories[fg.LOST]
    lines = [
        "# Fuzzing tf-migrate",
        "",
        f"`{' '.join(['.venv/bin/python', 'benchmarks/fuzz_run.py', str(result['count'])] + (['--start', str(result['start'])] if result['start'] else []))}`"
        f" on {os.cpu_count()} cores ({platform.python_version()}, {platform.machine()}), {result['jobs']} worker(s), "
        f"commit {_commit()}, {time.strftime('%Y-%m-%d')}.",
        "",
        "Each program is written to a file, migrated in place (`runner.process`, what `tf-migrate -w` runs per "
        "file), then migrated again; `tests/fuzz_grammar.py` says what is checked.",
        "",
        "| figure | value | goal |",
        "|---|---|---|",
        f"| inputs tried | {len(rows)} (seeds {result['start']}..{result['start'] + result['count'] - 1}) | |",
        f"| crashes (an exception escaped the engine) | {categories[fg.CRASH]} | 0 |",
        f"| unparseable outputs (incl. the engine's own fallback) | {categories[fg.UNPARSEABLE]} | 0 |",
        f"| files lost or half-written | {lost} | 0 |",
        f"| idempotence violations | {categories[fg.NOT_IDEMPOTENT]} | 0 |",
        f"| eager outputs with Session/placeholder/unreported compat.v1 | {categories[fg.EAGER_LEFTOVER]} | 0 |",
        f"| internal errors (a rule crashed, input kept) | {categories[fg.INTERNAL]} | 0 |",
        f"| rewrite faults the output self-check caught (compat, or input kept) | {categories[fg.SELF_CHECK]} | 0 |",
        f"| valid Python rejected as a syntax error | {categories[fg.REJECTED_VALID]} | 0 |",
        f"| invalid input reported as an internal error | {categories[fg.MISREPORTED_INPUT]} | 0 |",
        f"| programs over {result['timeout']} s | {categories[TIMEOUT]} | 0 |",
        f"| harness errors | {categories[HARNESS]} | 0 |",
        f"| time | {result['wall']:.0f} s wall, {cpu:.0f} s in workers, {cpu / max(len(rows), 1):.2f} s a program "
        f"(two migrations) | |",
        "",
        "Outcomes of the first run: " + ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items())) + ".  ",
        "Verdicts: " + ", ".join(f"{n} {c}" for c, n in sorted(categories.items())) + ".  ",
        "Inputs: " + ", ".join(f"{n} {kind} from {origin}" for (kind, origin), n in sorted(by_kind.items())) + ".",
        "",
        "`input-error` is the documented refusal of input that does not parse (mutations make many); "
        "`refused` is `--mode eager` declining a program that cannot go eager. Neither touches the file.",
        "",
    ]
    if kept:
        lines += ["`compat.v1` names kept in eager outputs, each with a finding that says so "
                  "(README: RMSProp/Adadelta/Ftrl stay `compat.v1.train`; symbols with no TF2 name are kept "
                  "with a warning):", ""]
        lines += [f"- `{name}`: {n} program(s)" for name, n in kept.most_common()]
        lines.append("")
    bad = [r for r in rows if r["category"] in fg.VIOLATIONS + (TIMEOUT, HARNESS, fg.SELF_CHECK)]
    if bad:
        lines += ["## Violations and faults the self-check caught", "", "Replay one with `.venv/bin/python benchmarks/fuzz_run.py --replay SEED`.", ""]
        for category in sorted({r["category"] for r in bad}):
            these = [r for r in bad if r["category"] == category]
            lines += [f"### {category} ({len(these)})", ""]
            for r in these[:10]:
                detail = r["detail"].strip().replace("\n", " ")[:300]
                known = f" [known issue: {r['known']}]" if r.get("known") else ""
                lines.append(f"- seed {r['seed']} ({r['kind']}, {r['origin']}, --mode {r['mode']}){known}: {detail}")
            lines.append("")
    return "\n".join(lines)


def semantic_report(result: dict) -> str:
    rows = result["rows"]
    categories = collections.Counter(r["category"] for r in rows)
    outcomes = collections.Counter(r["outcome"] or "-" for r in rows)
    compared = [r for r in rows if r["category"] != fg.LEGACY_FAILS]
    bad = [r for r in rows if r["category"] in fg.SEMANTIC_VIOLATIONS + (TIMEOUT, HARNESS)]
    cpu = sum(r["seconds"] for r in rows)

    def count(category, expected=None):
        return sum(r["category"] == category and expected in (None, r["expected"]) for r in rows)

    lines = [
        "## Both ways: runnable programs in the shapes of real code, under TF1 and migrated",
        "",
        f"`.venv/bin/python benchmarks/fuzz_run.py --semantic {result['count']}"
        f"{' --start ' + str(result['start']) if result['start'] else ''} --append`, {result['jobs']} worker(s), "
        f"commit {_commit()}, {time.strftime('%Y-%m-%d')}.",
        "",
        "Programs from `tests/fuzz_shapes.py` (float32 tensors of shape [3], elementwise ops, connected gradients, "
        "no op fetched next to a value it changes, and the shapes of real code that issue 12 lists) run under TF1 "
        "graph semantics and, migrated, eagerly or (compat) as TF1 does (`tests/twins.py`); same text and numbers "
        "within 1e-5 is the bar, and the mode must be the one the program's features call for: compat with an "
        "injected callable, eager otherwise.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| programs | {len(rows)} (seeds {result['start']}..{result['start'] + result['count'] - 1}) |",
        f"| TF1 itself rejects the program | {categories[fg.LEGACY_FAILS]} |",
        f"| compared: expected eager / expected compat / either | {sum(r['expected'] == 'eager' for r in compared)}"
        f" / {sum(r['expected'] == 'compat' for r in compared)} / {sum(r['expected'] is None for r in compared)} |",
        f"| got eager / compat | {outcomes['eager']} / {outcomes['compat']} |",
        f"| wrong eager rewrites (the eager output raises or prints other numbers) | {count(fg.WRONG_REWRITE)} "
        f"({count(fg.WRONG_REWRITE, 'compat')} of them expected compat) |",
        f"| compat outputs that raise or print other numbers | {count(fg.COMPAT_FAILS)} |",
        f"| right numbers, wrong mode (compat where eager is expected / eager where compat is) | "
        f"{count(fg.WRONG_MODE, 'eager')} / {count(fg.WRONG_MODE, 'compat')} |",
        f"| crashes, internal errors, unparseable outputs, idempotence violations | {categories[fg.CRASH]}, "
        f"{categories[fg.INTERNAL]}, {categories[fg.UNPARSEABLE]}, {categories[fg.NOT_IDEMPOTENT]} |",
        f"| timeouts, harness errors | {categories[TIMEOUT]}, {categories[HARNESS]} |",
        f"| time | {result['wall']:.0f} s wall, {cpu / max(len(rows), 1):.2f} s a program |",
        "",
        "By feature (a program has several; `plain` has none of them):",
        "",
        "| feature | programs compared | ok | wrong eager | compat fails | wrong mode | other |",
        "|---|---|---|---|---|---|---|",
    ]
    for feature in list(fs.FEATURES) + ["graph-after-session", "initialized-twice", "plain"]:
        these = [r for r in compared if (feature in r["features"]) or (feature == "plain" and not r["features"])]
        c = collections.Counter(r["category"] for r in these)
        other = len(these) - sum(c[k] for k in (fg.OK, fg.WRONG_REWRITE, fg.COMPAT_FAILS, fg.WRONG_MODE))
        lines.append(f"| {feature} | {len(these)} | {c[fg.OK]} | {c[fg.WRONG_REWRITE]} | {c[fg.COMPAT_FAILS]} | "
                     f"{c[fg.WRONG_MODE]} | {other} |")
    lines.append("")
    for category in sorted({r["category"] for r in bad}):
        these = [r for r in bad if r["category"] == category]
        lines += [f"### {category} ({len(these)})", ""]
        for r in these[:8]:
            tag = f" [known issue: {r['known']}]" if r["known"] else ""
            lines.append(f"- seed {r['seed']} ({', '.join(r['features']) or 'plain'}){tag}: "
                         f"{r['detail'][:300].strip()}".replace("\n", " "))
        lines.append("")
    return "\n".join(lines)


def replay(seed: int) -> int:
    case = fg.case(seed)
    print(f"# seed {seed}: {case.kind}, {case.origin}, --mode {case.mode}\n{case.source}")
    with tempfile.TemporaryDirectory() as folder:
        verdict = fg.check(Path(folder), case.source, case.kind, case.mode, name="case")
        written = (Path(folder) / f"case.{case.kind}").read_text()
    print(f"# verdict: {verdict.category} (first run: {verdict.outcome})\n{verdict.detail}")
    print(f"# file after the runs:\n{written}")
    return 1 if verdict.bad else 0


def replay_semantic(seed: int) -> int:
    from tf_migrate import migrate_source

    _quiet_tensorflow()
    program = fs.shaped_program(random.Random(seed))
    print(f"# seed {seed} (--semantic): features {', '.join(sorted(program.features)) or 'none'}, "
          f"expected {program.expected_mode}\n{program.source}")
    verdict = fg.check_semantics(program)
    print(f"# verdict: {verdict.category} ({verdict.outcome or '-'})\n{verdict.detail}")
    print(f"# migration:\n{migrate_source(program.source, 'runnable.py').new_source}")
    return 1 if verdict.bad else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", type=int, nargs="?", default=1000, help="programs to run (default 1000)")
    parser.add_argument("--start", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=300, help="seconds one program may take (default 300)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results_fuzz.md")
    parser.add_argument("--replay", type=int, metavar="SEED", help="run one case and show it")
    parser.add_argument("--semantic", action="store_true", help="run runnable programs both ways instead")
    parser.add_argument("--append", action="store_true", help="append to --out instead of replacing it")
    args = parser.parse_args(argv)
    if args.replay is not None:
        return replay_semantic(args.replay) if args.semantic else replay(args.replay)
    if args.semantic:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # before the workers import TensorFlow
    result = fuzz(args.count, args.start, args.jobs, args.timeout, args.semantic)
    text = semantic_report(result) if args.semantic else report(result)
    if args.append and args.out.exists():
        text = args.out.read_text().rstrip("\n") + "\n\n" + text
    args.out.write_text(text + "\n")
    print(text)
    bad = sum(r["category"] in fg.VIOLATIONS + (TIMEOUT, HARNESS) for r in result["rows"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
