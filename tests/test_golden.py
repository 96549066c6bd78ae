"""Golden before/after tests, black style: each case is input, ``# output``, expected.

Cases whose first line is ``# numeric`` also run both programs (legacy under
TF1 graph semantics, migrated under TF2 eager) and compare what they print.
"""
from pathlib import Path

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

CASES = sorted((Path(__file__).parent / "golden").glob("*.py"))
MARKER = "# output\n"


def _split(path: Path):
    text = path.read_text()
    before, _, after = text.partition(MARKER)
    return before, after


@pytest.mark.parametrize("path", CASES, ids=[p.stem.replace("_", " ") for p in CASES])
def test_rewrite_matches_golden(path):
    before, expected = _split(path)
    result = migrate_source(before, path.name)
    assert result.new_source == (expected or before)


@pytest.mark.parametrize("path", CASES, ids=[p.stem.replace("_", " ") for p in CASES])
def test_rewrite_is_idempotent(path):
    before, _ = _split(path)
    once = migrate_source(before, path.name).new_source
    assert migrate_source(once, path.name).new_source == once


NUMERIC = [p for p in CASES if p.read_text().startswith("# numeric")]


@pytest.mark.parametrize("path", NUMERIC, ids=[p.stem.replace("_", " ") for p in NUMERIC])
def test_numeric_twin(path):
    before, _ = _split(path)
    migrated = migrate_source(before, path.name)
    assert migrated.outcome == "eager", migrated.findings
    assert_same_output(run_legacy(before), run_migrated(migrated.new_source))
