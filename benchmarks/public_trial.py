"""Public-code trial: public TF1 programs migrated, then run before and after, and compared.

    python benchmarks/public_trial.py export    # the manifest's files, from the fetched git mirrors
    python benchmarks/public_trial.py run       # migrate, run both ways, write the results (about 50 min)
    python benchmarks/public_trial.py report    # regenerate results_public_trial.md from the JSON

``export`` reads ``public_trial_manifest.json`` (repository, commit, globs of the
programs to run and of the helper/data files they need, files left out with a
reason, per-file notes) and extracts those files at their commits from the
mirrors that the ``fetch`` tool leaves in ``/work/.mirror/owner+name/``
(``git archive``), into ``/tmp/public_trial/src/<owner>__<name>/``, keeping each
repository's layout so sibling imports (``input_data.py``, ``RL_brain.py``)
work. No fetched code is ever written into this repository.

``run`` migrates each repository folder with the real CLI
(``python -m tf_migrate SRC -o OUT --report R.json -q``), then for every program
calls ``tf_migrate.verify.verify_program``: the original runs under TF1
semantics and the migration under plain TF2, each with the program's own
folder first on ``sys.path`` (the migrated folder for the migration), a copy
of its folder as working directory, and the stubs of ``trial_stubs/`` (fake
MNIST, gym, matplotlib, scikit-learn data; see ``trial_stubs/modules/README.md``).
It writes ``results_public_trial.json`` (one record per program; fields in
``public_trial_report.py``) and ``results_public_trial.md``.
``run --only REGEX`` reruns the matching ``owner/name/path`` programs and writes
their results under ``/tmp/public_trial/`` instead, for checking a fix;
``run --resume`` finishes an interrupted run (the records so far are in
``/tmp/public_trial/records.jsonl``).
"""
from __future__ import annotations

import argparse
import fnmatch
import importlib.metadata
import io
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tokenize
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import public_trial_report as report  # noqa: E402
from tf_migrate.files import SKIP_DIRS  # noqa: E402

MANIFEST = HERE / "public_trial_manifest.json"
RESULTS_JSON = HERE / "results_public_trial.json"
RESULTS_MD = HERE / "results_public_trial.md"
STUBS = HERE / "trial_stubs"
ROUNDING_CONTROL = {"TF_ENABLE_ONEDNN_OPTS": "0"}  # TF's plain CPU kernels: the same math, other rounding
WORK = Path("/tmp/public_trial")
MIRRORS = Path("/work/.mirror")
STUB_SETS = ("mnist", "hvass_mnist", "matplotlib", "gym", "sklearn")
_SHA = re.compile(r"^[0-9a-f]{40}$")
_REPO = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_GRAPH_API = re.compile(
    r"\b(?:Session|InteractiveSession|placeholder|placeholder_with_default|disable_v2_behavior|"
    r"disable_eager_execution|get_default_graph)\b|\bcompat\.v1\b")


def validate_manifest(manifest: dict) -> None:
    """Raises ValueError naming every problem of a manifest (schema in ``public_trial_manifest.json``)."""
    problems = []
    if not isinstance(manifest.get("repositories"), list) or not manifest["repositories"]:
        problems.append("'repositories' must be a non-empty list")
    for stub in manifest.get("default_stubs", []):
        if stub not in STUB_SETS:
            problems.append(f"default_stubs: unknown stub set {stub!r}")
    seen = set()
    for index, entry in enumerate(manifest.get("repositories") or []):
        where = f"repositories[{index}] ({entry.get('repo', '?')})"
        unknown = set(entry) - {"repo", "commit", "files", "support", "exclude", "stubs", "notes", "about"}
        if unknown:
            problems.append(f"{where}: unknown keys {sorted(unknown)}")
        if not _REPO.match(str(entry.get("repo", ""))):
            problems.append(f"{where}: 'repo' must be owner/name")
        if entry.get("repo") in seen:
            problems.append(f"{where}: repository listed twice")
        seen.add(entry.get("repo"))
        if not _SHA.match(str(entry.get("commit", ""))):
            problems.append(f"{where}: 'commit' must be a full 40-hex sha")
        if not entry.get("files") or not all(isinstance(g, str) for g in entry["files"]):
            problems.append(f"{where}: 'files' must be a non-empty list of globs")
        if not all(isinstance(g, str) for g in entry.get("support", [])):
            problems.append(f"{where}: 'support' must be a list of globs")
        if not all(isinstance(v, str) and v for v in entry.get("exclude", {}).values()):
            problems.append(f"{where}: every 'exclude' entry needs a reason")
        for stub in entry.get("stubs", []):
            if stub not in STUB_SETS:
                problems.append(f"{where}: unknown stub set {stub!r}")
        for path, note in entry.get("notes", {}).items():
            if set(note) - {"stubs", "cwd"}:
                problems.append(f"{where}: notes[{path!r}] may only set 'stubs' and 'cwd'")
            for stub in note.get("stubs", []):
                if stub not in STUB_SETS:
                    problems.append(f"{where}: notes[{path!r}]: unknown stub set {stub!r}")
    if problems:
        raise ValueError("bad manifest:\n  " + "\n  ".join(problems))


def folder_name(repo: str) -> str:
    return repo.replace("/", "__")


def select(paths: List[str], entry: dict) -> Dict[str, list]:
    """Splits a commit's paths into programs, support files and excluded programs (with reasons).

    Globs use ``fnmatch`` on the whole path (``*`` also crosses ``/``).
    """
    def matches(path, globs):
        return any(fnmatch.fnmatchcase(path, g) for g in globs)

    excluded = {}
    for path in paths:
        for glob, why in entry.get("exclude", {}).items():
            if fnmatch.fnmatchcase(path, glob):
                excluded[path] = why
                break
    programs = [p for p in paths if matches(p, entry["files"]) and p not in excluded]
    support = [p for p in paths if matches(p, entry.get("support", [])) and p not in programs]
    return {"programs": programs, "support": support,
            "excluded": [(p, excluded[p]) for p in paths if p in excluded and matches(p, entry["files"])]}


def _git_dir(mirrors: Path, repo: str) -> Path:
    base = mirrors / repo.replace("/", "+") / "repo"
    return base / ".git" if (base / ".git").is_dir() else base


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True).stdout


def _tree(git_dir: Path, commit: str):
    """The commit's file paths, and those whose content the mirror lacks."""
    listing = _git(git_dir, "ls-tree", "-r", "-z", commit).decode("utf-8", "surrogateescape").split("\0")
    entries = [line.split("\t", 1) for line in listing if line]
    blobs = {path: meta.split()[2] for meta, path in entries if meta.split()[1] == "blob"}
    check = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "--batch-check"],
                           input="\n".join(blobs.values()).encode(), capture_output=True, check=True)
    missing = {line.split()[0] for line in check.stdout.decode().splitlines() if line.endswith(" missing")}
    return list(blobs), {path for path, oid in blobs.items() if oid in missing}


def export(manifest: dict, mirrors: Path, src: Path) -> dict:
    """Extracts every repository's selected files at its commit; returns (and saves) the index."""
    index = {"repos": [], "programs": [], "excluded": []}
    for entry in manifest["repositories"]:
        repo, commit = entry["repo"], entry["commit"]
        git_dir = _git_dir(mirrors, repo)
        if not git_dir.is_dir():
            raise SystemExit(f"no mirror of {repo} at {git_dir}: fetch github:{repo} first")
        paths, absent = _tree(git_dir, commit)
        chosen = select(paths, entry)
        for path in [p for p in chosen["programs"] if p in absent]:
            chosen["programs"].remove(path)
            chosen["excluded"].append((path, "absent from the fetched snapshot (it stores no file of 4 MiB or more)"))
        chosen["support"] = [p for p in chosen["support"] if p not in absent]
        if not chosen["programs"]:
            raise SystemExit(f"{repo}@{commit[:10]}: the manifest's globs match no program")
        target = src / folder_name(repo)
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        archive = _git(git_dir, "archive", "--format=tar", commit, "--", *chosen["programs"], *chosen["support"])
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
        index["repos"].append({"repo": repo, "commit": commit, "dir": folder_name(repo)})
        for path in chosen["programs"]:
            note = entry.get("notes", {}).get(path, {})
            index["programs"].append({
                "repo": repo, "path": path, "kind": "ipynb" if path.endswith(".ipynb") else "py",
                "stubs": note.get("stubs", entry.get("stubs", manifest.get("default_stubs", []))),
                "cwd": note.get("cwd", os.path.dirname(path)),
            })
        index["excluded"] += [{"repo": repo, "path": p, "reason": why} for p, why in chosen["excluded"]]
        print(f"{repo}@{commit[:10]}: {len(chosen['programs'])} programs, {len(chosen['support'])} support files, "
              f"{len(chosen['excluded'])} left out", file=sys.stderr)
    (src / "index.json").write_text(json.dumps(index, indent=1), encoding="utf-8")
    return index


def migrate(src_dir: Path, out_dir: Path, report_path: Path, again: bool = True) -> Dict[str, tuple]:
    """Runs the CLI on one repository folder (``again=False``: reads its report from an earlier run);
    {relative path: (outcome, compat reason)}."""
    if again:
        shutil.rmtree(out_dir, ignore_errors=True)
        command = [sys.executable, "-m", "tf_migrate", str(src_dir), "-o", str(out_dir), "--report",
                   str(report_path), "-q", "-j", "2"]
        subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
    data = json.loads(report_path.read_text(encoding="utf-8"))
    results = {}
    for path, outcome in data["files"].items():
        relative = os.path.relpath(path, src_dir)
        results[relative] = (outcome, data["compat_reasons"].get(path, ""))
    for data_file in src_dir.rglob("*"):  # data files next to the migrated code, for __file__-relative reads
        if data_file.is_file() and data_file.suffix not in (".py", ".ipynb"):
            copy = out_dir / data_file.relative_to(src_dir)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(data_file, copy)
    return results


def code_of(text: str, kind: str) -> str:
    """The program's code without comments and string literals (a notebook's code cells joined): code kept
    in a docstring or a triple-quoted block of old code does not run."""
    if kind == "ipynb":
        try:
            cells = json.loads(text).get("cells", [])
        except ValueError:
            return text
        text = "\n".join("".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code")
    try:
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        return " ".join(t.string for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.STRING))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text


def session_free(text: str, kind: str) -> bool:
    return not _GRAPH_API.search(code_of(text, kind))


def _read(path: Path) -> str:
    with open(path, "rb") as f:
        encoding, _ = tokenize.detect_encoding(f.readline) if path.suffix == ".py" else ("utf-8", None)
    return path.read_bytes().decode(encoding, errors="replace")


def without_source(text: str) -> str:
    """A traceback without the program lines it quotes (indented under each frame): the records cite
    file and line, and must not carry the fetched code."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("    "))


def _last_line(error: str) -> str:
    lines = [line for line in error.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def _init_worker() -> None:
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(STUBS), os.environ.get("PYTHONPATH")]))
    os.environ.update(PYTHONHASHSEED="0", TF_NUM_INTRAOP_THREADS="1", TF_NUM_INTEROP_THREADS="2")


def verify_one(task: dict) -> dict:
    """Runs one program both ways (in a pool worker); returns its record."""
    from tf_migrate.verify import verify_program

    os.environ["TRIAL_STUBS"] = ",".join(task["stubs"])
    legacy_path, migrated_path = Path(task["legacy"]), Path(task["migrated"])
    legacy = _read(legacy_path)
    migrated = _read(migrated_path) if migrated_path.exists() else legacy
    result = verify_program(legacy, migrated, path=legacy_path, migrated_path=migrated_path, kind=task["kind"],
                            timeout=task["timeout"], notebook_runner="script", workdir=Path(task["workdir"]),
                            migrated_environment=task.get("environment"))
    detail = without_source(result.detail.strip())
    record = {
        "repo": task["repo"], "path": task["path"], "kind": task["kind"], "stubs": task["stubs"],
        "outcome": task["outcome"], "compat_reason": task["compat_reason"],
        "legacy_runs": not result.legacy.failed, "legacy_timeout": result.legacy.timed_out,
        "migrated_runs": not result.migrated.failed, "migrated_timeout": result.migrated.timed_out,
        "session_free": session_free(migrated, task["kind"]), "verdict": result.status,
        "detail": detail if len(detail) <= 600 else detail[:300] + " ... " + detail[-290:],
        "legacy_error": _last_line(result.legacy.error), "migrated_error": _last_line(result.migrated.error),
        "legacy_seconds": round(result.legacy.seconds, 1), "migrated_seconds": round(result.migrated.seconds, 1),
    }
    return record


def run(args: argparse.Namespace) -> int:
    index = json.loads((args.work / "src" / "index.json").read_text(encoding="utf-8"))
    programs = [p for p in index["programs"] if not args.only or re.search(args.only, f"{p['repo']}/{p['path']}")]
    start = time.monotonic()
    progress = args.work / "records.jsonl"  # each record as it comes: read it during the run, or --resume
    done = {}
    if args.resume and progress.exists():
        for line in progress.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            done[(record["repo"], record["path"])] = record
    else:
        progress.write_text("", encoding="utf-8")
    outcomes = {}
    (args.work / "reports").mkdir(parents=True, exist_ok=True)
    for repo in index["repos"]:
        if any(p["repo"] == repo["repo"] for p in programs):
            report_path = args.work / "reports" / f"{repo['dir']}.json"
            found = migrate(args.work / "src" / repo["dir"], args.work / "out" / repo["dir"], report_path,
                            again=not (args.resume and report_path.exists()))
            outcomes.update({(repo["repo"], path): value for path, value in found.items()})
            print(f"migrated {repo['repo']}", file=sys.stderr)
    tasks = []
    for program in programs:
        if (program["repo"], program["path"]) in done:
            continue
        folder = folder_name(program["repo"])
        outcome, why = outcomes.get((program["repo"], program["path"]), _not_reported(program["path"]))
        tasks.append({
            **program, "outcome": outcome, "compat_reason": why, "timeout": args.timeout,
            "legacy": str(args.work / "src" / folder / program["path"]),
            "migrated": str(args.work / "out" / folder / program["path"]),
            "workdir": str(args.work / "src" / folder / program["cwd"]),
        })
    records = list(done.values()) + _verify_all(tasks, args.jobs, progress)
    records.sort(key=lambda r: (r["repo"].lower(), r["path"]))
    wall = time.monotonic() - start
    results = {"meta": _meta(args, wall), "repos": index["repos"], "excluded": index["excluded"], "records": records}
    json_path, md_path = results_paths(args)
    json_path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_report(json_path, md_path)
    print(f"wrote {json_path} and {md_path} ({wall / 60:.1f} min)", file=sys.stderr)
    return 0


def _not_reported(path: str) -> Tuple[str, str]:
    """The outcome of a program the tree's report does not list: skipped where the CLI skips its folder
    (a notebook's ``.ipynb_checkpoints`` copy), else failed."""
    skipped = [part for part in Path(path).parts[:-1] if part in SKIP_DIRS]
    if skipped:
        return "skipped", f"in `{skipped[0]}`, a folder the CLI does not migrate"
    return "failed", ""


def recheck(args: argparse.Namespace) -> int:
    """Second looks at the files the run found wrong, so that the report names rewrite faults only.

    * ``migrated-fails``: the pair is run again with twice the time limit (a loaded machine times out);
    * ``different``: the legacy program is also run against its own compat-mode migration, which keeps
      TF1 semantics. If even that pair differs, the legacy program does not print the same numbers
      twice (unseeded numpy or TF draws, samplers inside ops): ``legacy_reproducible`` is then False
      and the report counts the file as not comparable, not as a wrong rewrite. If that pair agrees,
      it is run once more with the compat side on TF's other valid CPU kernels (``ROUNDING_CONTROL``:
      oneDNN off, other summation orders). If the same TF1 program then prints other numbers, the
      printed values depend on rounding beyond the tolerance (a long training amplifies one-ulp
      differences): ``legacy_rounding_stable`` is False, and the report counts the file as not
      comparable too, listed with both details.
    """
    from tf_migrate.engine import migrate_source
    from tf_migrate.notebook import migrate_notebook

    json_path, md_path = results_paths(args)
    results = json.loads(json_path.read_text(encoding="utf-8"))
    index = {(p["repo"], p["path"]): p for p in json.loads((args.work / "src" / "index.json").read_text())["programs"]}
    _init_worker()
    for record in results["records"]:
        if not record["legacy_runs"] or record["verdict"] not in ("different", "migrated-fails"):
            continue
        program = index[(record["repo"], record["path"])]
        folder = folder_name(record["repo"])
        task = {**program, "outcome": record["outcome"], "compat_reason": record["compat_reason"],
                "timeout": args.timeout * 2, "legacy": str(args.work / "src" / folder / program["path"]),
                "migrated": str(args.work / "out" / folder / program["path"]),
                "workdir": str(args.work / "src" / folder / program["cwd"])}
        if record["verdict"] == "migrated-fails":
            again = verify_one(task)
            record.update({k: again[k] for k in ("verdict", "detail", "migrated_runs", "migrated_timeout",
                                                 "migrated_error", "migrated_seconds")})
            record["rechecked"] = True
        if record["verdict"] == "different":
            control = args.work / "control" / folder / program["path"]
            control.parent.mkdir(parents=True, exist_ok=True)
            migrate = migrate_notebook if record["kind"] == "ipynb" else migrate_source
            control.write_text(migrate(_read(Path(task["legacy"])), str(control), mode="compat").new_source)
            same = verify_one({**task, "migrated": str(control)})
            record["legacy_reproducible"] = same["verdict"] == "equivalent"
            if record["legacy_reproducible"]:  # the same TF1 program on TF's other valid kernels
                rounded = verify_one({**task, "migrated": str(control), "environment": ROUNDING_CONTROL})
                record["legacy_rounding_stable"] = rounded["verdict"] == "equivalent"
                record["rounding_detail"] = rounded["detail"]
        print(f"rechecked {record['repo']}: {record['path']}: {record['verdict']}, "
              f"reproducible={record.get('legacy_reproducible')}", file=sys.stderr, flush=True)
    results["meta"]["command"] += " && python benchmarks/public_trial.py recheck"
    json_path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_report(json_path, md_path)
    return 0


def results_paths(args: argparse.Namespace) -> Tuple[Path, Path]:
    """Where a run writes its JSON and report: the committed results for a full run of the committed manifest;
    under ``--work`` for a subset (``--only``) or another manifest (a held-out probe stays out of the repository)."""
    if args.only:
        return args.work / "results_only.json", args.work / "results_only.md"
    if args.manifest.resolve() != MANIFEST.resolve():
        return args.work / "results.json", args.work / "results.md"
    return RESULTS_JSON, RESULTS_MD

def _verify_all(tasks: List[dict], jobs: int, progress: Path) -> List[dict]:
    """verify_one over a process pool; a pool whose worker dies is replaced and its unfinished tasks run again
    (twice at most: then the task gets a record saying the harness could not run it)."""
    records, pending, tries, count = [], list(tasks), {}, 0
    while pending:
        with ProcessPoolExecutor(jobs, initializer=_init_worker) as pool:
            futures = {pool.submit(verify_one, task): task for task in pending}
            pending = []
            for future in as_completed(futures):
                task = futures[future]
                try:
                    r = future.result()
                except BrokenProcessPool:
                    key = (task["repo"], task["path"])
                    tries[key] = tries.get(key, 0) + 1
                    if tries[key] < 3:
                        pending.append(task)
                        continue
                    r = _harness_failure(task, "the trial's worker process died three times while running this file")
                records.append(r)
                count += 1
                with open(progress, "a", encoding="utf-8") as f:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
                print(f"[{count}/{len(tasks)}] {r['verdict']:14} {r['outcome']:9} {r['legacy_seconds']:5.1f}s "
                      f"{r['migrated_seconds']:5.1f}s {r['repo']}: {r['path']}", file=sys.stderr, flush=True)
        if pending:
            print(f"a worker died; {len(pending)} unfinished files run again in a new pool", file=sys.stderr)
    return records


def _harness_failure(task: dict, why: str) -> dict:
    """A record for a file the harness could not run: left out of the figures like a failing legacy run."""
    return {
        "repo": task["repo"], "path": task["path"], "kind": task["kind"], "stubs": task["stubs"],
        "outcome": task["outcome"], "compat_reason": task["compat_reason"], "legacy_runs": False,
        "legacy_timeout": False, "migrated_runs": False, "migrated_timeout": False, "session_free": False,
        "verdict": "legacy-fails", "detail": why, "legacy_error": why, "migrated_error": "",
        "legacy_seconds": 0.0, "migrated_seconds": 0.0,
    }


def _meta(args: argparse.Namespace, wall: float) -> Dict[str, str]:
    tree = _migrating_tree()  # the checkout whose tf_migrate the runs imported (PYTHONPATH may name another)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "tf_migrate"], cwd=tree, capture_output=True,
                           text=True)
    command = "python benchmarks/public_trial.py export && python benchmarks/public_trial.py run" + (
        f" --only '{args.only}'" if args.only else "") + f" -j {args.jobs} --timeout {args.timeout:g}"
    return {
        "command": command,
        "commit": commit.stdout.strip() + (" (tf_migrate/ modified)" if dirty.stdout.strip() else ""),
        "tensorflow": importlib.metadata.version("tensorflow"), "python": platform.python_version(),
        "machine": f"{os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.1f} at the end",
        "timeout": f"{args.timeout:g}", "jobs": str(args.jobs), "wall": f"{wall / 60:.1f} min",
        "date": time.strftime("%Y-%m-%d"),
    }


def _migrating_tree() -> Path:
    """The folder holding the ``tf_migrate`` package a migration subprocess imports here (``PYTHONPATH`` first)."""
    found = subprocess.run([sys.executable, "-c", "import tf_migrate; print(tf_migrate.__file__)"],
                           capture_output=True, text=True, cwd=tempfile.gettempdir())
    return Path(found.stdout.strip()).parent.parent if found.returncode == 0 and found.stdout.strip() else ROOT


def write_report(json_path: Path, md_path: Path) -> None:
    results = json.loads(json_path.read_text(encoding="utf-8"))
    notes = ""
    if md_path.exists():
        old = md_path.read_text(encoding="utf-8")
        if report.HAND_WRITTEN in old:
            notes = old.split(report.HAND_WRITTEN, 1)[1]
    md_path.write_text(report.render(results["records"], results["meta"], results["repos"], results["excluded"],
                                     notes), encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("export", "run", "recheck", "report"))
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--mirrors", type=Path, default=MIRRORS, help="where fetch left the git mirrors")
    parser.add_argument("--work", type=Path, default=WORK, help="sources, migrations and reports (never the repo)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="programs verified at a time")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds each run of a program may take")
    parser.add_argument("--only", metavar="REGEX", help="run only matching owner/name/path programs")
    parser.add_argument("--resume", action="store_true",
                        help="keep the records of an interrupted run (records.jsonl) and its migrations; run the rest")
    args = parser.parse_args(argv)
    if args.command == "export":
        manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
        validate_manifest(manifest)
        index = export(manifest, args.mirrors, args.work / "src")
        print(f"{len(index['programs'])} programs from {len(index['repos'])} repositories in {args.work / 'src'}",
              file=sys.stderr)
        return 0
    if args.command == "run":
        return run(args)
    if args.command == "recheck":
        return recheck(args)
    json_path, md_path = results_paths(args)
    recount_session_free(json_path, args.work)
    write_report(json_path, md_path)
    return 0


def recount_session_free(json_path: Path, work: Path) -> None:
    """Each record's Session-free flag counted again on its migration in ``work/out`` (where the run left it),
    with today's ``session_free``; records whose migration is not there keep theirs."""
    results = json.loads(json_path.read_text(encoding="utf-8"))
    index = {(p["repo"], p["path"]): p for p in json.loads((work / "src" / "index.json").read_text())["programs"]} \
        if (work / "src" / "index.json").exists() else {}
    for record in results["records"]:
        migrated = work / "out" / folder_name(record["repo"]) / record["path"]
        program = index.get((record["repo"], record["path"]))
        if program is not None and migrated.exists():
            record["session_free"] = session_free(_read(migrated), program["kind"])
    json_path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
