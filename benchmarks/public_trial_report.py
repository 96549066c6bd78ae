"""What the public-code trial's records mean, and ``results_public_trial.md`` from them.

``benchmarks/public_trial.py run`` writes one record per program to
``results_public_trial.json``; this module classifies the records and renders
the Markdown report. It imports neither TensorFlow nor tf_migrate.

A record (all keys always present):
    repo, path, kind ("py" | "ipynb"), stubs (stub sets used),
    outcome (tf-migrate's: eager | compat | unchanged | skipped | failed), compat_reason,
    legacy_runs, legacy_timeout, migrated_runs, migrated_timeout (bools),
    session_free (the migrated code names no Session, placeholder or tf.compat.v1 graph API),
    verdict (verify's: equivalent | different | legacy-fails | migrated-fails | not-comparable),
    detail (verify's detail, shortened), legacy_error, migrated_error (last line of each
    failing run's error, else ""), legacy_seconds, migrated_seconds.
"""
from __future__ import annotations

import collections
from typing import Dict, Iterable, List, Optional

EAGER, COMPAT = "eager", "compat"
OUTCOMES = ("eager", "compat", "unchanged", "skipped", "failed")
VERDICTS = ("equivalent", "different", "no-computation", "not-comparable", "migrated-fails", "legacy-fails")
RECORD_KEYS = (
    "repo", "path", "kind", "stubs", "outcome", "compat_reason", "legacy_runs", "legacy_timeout",
    "migrated_runs", "migrated_timeout", "session_free", "verdict", "detail", "legacy_error",
    "migrated_error", "legacy_seconds", "migrated_seconds",
)
# Problems, worst first; ``problem`` gives at most one per record.
SILENT_WRONG_EAGER = "silent wrong eager rewrite"
COMPAT_FAILS = "compat output fails"
OTHER_FAILS = "output of an unchanged/failed/skipped file fails"
COMPAT_DIFFERENT = "compat output prints other values"
OTHER_DIFFERENT = "unchanged file prints other values"
PROBLEMS = {  # problem: the heading of its list in the report
    SILENT_WRONG_EAGER: "Silent wrong eager rewrites",
    COMPAT_FAILS: "Compat outputs that fail",
    OTHER_FAILS: "Outputs of unchanged, failed or skipped files that fail",
    COMPAT_DIFFERENT: "Compat outputs that print other values",
    OTHER_DIFFERENT: "Unchanged files that print other values",
}
HAND_WRITTEN = "<!-- hand-written notes below: kept when the report is regenerated -->"


def counted(record: dict) -> bool:
    """Whether a record is in the "runs after migration" denominator: its legacy run succeeded."""
    return bool(record["legacy_runs"])


def problem(record: dict) -> Optional[str]:
    """The record's problem, or None: only files whose legacy run succeeded can have one.

    A silent wrong eager rewrite is a file reported "converted to eager" whose
    migration crashes, times out or prints other values than the legacy run.
    """
    if not counted(record):
        return None
    broken = not record["migrated_runs"]
    # A legacy program that prints other numbers against its own compat (TF1) run has no numbers to match.
    different = record["verdict"] == "different" and record.get("legacy_reproducible") is not False \
        and record.get("legacy_rounding_stable") is not False
    if record["outcome"] == EAGER and (broken or different):
        return SILENT_WRONG_EAGER
    if broken:
        return COMPAT_FAILS if record["outcome"] == COMPAT else OTHER_FAILS
    if different:
        return COMPAT_DIFFERENT if record["outcome"] == COMPAT else OTHER_DIFFERENT
    return None


def reason(record: dict) -> str:
    """One line saying why a record failed or differs."""
    if not record["legacy_runs"]:
        return record["legacy_error"] or record["detail"]
    if not record["migrated_runs"]:
        return record["migrated_error"] or record["detail"]
    return record["detail"].splitlines()[0] if record["detail"] else ""


def difference_kind(record: dict) -> str:
    """For a ``different`` verdict: "values", "text" or "length" (what the first difference is)."""
    detail = record["detail"]
    if detail.startswith("value "):
        return "values"
    if detail.startswith("text "):
        return "text"
    return "length"


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100.0 * part / whole:.1f}%)" if whole else f"{part}/0"


def headline(records: List[dict]) -> Dict[str, object]:
    """The issue's figures (numbers, for the Markdown table and for tests)."""
    ran = [r for r in records if counted(r)]
    outcomes = collections.Counter(r["outcome"] for r in records)
    problems = collections.Counter(problem(r) for r in records)
    silent = [r for r in records if problem(r) == SILENT_WRONG_EAGER]
    return {
        "files": len(records),
        "outcomes": {o: outcomes[o] for o in OUTCOMES},
        "legacy_runs": len(ran),
        "legacy_timeouts": sum(1 for r in records if r["legacy_timeout"]),
        "legacy_fails": sum(1 for r in records if not r["legacy_runs"] and not r["legacy_timeout"]),
        "runs_after_migration": sum(1 for r in ran if r["migrated_runs"]),
        "silent_wrong_eager": len(silent),
        "silent_crashes": sum(1 for r in silent if not r["migrated_runs"] and not r["migrated_timeout"]),
        "silent_timeouts": sum(1 for r in silent if r["migrated_timeout"]),
        "silent_different_values": sum(1 for r in silent if r["migrated_runs"] and difference_kind(r) == "values"),
        "silent_different_other": sum(1 for r in silent if r["migrated_runs"] and difference_kind(r) != "values"),
        "compat_fails": problems[COMPAT_FAILS],
        "other_fails": problems[OTHER_FAILS],
        "eager_of_ran": sum(1 for r in ran if r["outcome"] == EAGER),
        "session_free_of_ran": sum(1 for r in ran if r["session_free"]),
        "verdicts_of_ran": {v: sum(1 for r in ran if r["verdict"] == v) for v in VERDICTS},
        "not_reproducible": sum(1 for r in ran if r.get("legacy_reproducible") is False),
        "rounding_sensitive": sum(1 for r in ran if r.get("legacy_rounding_stable") is False),
    }


def render(records: List[dict], meta: Dict[str, str], repos: Iterable[dict], excluded: Iterable[dict] = (),
           notes: str = "") -> str:
    """The whole Markdown report; ``notes`` (hand-written) is appended after the marker."""
    records = sorted(records, key=lambda r: (r["repo"].lower(), r["path"]))
    h = headline(records)
    ran, outcomes, verdicts = h["legacy_runs"], h["outcomes"], h["verdicts_of_ran"]
    lines = [
        "# Public-code trial: TF1 programs run before and after migration",
        "",
        "Every program below is public TF1 code, cited by repository, commit and path (none of it is in",
        "this repository). Each is migrated with the real CLI, then run twice with",
        "`tf_migrate.verify.verify_program`: the original under TF1 semantics (`tensorflow` aliased to",
        "`tf.compat.v1`, v2 behaviour off) and the migration under plain TF2, with offline synthetic-data",
        "stubs in both runs (`benchmarks/trial_stubs/`); their printed output is compared.",
        "",
        f"- Command: `{meta['command']}`",
        f"- tf-migrate commit `{meta['commit']}`, TensorFlow {meta['tensorflow']}, Python {meta['python']}, "
        f"{meta['machine']}",
        f"- Per-run timeout {meta['timeout']} s, {meta['jobs']} programs at a time (each runs its two sides at once); "
        f"wall time {meta['wall']}",
        "- Manifest: `benchmarks/public_trial_manifest.json`; per-file records: `benchmarks/results_public_trial.json`",
        "",
        "## Headline",
        "",
        "| figure | value | target |",
        "|---|---|---|",
        f"| files (programs run both ways) | {h['files']} from {len(set(r['repo'] for r in records))} repositories | "
        ">= 300 from >= 15 |",
        f"| legacy run succeeds (the denominator below) | {ran} (+{h['legacy_timeouts']} legacy timeouts, "
        f"{h['legacy_fails']} legacy failures; not counted) | |",
        f"| **legacy-running files that also run after migration** | **{_share(h['runs_after_migration'], ran)}** "
        "| 100% |",
        f"| **silent wrong eager rewrites** (eager, legacy ran, migration crashes or prints other output) | "
        f"**{h['silent_wrong_eager']}** ({h['silent_crashes']} crash, {h['silent_timeouts']} time out, "
        f"{h['silent_different_values']} other numbers, {h['silent_different_other']} other text or length) | 0 |",
        f"| compat outputs that fail (legacy ran) | {h['compat_fails']} | 0 |",
        f"| unchanged/failed/skipped outputs that fail (legacy ran) | {h['other_fails']} | 0 |",
        f"| eager share, all files | {_share(outcomes['eager'], h['files'])} | not below today's |",
        f"| eager share, legacy-running files | {_share(h['eager_of_ran'], ran)} | |",
        f"| Session-free share of legacy-running files | {_share(h['session_free_of_ran'], ran)} | |",
        "| verdicts of legacy-running files | " + ", ".join(f"{verdicts[v]} {v}" for v in VERDICTS if v != "legacy-fails")
        + f"; not comparable {_share(verdicts['not-comparable'], ran)} | <= 10% |",
        f"| not comparable among legacy-running files that compute (opened a Session; not `no-computation`) | "
        f"{_share(verdicts['not-comparable'], ran - verdicts['no-computation'])} | |",
        f"| `different` whose legacy program is not reproducible (differs from its own compat run) | "
        f"{h['not_reproducible']} | |",
        f"| `different` whose legacy program prints other numbers on TF's other CPU kernels (rounding-sensitive) | "
        f"{h['rounding_sensitive']} | |",
        "",
        "Outcomes of all files: " + ", ".join(f"{outcomes[o]} {o}" for o in OUTCOMES) + ".",
        "",
    ]
    lines += _repo_table(records, repos)
    lines += _problem_lists(records)
    lines += _rounding_sensitive(records)
    lines += _legacy_failures(records)
    lines += _excluded(list(excluded))
    lines += _method()
    lines += ["", HAND_WRITTEN]
    if notes.strip():
        lines += ["", notes.strip()]
    return "\n".join(lines) + "\n"


def _repo_table(records, repos):
    commits = {r["repo"]: r["commit"][:10] for r in repos}
    lines = [
        "## By repository",
        "",
        "| repository | commit | files | eager | compat | other | legacy runs | legacy timeout | run after migration "
        "| equivalent | different | not comparable | silent wrong eager | compat fails |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    groups = collections.defaultdict(list)
    for record in records:
        groups[record["repo"]].append(record)
    for repo in sorted(groups, key=str.lower) + [None]:
        rows = records if repo is None else groups[repo]
        ran = [r for r in rows if counted(r)]
        cells = [
            "**total**" if repo is None else repo, "" if repo is None else f"`{commits.get(repo, '?')}`",
            len(rows), sum(r["outcome"] == EAGER for r in rows), sum(r["outcome"] == COMPAT for r in rows),
            sum(r["outcome"] not in (EAGER, COMPAT) for r in rows), len(ran), sum(r["legacy_timeout"] for r in rows),
            sum(r["migrated_runs"] for r in ran), sum(r["verdict"] == "equivalent" for r in ran),
            sum(r["verdict"] == "different" for r in ran), sum(r["verdict"] == "not-comparable" for r in ran),
            sum(problem(r) == SILENT_WRONG_EAGER for r in rows), sum(problem(r) == COMPAT_FAILS for r in rows),
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return lines + [""]


def _short(text, limit=220):
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _problem_lists(records):
    lines = []
    for kind, heading in PROBLEMS.items():
        rows = [r for r in records if problem(r) == kind]
        lines += [f"## {heading} ({len(rows)})", ""]
        if not rows:
            lines += ["None.", ""]
            continue
        lines += ["| file | outcome | verdict | why (one line) |", "|---|---|---|---|"]
        for r in rows:
            verdict = r["verdict"] + (" (timeout)" if r["migrated_timeout"] else "")
            lines.append(f"| {r['repo']}: `{r['path']}` | {r['outcome']} | {verdict} | {_short(reason(r))} |")
        lines.append("")
    return lines


def _rounding_sensitive(records):
    rows = [r for r in records if counted(r) and r.get("legacy_rounding_stable") is False]
    if not rows:
        return []
    lines = [f"## Rounding-sensitive legacy output ({len(rows)}; not comparable, not counted as wrong)", "",
             "The migration prints other numbers, and so does the same TF1 program on TF's other valid CPU kernels",
             "(`TF_ENABLE_ONEDNN_OPTS=0`): the printed values depend on rounding beyond the tolerance.", "",
             "| file | outcome | migrated against legacy | legacy on other kernels against legacy |", "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['repo']}: `{r['path']}` | {r['outcome']} | {_short(r['detail'])} | "
                     f"{_short(r.get('rounding_detail') or '')} |")
    return lines + [""]


def _legacy_failures(records):
    failed = [r for r in records if not counted(r)]
    groups = collections.defaultdict(list)
    for r in failed:
        key = "timed out" if r["legacy_timeout"] else _short(r["legacy_error"] or r["detail"], 120)
        groups[key].append(r)
    lines = [
        f"## Legacy runs that fail or time out ({len(failed)}; left out of the figures)",
        "",
        "Grouped by the error's last line: what the original program needs that the trial does not give",
        "(data files, removed TF1 APIs such as `tf.contrib`, packages not installed, Python 2 syntax).",
        "",
        "| files | error | examples |",
        "|---|---|---|",
    ]
    for key, rows in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        examples = ", ".join(f"{r['repo'].split('/')[0]}: `{r['path']}`" for r in rows[:3])
        lines.append(f"| {len(rows)} | {key} | {examples}{' ...' if len(rows) > 3 else ''} |")
    return lines + [""]


def _excluded(excluded):
    groups = collections.defaultdict(list)
    for item in excluded:
        groups[item["reason"]].append(item)
    lines = [f"## Left out by the manifest ({len(excluded)} files matched its globs; not run)", ""]
    if not excluded:
        return lines + ["None.", ""]
    lines += ["| files | reason | examples |", "|---|---|---|"]
    for why, items in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        examples = ", ".join(f"{i['repo'].split('/')[0]}: `{i['path']}`" for i in items[:3])
        lines.append(f"| {len(items)} | {_short(why, 160)} | {examples}{' ...' if len(items) > 3 else ''} |")
    return lines + [""]


def _method():
    return [
        "## How to read this",
        "",
        "- *legacy runs*: the original exited 0 within the timeout under TF1 semantics. Only those files count in",
        "  the headline shares; a legacy run that times out is `legacy-timeout` in the tables.",
        "- *run after migration*: the migrated program (eager, compat or left as it was) exited 0 under plain TF2.",
        "- *silent wrong eager rewrite*: tf-migrate said \"converted to eager\", the legacy run succeeded, and the",
        "  migration crashed, timed out or printed other output (`different`: numbers beyond rtol 1e-5 / atol 1e-6,",
        "  other text, or output that stops early).",
        "- *not reproducible* (`recheck`): a `different` file whose legacy program also prints other numbers",
        "  against its own compat-mode migration (TF1 semantics on both sides): unseeded draws or samplers inside",
        "  ops. It is not counted as a wrong rewrite. `recheck` also reruns `migrated-fails` with twice the timeout.",
        "- *rounding-sensitive* (`recheck`): a `different` file whose legacy program agrees with its compat run but",
        "  prints other numbers when that run uses TF's other CPU kernels (oneDNN off: the same math, other",
        "  rounding), as when a long training amplifies one-ulp differences. Not comparable, not a wrong rewrite.",
        "- *not comparable*: verify could not match the random draws of the two runs (drawn a different number",
        "  of times, inside a graph while loop, or from threads), a read/update order TF1 leaves open, or the",
        "  legacy program printed nothing and its variables could not be paired.",
        "- *Session-free*: the migrated code names no `Session`, `InteractiveSession`, `placeholder`,",
        "  `tf.compat.v1`, `disable_v2_behavior`, `disable_eager_execution` or `get_default_graph`.",
        "- Stubs (`benchmarks/trial_stubs/modules/README.md`) stand in for MNIST downloads, gym, matplotlib and",
        "  scikit-learn data sets; their step budgets (100 MNIST batches, 1,000 gym steps) end long training",
        "  loops early, at the same point in both runs. Both runs seed Python's and numpy's global generators.",
    ]
