"""Golden before/after tests, black style: each case is input, ``# output``, expected.

Cases whose first line is ``# numeric`` also run both programs (legacy under
TF1 graph semantics, migrated under TF2 eager) and compare what they print.
``# numeric, separate processes`` runs each in its own process, as ``--verify``
does: TF1's rnn cells need Keras 2, selected before TensorFlow is imported.
The in-process ones run migrated twice, compiled (the default) and with
``--functions eager``, so the TF1 graph, compiled and eager outputs are compared.
"""
from pathlib import Path

import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import run_program
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
    if before.startswith("# numeric, separate processes"):
        legacy = run_program(before, path=path, mode="legacy")
        after = run_program(migrated.new_source, path=path, mode="migrated")
        assert legacy.returncode == 0 and after.returncode == 0, (legacy.stderr[-2000:], after.stderr[-2000:])
        assert_same_output(legacy.stdout, after.stdout)
        return
    assert_same_output(run_legacy(before), run_migrated(migrated.new_source))


IN_PROCESS = [p for p in NUMERIC if not p.read_text().startswith("# numeric, separate processes")]


@pytest.mark.parametrize("path", IN_PROCESS, ids=[p.stem.replace("_", " ") for p in IN_PROCESS])
def test_numeric_twin_with_eager_functions(path):
    """The same programs migrated with ``--functions eager``: TF1 graph, compiled and eager all print the same."""
    before, _ = _split(path)
    migrated = migrate_source(before, path.name, functions="eager")
    assert migrated.outcome == "eager", migrated.findings
    assert "@tf.function(input_signature" not in migrated.new_source
    assert_same_output(run_legacy(before), run_migrated(migrated.new_source))
