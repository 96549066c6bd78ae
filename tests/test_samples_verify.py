"""`tf-migrate samples/ --verify`: every sample's verdict is the one samples/README.md promises.

The README's table is the specification: its "verify" column says what a
correct migration of each sample must be judged (equivalent, or the reason
it legitimately is not). One CLI run verifies every sample, as a user would.
"""
import json
import re
from pathlib import Path


from tf_migrate.cli import main

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
_ROW = re.compile(r"^\| `(?P<file>[^`]+)` \|.*\| (?P<verdict>[^|]+) \|\s*$")
_STATUSES = ("equivalent", "legacy-fails", "no-computation", "not-comparable", "different", "migrated-fails")


def _promised():
    promised = {}
    for line in (SAMPLES / "README.md").read_text().splitlines():
        match = _ROW.match(line)
        if match:
            verdict = match.group("verdict").strip()
            promised[match.group("file")] = next(s for s in _STATUSES if verdict.startswith(s))
    return promised


PROMISED = _promised()


def _verdicts(tmp_path):
    """The CLI's verify verdict of each sample, from one run over the folder, and its exit code."""
    report = tmp_path / "report.json"
    code = main([str(SAMPLES), "--verify", "-q", "-j", "2", "--report", str(report), "--timeout", "300"])
    data = json.loads(report.read_text())
    return code, {Path(f["path"]).name: f["message"].split(":")[0] for f in data["findings"] if f["rule"] == "verify"}


def test_readme_lists_every_sample():
    on_disk = {p.name for p in SAMPLES.iterdir() if p.suffix in (".py", ".ipynb")}
    assert on_disk == set(PROMISED)


def test_every_sample_gets_the_verdict_the_readme_promises(tmp_path):
    """One test, not one per sample: the run takes 2-3 minutes, and tests that shared it as a fixture were
    spread over xdist's workers, each of which then made the run (or waited for it) instead of other work."""
    code, found = _verdicts(tmp_path)
    wrong = {name: (found.get(name), promised) for name, promised in PROMISED.items() if found.get(name) != promised}
    assert not wrong, f"sample: (verdict, promised): {wrong}"
    assert code == 0
