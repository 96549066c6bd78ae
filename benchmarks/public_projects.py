"""Public multi-file TF1 projects, migrated as trees, then run before and after and compared.

    python benchmarks/public_projects.py export            # the manifest's trees, from the fetched mirrors
    python benchmarks/public_projects.py run [--only NAME [--update]]  # migrate, run both ways, write the results
    python benchmarks/public_projects.py report            # results_projects.md again from the JSON

``export`` reads ``public_projects_manifest.json`` and extracts each project's subtree at its
commit from the git mirrors the ``fetch`` tool leaves in ``/work/.mirror/owner+name/``
(``git archive``) into ``/tmp/public_projects/src/<name>/``, then writes the project's synthetic
data files there (``data``: short sentences, a small text, MNIST-format images). No project
code is ever written into this repository.

``run`` migrates each tree twice with the real CLI, into ``/tmp/public_projects/out/<name>/``:
``tree``: the folder (``tf-migrate SRC -o OUT``: the project pass, one mode per process) and
``per-file``: every file named on the command line (no project pass: the behaviour before it).
Then for each it runs the entry command with ``tf_migrate.verify_entry.verify_trees``: the
original tree under TF1 semantics and the migrated one under plain TF2, each in a copy of its
tree, with ``benchmarks/project_stubs`` and ``benchmarks/trial_stubs`` on ``PYTHONPATH``
(stub sets from the manifest). It writes ``results_projects.json`` and ``results_projects.md``.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import time
import tokenize
from pathlib import Path
from typing import Dict, List

import numpy

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from tf_migrate import verify  # noqa: E402
from tf_migrate.verify_entry import verify_trees  # noqa: E402

MANIFEST = HERE / "public_projects_manifest.json"
RESULTS_JSON = HERE / "results_projects.json"
RESULTS_MD = HERE / "results_projects.md"
WORK = Path("/tmp/public_projects")
MIRRORS = Path("/work/.mirror")
GRAPH_ONLY = {"Session", "InteractiveSession", "placeholder"}
WAYS = ("per-file", "tree")
HAND_WRITTEN = "<!-- hand-written analysis below: kept when the tables above are regenerated -->"


def export(manifest: dict) -> None:
    for project in manifest["projects"]:
        destination = WORK / "src" / project["name"]
        shutil.rmtree(destination, ignore_errors=True)
        destination.mkdir(parents=True)
        git_dir = MIRRORS / project["repo"].replace("/", "+") / "repo"
        if (git_dir / ".git").is_dir():
            git_dir = git_dir / ".git"
        subtree = project["subtree"]
        globs = [f"{subtree}/{glob}" if subtree else glob for glob in project.get("files", ["*.py"])]
        archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", project["commit"], "--", *globs],
                                 check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            for member in tar.getmembers():
                if not member.isfile():
                    continue
                relative = Path(member.name).relative_to(subtree) if subtree else Path(member.name)
                (destination / relative).parent.mkdir(parents=True, exist_ok=True)
                (destination / relative).write_bytes(tar.extractfile(member).read())
        for relative, kind in project["data"].items():
            write_data(destination / relative, kind)
        print(f"exported {project['name']}: {project['repo']}@{project['commit'][:7]}", file=sys.stderr)


def write_data(path: Path, kind: str) -> None:
    """Synthetic data files, deterministic (numpy seed 0)."""
    rng = numpy.random.RandomState(0)
    path.parent.mkdir(parents=True, exist_ok=True)
    words = ["good", "bad", "movie", "plot", "great", "dull", "actor", "scene", "fun", "slow", "film", "story"]
    if kind.startswith("sentences:"):
        offset = 0 if kind.endswith("pos") else 6
        lines = [" ".join(words[(offset + rng.randint(6)) % 12] for _ in range(rng.randint(4, 12))) for _ in range(64)]
        path.write_text("\n".join(lines) + "\n", encoding="latin-1")
    elif kind == "text":
        path.write_text(" ".join(words[rng.randint(12)] for _ in range(120)) + "\n", encoding="utf-8")
    elif kind == "mnist-idx":  # the four files of MNIST's format with 60,000 + 10,000 random images
        path.mkdir(parents=True, exist_ok=True)
        for name, count in (("train", 60000), ("t10k", 10000)):
            images = rng.randint(0, 256, size=(count, 28, 28), dtype=numpy.uint8)
            (path / f"{name}-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 2051, count, 28, 28) + images.tobytes())
            labels = rng.randint(0, 10, size=count, dtype=numpy.uint8)
            (path / f"{name}-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, count) + labels.tobytes())
    else:
        raise ValueError(f"unknown data kind {kind!r}")


def migrate(project: dict, way: str) -> dict:
    """Migrate the exported tree ``way`` (``tree`` or ``per-file``); the CLI's JSON report."""
    source, out = WORK / "src" / project["name"], WORK / "out" / way / project["name"]
    shutil.rmtree(out, ignore_errors=True)
    report = WORK / "reports" / f"{project['name']}-{way}.json"
    report.parent.mkdir(parents=True, exist_ok=True)
    targets = [str(source)] if way == "tree" else [str(p) for p in sorted(source.rglob("*.py"))]
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "tf_migrate", *targets, "-o", str(out), "-q", "--report", str(report)],
                   cwd=ROOT, capture_output=True, timeout=900)
    result = json.loads(report.read_text(encoding="utf-8"))
    result["seconds"] = time.monotonic() - start
    return result


def migrated_copy(project: dict, way: str) -> Path:
    """The exported tree with the migrated files of ``way`` laid over it (data files stay)."""
    source, out = WORK / "src" / project["name"], WORK / "out" / way / project["name"]
    tree = WORK / "migrated" / way / project["name"]
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(source, tree)
    for path in out.rglob("*.py"):
        shutil.copyfile(path, tree / path.relative_to(out))
    return tree


def session_free_files(tree: Path) -> Dict[str, bool]:
    """For each TF module of ``tree``: True when its code names no Session or placeholder."""
    found = {}
    for path in sorted(tree.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "tensorflow" not in text:
            continue
        try:
            names = {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NAME}
        except (tokenize.TokenError, SyntaxError):
            names = set(re.findall(r"\w+", text))
        found[str(path.relative_to(tree))] = not names & GRAPH_ONLY
    return found


def run_project(project: dict, timeout: float) -> dict:
    os.environ["TRIAL_STUBS"] = ",".join(project["trial_stubs"])
    os.environ["PROJECT_STUBS"] = ",".join(project["project_stubs"])
    record = {key: project[key] for key in ("name", "kind", "repo", "commit", "subtree", "entry")}
    for way in WAYS:
        report = migrate(project, way)
        tree = migrated_copy(project, way)
        result = verify_trees(project["entry"], WORK / "src" / project["name"], tree, timeout)
        outcomes = {os.path.relpath(path, WORK / "src" / project["name"]) if os.path.isabs(path) else path: outcome
                    for path, outcome in report["files"].items()}
        ties = [f for f in report["findings"] if f["rule"] == "project-mode"]
        free = session_free_files(tree)
        record[way] = {
            "outcomes": outcomes, "migrate_seconds": round(report["seconds"], 1),
            "ties": [f"{os.path.relpath(f['path'], WORK / 'src' / project['name'])}: {f['message']}" for f in ties],
            "verdict": result.status, "detail": _short(result.detail),
            "legacy_runs": not result.legacy.failed, "migrated_runs": not result.migrated.failed,
            "legacy_seconds": round(result.legacy.seconds, 1), "migrated_seconds": round(result.migrated.seconds, 1),
            "session_free": all(free.values()) if free else False,
            "graph_files_left": sorted(name for name, ok in free.items() if not ok),
            "legacy_tail": result.legacy_output.strip().splitlines()[-3:],
            "migrated_tail": result.migrated_output.strip().splitlines()[-3:],
        }
        print(f"{project['name']} [{way}]: {result.status}; outcomes {sorted(outcomes.values())}", file=sys.stderr)
    return record


def _short(detail: str) -> str:
    """The detail without quoted program lines (tracebacks quote the projects' code)."""
    lines = [line for line in detail.strip().splitlines() if not line.startswith("    ")]
    text = "\n".join(lines)
    return text if len(text) <= 500 else text[:240] + " ... " + text[-250:]


def render(results: dict) -> str:
    meta = results["meta"]
    out = ["# Public projects: migrated as trees, run before and after", "",
           f"Generated by `benchmarks/public_projects.py run` ({meta['date']}, tf_migrate at {meta['commit']}, "
           f"TensorFlow {meta['tensorflow']}, {meta['cpus']} shared cores, load {meta['load']}"
           + (f"; {meta['updated']}" if meta.get("updated") else "") + "). "
           "Manifest: `benchmarks/public_projects_manifest.json` (repository, commit, subtree, entry command, stubs). "
           "Each entry command runs in the original tree under TF1 semantics (`tf_migrate.verify`: "
           "`disable_v2_behavior()`, `sys.modules['tensorflow'] = tf.compat.v1`) and in the migrated tree under "
           "plain TF2; stdout is compared. *per-file*: the files given one by one (no project pass, the behaviour "
           "before it); *tree*: the folder given (one mode per process).", "",
           "| project | kind | way | runs before | runs after | Session-free | same output | modes (eager/compat/other) |",
           "|---|---|---|---|---|---|---|---|"]
    for record in results["records"]:
        for way in WAYS:
            r = record[way]
            modes = list(r["outcomes"].values())
            counts = f"{modes.count('eager')}/{modes.count('compat')}/{len(modes) - modes.count('eager') - modes.count('compat')}"
            out.append(f"| {record['name']} ({record['repo']}@{record['commit'][:7]}) | {record['kind'].split(':')[0]} | "
                       f"{way} | {_yes(r['legacy_runs'])} | {_yes(r['migrated_runs']) if r['legacy_runs'] else '-'} | "
                       f"{_yes(r['session_free'])} | {r['verdict']} | {counts} |")
    out += ["", "## Each project", ""]
    for record in results["records"]:
        out += [f"### {record['name']}: {record['repo']}@{record['commit'][:7]}"
                + (f" `{record['subtree']}`" if record["subtree"] else ""), "",
                f"{record['kind']}. Entry: `{record['entry']}`.", ""]
        for way in WAYS:
            r = record[way]
            out.append(f"- **{way}**: {r['verdict']} (legacy {r['legacy_seconds']} s, migrated {r['migrated_seconds']} s; "
                       f"migration {r['migrate_seconds']} s). Modes: "
                       + ", ".join(f"`{path}` {mode}" for path, mode in sorted(r["outcomes"].items())) + ".")
            if r["graph_files_left"]:
                out.append(f"  - Session/placeholder left in: {', '.join(r['graph_files_left'])}.")
            for tie in r["ties"]:
                out.append(f"  - tie: {tie}")
            if r["verdict"] != verify.EQUIVALENT and r["detail"]:
                out.append("  - detail: " + " / ".join(r["detail"].splitlines()[-4:]))
        out.append("")
    return "\n".join(out) + "\n"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def run(args: argparse.Namespace, manifest: dict) -> int:
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE / "project_stubs"), str(HERE / "trial_stubs"),
                                                             os.environ.get("PYTHONPATH")]))
    os.environ.update(PYTHONHASHSEED="0", TF_NUM_INTRAOP_THREADS="1", TF_NUM_INTEROP_THREADS="2")
    projects = [p for p in manifest["projects"] if not args.only or re.search(args.only, p["name"])]
    records = [run_project(project, args.timeout) for project in projects]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    results = {"meta": {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
                        "tensorflow": _version("tensorflow"), "cpus": os.cpu_count(),
                        "load": f"{os.getloadavg()[0]:.1f}", "python": platform.python_version()},
               "records": records}
    json_path, md_path = (WORK / "results_only.json", WORK / "results_only.md") if args.only else (RESULTS_JSON,
                                                                                                  RESULTS_MD)
    if args.only and args.update:  # the other projects' records stay as the last full run left them
        json_path, md_path = RESULTS_JSON, RESULTS_MD
        fresh = {record["name"]: record for record in records}
        kept = json.loads(RESULTS_JSON.read_text(encoding="utf-8"))
        results["records"] = [fresh.pop(record["name"], record) for record in kept["records"]] + list(fresh.values())
        results["meta"]["updated"] = f"{', '.join(r['name'] for r in records)} rerun at {results['meta']['date']}"
        results["meta"] = {**kept["meta"], "updated": results["meta"]["updated"]}
    json_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write_markdown(results, md_path)
    print(f"wrote {json_path} and {md_path}", file=sys.stderr)
    return 0


def write_markdown(results: dict, md_path: Path) -> None:
    old = md_path.read_text(encoding="utf-8") if md_path.exists() else ""
    kept = old[old.index(HAND_WRITTEN):] if HAND_WRITTEN in old else HAND_WRITTEN + "\n"
    md_path.write_text(render(results) + "\n" + kept, encoding="utf-8")


def _version(dist: str) -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("export", "run", "report"))
    parser.add_argument("--only", help="regex of project names; results go to /tmp/public_projects/results_only.*")
    parser.add_argument("--update", action="store_true",
                        help="with --only: replace those projects' records in results_projects.json/.md")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run of an entry command")
    args = parser.parse_args(argv)
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    if args.command == "export":
        export(manifest)
        return 0
    if args.command == "report":
        write_markdown(json.loads(RESULTS_JSON.read_text(encoding="utf-8")), RESULTS_MD)
        return 0
    return run(args, manifest)


if __name__ == "__main__":
    sys.exit(main())
