"""Rule.TRIGGERS only saves work: with the gates on or off, every input migrates to the same text and findings."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from tf_migrate import engine
from tf_migrate.rules import all_rules
from tests import fuzz_grammar as fg
from tests.test_golden import _split

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import make_corpus  # noqa: E402


def _inputs():
    """(name, input, the gated run's text where a golden file holds it, else None: the test runs it)."""
    yield from ((p.name, p.read_text(), None) for p in sorted((ROOT / "samples").glob("*.py")))
    for path in sorted((ROOT / "tests" / "golden").glob("*.py")):
        before, after = _split(path)
        # test_golden holds the gated run of a golden input to its expected text, and of that text (a second
        # run must skip nothing the first run's output needs) to the text itself: only the ungated runs are made.
        yield path.name, before, after or before
        if after:
            yield path.name + ":after", after, after
    yield from ((f"corpus{i}", make_corpus.program(i), None) for i in range(0, 200, 10))
    yield from ((f"grammar{s}", fg.program(random.Random(s)), None) for s in range(20))


def _migrate(name, source):
    try:
        result = engine.migrate_source(source, name)
    except engine.InputError as error:
        return str(error)
    return result.outcome, result.new_source, result.findings


def test_gated_rules_name_what_they_match():
    gated = {rule.RULE_ID: rule.TRIGGERS for rule in all_rules() if rule.TRIGGERS}
    assert {"saver-var-list", "summaries", "layers-to-keras", "get-variable"} <= set(gated)


CHUNKS = 4  # the inputs in four parts, which xdist hands to different workers


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_triggers_change_no_output(monkeypatch, chunk):
    differ = []
    for index, (name, source, golden) in enumerate(_inputs()):
        if index % CHUNKS != chunk:
            continue
        gated = _migrate(name, source) if golden is None else None
        monkeypatch.setattr(engine, "USE_TRIGGERS", False)
        every_rule = _migrate(name, source)
        monkeypatch.setattr(engine, "USE_TRIGGERS", True)
        if (gated != every_rule) if golden is None else (isinstance(every_rule, str) or every_rule[1] != golden):
            differ.append(name)
    assert not differ
