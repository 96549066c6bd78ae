"""The ``tf-migrate`` command line.

Exit codes: 0 done or nothing to do; 1 ``--check`` found work, or
``--verify`` found a program whose migration is not equivalent; 2 usage
error; 123 some file failed (bad input, or it could not be written).
"""
from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import List, Optional, Sequence

from tf_migrate import engine, files, report
from tf_migrate.rules import all_rules
from tf_migrate.runner import FileOutcome, Options, process

EXIT_OK, EXIT_CHECK, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 123


def _parser() -> argparse.ArgumentParser:
    rules = "\n".join(f"  {r.RULE_ID:24} {r.DESCRIPTION}" for r in all_rules())
    parser = argparse.ArgumentParser(
        prog="tf-migrate", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Move TF1 programs (Session, placeholders, tf.gradients) to Session-free TF2 code.",
        epilog=f"rules:\n{rules}\n\nexit codes: 0 done, 1 --check found work or --verify found a difference, "
               "2 usage error, 123 a file failed")
    parser.add_argument("paths", nargs="*", help="files or folders (.py and .ipynb)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("-w", "--write", action="store_true", help="rewrite files in place")
    out.add_argument("-o", "--output-dir", type=Path, help="write migrated copies here, mirroring the inputs")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file would change")
    parser.add_argument("--diff", action="store_true", help="print diffs also when writing")
    parser.add_argument("--mode", choices=engine.MODES, default=engine.AUTO,
                        help="eager: only Session-free output; compat: compat.v1 for all; auto (default): eager "
                             "where safe, compat elsewhere")
    parser.add_argument("--select", action="append", default=[], metavar="RULE", help="run only these rules")
    parser.add_argument("--ignore", action="append", default=[], metavar="RULE", help="skip these rules")
    parser.add_argument("--report", type=Path, metavar="FILE", help="write the report to FILE (JSON if .json)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--list-rules", action="store_true", help="list the rules and exit")
    parser.add_argument("--verify", action="store_true",
                        help="RUNS YOUR CODE: run each legacy program under TF1 graph semantics and its migration "
                             "under TF2 eager, in subprocesses, and compare what they print")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per program run with --verify")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the summary")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return EXIT_USAGE if stop.code else EXIT_OK
    if args.list_rules:
        for rule in all_rules():
            print(f"{rule.RULE_ID:24} {rule.DESCRIPTION}")
        return EXIT_OK
    known = {rule.RULE_ID for rule in all_rules()}
    unknown = [r for r in args.select + args.ignore if r not in known]
    if not args.paths or unknown or args.jobs < 1:
        why = f"unknown rule(s): {', '.join(unknown)}" if unknown else (
            "-j must be at least 1" if args.jobs < 1 else "no paths given")
        print(f"tf-migrate: error: {why}", file=sys.stderr)
        return EXIT_USAGE
    exclude = [args.output_dir] if args.output_dir else []
    paths, problems = files.discover(args.paths, exclude)
    root = Path(args.paths[0]) if len(args.paths) == 1 else None
    options = Options(args.mode, tuple(args.select), tuple(args.ignore), args.write and not args.check,
                      None if args.check else args.output_dir, root)
    outcomes = _run_all(paths, options, args.jobs)
    summary = report.Summary()
    for problem in problems:
        summary.add(problem, report.FAILED, [report.Finding(problem.split(":")[0], 0, 0, "input", report.ERROR,
                                                            problem.split(": ", 1)[-1])])
    for outcome in outcomes:
        summary.add(outcome.path, outcome.outcome, outcome.findings, outcome.compat_reason)
        if not args.quiet and (not (args.write or args.output_dir) or args.diff):
            for diff in outcome.diffs:
                sys.stdout.write(diff)
    verify_failed = False
    if args.verify:
        from tf_migrate.verify_cli import verify_outcomes
        verify_failed = not verify_outcomes(outcomes, args.timeout, summary)
    text = summary.text() if not args.quiet else summary.text().splitlines()[-1]
    print(text, file=sys.stderr)
    if args.report:
        args.report.write_text(summary.json() if args.report.suffix == ".json" else summary.text() + "\n")
    if summary.outcomes[report.FAILED]:
        return EXIT_FAILED
    if args.check and any(o.changed for o in outcomes):
        return EXIT_CHECK
    return EXIT_CHECK if verify_failed else EXIT_OK


def _run_all(paths: List[Path], options: Options, jobs: int) -> List[FileOutcome]:
    progress = sys.stderr.isatty() and len(paths) > 20
    results: List[FileOutcome] = []
    if jobs == 1 or len(paths) < 2:
        for count, path in enumerate(paths, 1):
            results.append(process(path, options))
            if progress:
                print(f"\r{count}/{len(paths)} files", end="", file=sys.stderr)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for count, outcome in enumerate(pool.map(process, paths, [options] * len(paths), chunksize=8), 1):
                results.append(outcome)
                if progress:
                    print(f"\r{count}/{len(paths)} files", end="", file=sys.stderr)
    if progress:
        print(file=sys.stderr)
    return results


if __name__ == "__main__":
    sys.exit(main())
