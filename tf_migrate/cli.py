"""The ``tf-migrate`` command line.

Exit codes: 0 done or nothing to do; 1 ``--check`` found work, or
``--verify`` found a program whose migration is not equivalent; 2 usage
error; 123 some file failed (bad input, or it could not be written);
130 interrupted (Ctrl-C): each file is then its old or its new self.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import List, Optional, Sequence

from tf_migrate import engine, files, project, report
from tf_migrate.rules import all_rules
from tf_migrate.runner import FileOutcome, Options, process

EXIT_OK, EXIT_CHECK, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 123
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


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
    parser.add_argument("--functions", choices=engine.FUNCTION_MODES, default=engine.COMPILED,
                        help="generated run functions: tf.function with input signatures (compiled, the default) "
                             "or plain eager functions")
    parser.add_argument("--select", action="append", default=[], metavar="RULE", help="run only these rules")
    parser.add_argument("--ignore", action="append", default=[], metavar="RULE", help="skip these rules")
    parser.add_argument("--report", type=Path, metavar="FILE", help="write the report to FILE (JSON if .json)")
    parser.add_argument("--html-report", type=Path, metavar="DIR",
                        help="write a browsable report of the run to DIR (open DIR/index.html; no network needed)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--list-rules", action="store_true", help="list the rules and exit")
    parser.add_argument("--verify", action="store_true",
                        help="RUNS YOUR CODE: run each legacy program under TF1 graph semantics and its migration "
                             "under TF2 eager, in subprocesses, and compare what they print")
    parser.add_argument("--verify-entry", metavar="COMMAND",
                        help="RUNS YOUR CODE: with one folder, run COMMAND (a script of the folder and its arguments, "
                             "such as \"train.py --steps 5\") in the original tree under TF1 semantics and in the "
                             "migrated tree under TF2, in temporary copies, and compare what they print")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds per program run with --verify or --verify-entry")
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
    why = _output_dir_problem(args.output_dir, args.paths)
    if args.html_report and args.html_report.exists() and not args.html_report.is_dir():
        why = f"--html-report {args.html_report}: exists and is not a folder"
    if args.verify_entry and (len(args.paths) != 1 or not os.path.isdir(args.paths[0]) or args.write):
        why = "--verify-entry needs one folder to migrate, and not -w (the original tree must stay to run it)"
    if why:
        print(f"tf-migrate: error: {why}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return _migrate(args)
    except KeyboardInterrupt:  # writes are atomic: every file is its old or its new self
        print("tf-migrate: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _migrate(args: argparse.Namespace) -> int:
    exclude = [args.output_dir] if args.output_dir else []
    paths, problems = files.discover(args.paths, exclude)
    options = Options(args.mode, tuple(args.select), tuple(args.ignore), args.write and not args.check,
                      None if args.check else args.output_dir, _input_root(args.paths), args.functions)
    if any(os.path.isdir(p) for p in args.paths):  # a tree: modules that share a process share a mode
        outcomes = project.migrate_tree(paths, options, lambda chosen, opts: _run_all(chosen, opts, args.jobs),
                                        _input_root(args.paths))
    else:
        outcomes = _run_all(paths, options, args.jobs)
    summary = report.Summary()
    for problem in problems:
        if problem.fatal:
            summary.add(problem.path, report.FAILED,
                        [report.Finding(problem.path, 0, 0, "input", report.ERROR, problem.message)])
        else:
            summary.findings.append(report.Finding(problem.path, 0, 0, "input", report.WARNING, problem.message))
    for outcome in outcomes:
        summary.add(outcome.path, outcome.outcome, outcome.findings, outcome.compat_reason)
        if not args.quiet and (not (args.write or args.output_dir) or args.diff):
            for diff in outcome.diffs:
                _emit(sys.stdout, diff)
    verify_failed = False
    verdicts = {} if args.verify else None
    if args.verify:
        from tf_migrate.verify.cli import verify_outcomes
        verify_failed = not verify_outcomes(outcomes, args.timeout, summary, verdicts)
    if args.verify_entry:
        from tf_migrate.verify.cli import verify_entry_command
        verify_failed |= not verify_entry_command(args.verify_entry, Path(args.paths[0]), outcomes, args.timeout,
                                                  summary)
    text = summary.text() if not args.quiet else summary.text().splitlines()[-1]
    _emit(sys.stderr, text + "\n")
    if args.report:
        try:
            args.report.write_text(summary.json() if args.report.suffix == ".json" else summary.text() + "\n",
                                   encoding="utf-8")
        except OSError as error:
            print(f"tf-migrate: error: report not written: {args.report}: {error.strerror}", file=sys.stderr)
            return EXIT_FAILED
    if args.html_report:
        from tf_migrate.html_report import write_report
        try:
            index = write_report(args.html_report, outcomes, summary, verdicts, args.paths)
        except OSError as error:
            print(f"tf-migrate: error: HTML report not written: {error.filename or args.html_report}: "
                  f"{error.strerror}", file=sys.stderr)
            return EXIT_FAILED
        if not args.quiet:
            print(f"HTML report: {index}", file=sys.stderr)
    if summary.outcomes[report.FAILED]:
        return EXIT_FAILED
    if args.check and any(o.changed for o in outcomes):
        return EXIT_CHECK
    return EXIT_CHECK if verify_failed else EXIT_OK


def _output_dir_problem(output_dir: Optional[Path], paths: Sequence[str]) -> str:
    if output_dir is None:
        return ""
    if output_dir.exists() and not output_dir.is_dir():
        return f"-o {output_dir}: exists and is not a folder"
    real = os.path.realpath(output_dir)
    if any(os.path.isdir(p) and os.path.realpath(p) == real for p in paths):
        return f"-o {output_dir}: is an input folder; use -w to rewrite in place"
    return ""


def _input_root(paths: Sequence[str]) -> Optional[Path]:
    """The folder that -o mirrors: the one input, or the common parent of several (no name clashes)."""
    if len(paths) == 1:
        return Path(paths[0])
    folders = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".") for p in paths]
    return Path(os.path.commonpath(folders))


def _emit(stream, text: str) -> None:
    """Write text the stream's encoding may not hold (a latin-1 terminal, an ASCII pipe) without crashing."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def _run_all(paths: List[Path], options: Options, jobs: int) -> List[FileOutcome]:
    progress = sys.stderr.isatty() and len(paths) > 20
    results: List[FileOutcome] = []
    if jobs == 1 or len(paths) < 2:
        for count, path in enumerate(paths, 1):
            results.append(process(path, options))
            if progress:
                print(f"\r{count}/{len(paths)} files", end="", file=sys.stderr)
    else:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(paths)))
        try:
            futures = [pool.submit(process, path, options) for path in paths]
            for count, (path, future) in enumerate(zip(paths, futures), 1):
                results.append(_result(path, future))
                if progress:
                    print(f"\r{count}/{len(paths)} files", end="", file=sys.stderr)
        except BaseException:  # Ctrl-C: stop now, not after every file queued (writes are atomic)
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in multiprocessing.active_children():
                worker.terminate()
            raise
        pool.shutdown()
    if progress:
        print(file=sys.stderr)
    return results


def _result(path: Path, future: Future) -> FileOutcome:
    """The worker's outcome; a worker that died (killed, out of memory) fails its file, not the run."""
    try:
        return future.result()
    except BrokenProcessPool:
        message = "not processed: a worker process died (out of memory?); rerun with -j 1 to find the file"
    except Exception as error:  # an outcome that could not be sent back, say
        message = f"not processed: {type(error).__name__}: {error}"
    return FileOutcome(str(path), report.FAILED, [report.Finding(str(path), 0, 0, "engine", report.ERROR, message)])


if __name__ == "__main__":
    sys.exit(main())
