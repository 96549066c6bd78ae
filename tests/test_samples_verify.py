"""`tf-migrate samples/ --verify`: every sample's verdict is the one samples/README.md promises.

The README's table is the specification: its "verify" column says what a
correct migration of each sample must be judged (equivalent, or the reason
it legitimately is not). One CLI run verifies every sample, as a user would.
"""
import fcntl
import json
import re
from pathlib import Path

import pytest

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

# Its tests share one run of every sample (3-4 minutes). The xdist group keeps them on one worker where
# grouping applies; the run itself is made once per test session whichever workers ask for it: the first
# takes a lock in the directory the workers share, runs the CLI with two jobs, and leaves the result there.
pytestmark = pytest.mark.xdist_group("samples-verify")


@pytest.fixture(scope="session")
def verdicts(tmp_path_factory, worker_id):
    shared = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    result = shared / "samples-verify.json"
    with open(shared / "samples-verify.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second worker waits here for the first one's run
        if not result.exists():
            report = tmp_path_factory.mktemp("verify") / "report.json"
            code = main([str(SAMPLES), "--verify", "-q", "-j", "2", "--report", str(report), "--timeout", "300"])
            result.write_text(json.dumps({"code": code, "report": json.loads(report.read_text())}))
    data = json.loads(result.read_text())
    found = {Path(f["path"]).name: f["message"].split(":")[0]
             for f in data["report"]["findings"] if f["rule"] == "verify"}
    return data["code"], found


def test_readme_lists_every_sample():
    on_disk = {p.name for p in SAMPLES.iterdir() if p.suffix in (".py", ".ipynb")}
    assert on_disk == set(PROMISED)


def test_verify_exit_code_is_zero(verdicts):
    code, _ = verdicts
    assert code == 0


@pytest.mark.parametrize("name", sorted(PROMISED))
def test_sample_verdict(verdicts, name):
    _, found = verdicts
    assert found.get(name) == PROMISED[name]
