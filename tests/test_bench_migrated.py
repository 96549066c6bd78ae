"""benchmarks/bench_migrated.py without timing anything.

The programs migrate as the benchmark needs (eager, the timer around the same steps), and the
report renders from fake measurements.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tf_migrate import migrate_source, report

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_migrated  # noqa: E402

PROGRAMS = sorted(bench_migrated.PROGRAMS.glob("*.py"))
TIMER_START = "start = time.perf_counter()"
TIMER_STOP = "times.append(time.perf_counter() - start)"
STEP_PRINT = 'print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))'


def test_the_benchmark_has_the_programs_of_issue_13():
    names = " ".join(p.name for p in PROGRAMS)
    for kind in ("linear_gd", "mlp_adam", "cnn_layers_momentum", "batch_norm_flag", "jacobian_penalty",
                 "gradient_penalty", "ddpg", "gan_two_optimizers"):
        assert kind in names


def _timed_block(source):
    """The statements between the timer's start and stop lines, without indentation."""
    lines = [line.strip() for line in source.splitlines()]
    start, stop = lines.index(TIMER_START), lines.index(TIMER_STOP)
    return lines[start + 1:stop]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_migrates_to_eager_with_its_timer_around_the_steps(program):
    source = program.read_text(encoding="utf-8")
    result = migrate_source(source, str(program))
    assert result.outcome == report.EAGER, result.reason
    new = result.new_source
    assert new.count("STEP_MS") == 1 and STEP_PRINT in new
    assert "FINAL_LOSS" in new
    legacy_block, migrated_block = _timed_block(source), _timed_block(new)
    # Same statements timed, now without a session: each sess.run became one call.
    assert len(migrated_block) == len(legacy_block)
    assert not any("sess" in line for line in migrated_block)
    assert "tf.Session" not in new


def _row(name, legacy_ms, migrated_ms, legacy_loss=(1.0,), migrated_loss=(1.0,), error=None):
    legacy = {"outcome": "legacy", "ms": list(legacy_ms), "loss": [list(legacy_loss)] * len(legacy_ms),
              "seconds": [1.0] * len(legacy_ms), "error": None}
    cell = {"outcome": "eager", "ms": list(migrated_ms), "loss": [list(migrated_loss)] * len(migrated_ms),
            "seconds": [1.0] * len(migrated_ms), "error": error}
    return {"program": name, "legacy": legacy, "variants": {"eager": cell}}


def test_table_gives_each_ratio_the_loss_check_and_the_geometric_mean():
    rows = [
        _row("a.py", [1.0, 1.2, 0.9], [2.0, 2.2, 1.5]),
        _row("b.py", [0.5, 0.5, 0.5], [4.0], legacy_loss=(0.25, 1.0), migrated_loss=(0.2501, 1.0)),
        _row("c.py", [1.0, 1.0, 1.0], [], error="ValueError: boom | bang"),
    ]
    table = bench_migrated.render_table(rows)
    lines = table.splitlines()
    assert lines[2] == "| a.py | eager | eager | 1.000 | 2.000 | 2.0x | 1.7x | yes |  |"
    assert lines[3] == ("| b.py | eager | eager | 0.500 | 4.000 | 8.0x | 8.0x | **no** (0.25 1 vs 0.2501 1) "
                        "| migrated run once (slow) |")
    assert lines[4] == "| c.py | eager | eager | 1.000 | n/a | n/a | n/a | n/a | migrated failed: ValueError: boom \\| bang |"
    assert ("**eager**: geometric mean of migrated/legacy **4.00x** over 2 programs (best runs: 3.65x); "
            "worst 8.0x.") in table


def test_losses_equal_with_onednn_off_are_reported_as_rounding():
    row = _row("b.py", [0.5, 0.5], [0.6, 0.6], legacy_loss=(0.25,), migrated_loss=(0.2501,))
    row["variants"]["eager"]["control"] = True
    line = bench_migrated.render_table([row]).splitlines()[2]
    assert "| rounding: 0.25 vs 0.2501; equal with oneDNN off (TF_ENABLE_ONEDNN_OPTS=0) |" in line
    row["variants"]["eager"]["control"] = False
    assert "| **no** (0.25 vs 0.2501) |" in bench_migrated.render_table([row]).splitlines()[2]


def test_error_message_is_the_last_traceback_message_on_one_line_without_arrays():
    stderr = """Traceback (most recent call last):
  File "p.py", line 3, in <module>
ValueError: Passed in object <Variable shape=(2, 2), value=[[-1.5e-01  9.8e-02]
 [ 2.1e-01  1.5e-01]]> of type 'Variable', not tf.Tensor
W0000 00:00:1796096444.147073   29180 something at exit
"""
    assert bench_migrated.error_message(stderr) == (
        "ValueError: Passed in object <Variable shape=(2, 2), value=[...]> of type 'Variable', not tf.Tensor")
    assert bench_migrated.error_message("W0000 00:00 just logs\n") == ""


def test_losses_agree_within_rtol_1e_4():
    assert bench_migrated.losses_agree([1.0, 2.0], [[1.00005, 2.0], [1.0, 1.99999]])
    assert not bench_migrated.losses_agree([1.0], [[1.0], [1.001]])
    assert not bench_migrated.losses_agree([1.0, 2.0], [[1.0]])
    assert bench_migrated.losses_agree(None, [[1.0]]) is None


def test_variants_follow_what_the_cli_offers():
    none = {"functions": [], "xla": False}
    both = {"functions": ["compiled", "eager"], "xla": True}
    assert bench_migrated.choose_variants(None, False, none) == [bench_migrated.CLI_DEFAULT]
    assert bench_migrated.choose_variants(None, True, both) == ["compiled", "eager", "xla"]
    assert bench_migrated.choose_variants(["eager"], False, both) == ["eager"]
    for requested, xla, offered in ((["eager"], False, none), (["jit"], False, both), (None, True, none)):
        with pytest.raises(ValueError):
            bench_migrated.choose_variants(requested, xla, offered)
    assert bench_migrated.variant_args("compiled") == ["--functions", "compiled"]
    assert bench_migrated.variant_args(bench_migrated.CLI_DEFAULT) == []


def test_results_file_keeps_the_sections_of_other_labels(tmp_path):
    out = tmp_path / "results.md"
    section = "<!-- run: {0} -->\n## {0}\n{1}\n<!-- end run: {0} -->\n"
    bench_migrated.write_results(out, "before", section.format("before", "old numbers"))
    bench_migrated.write_results(out, "after", section.format("after", "first try"))
    bench_migrated.write_results(out, "after", section.format("after", "second try"))
    text = out.read_text()
    assert "old numbers" in text and "second try" in text and "first try" not in text
    assert text.index("## before") < text.index("## after")


def test_generated_functions_are_counted_in_scripts_and_notebook_cells(tmp_path):
    (tmp_path / "a.py").write_text("import tensorflow as tf\n\n@tf.function\ndef run_loss(x):\n    return x\n")
    (tmp_path / "b.ipynb").write_text(
        '{"cells": [{"cell_type": "code", "source": ["def run_a():\\n", "    pass\\n"]},'
        ' {"cell_type": "markdown", "source": "def run_b(): pass"}]}')
    counts = bench_migrated.count_generated(tmp_path)
    assert counts == {"files": 2, "lines": 7, "def run_": 2, "@tf.function": 1, "lines in def run_": 4,
                      "def compute_": 0, "repeated statements": 0}


def test_repeated_forward_statements_are_counted_per_file(tmp_path):
    (tmp_path / "a.py").write_text(
        "def run_a(x):\n    h = f(x)\n    y = g(h)\n    return y\n\n"
        "def run_b(x):\n    with tape:\n        h = f(x)\n        y = g(h)\n    return y\n\n"
        "def run_c(x):\n    h = f(x)\n    return h\n\n"
        "def user(x):\n    h = f(x)\n")
    (tmp_path / "b.py").write_text("def run_d(x):\n    h = f(x)\n    return h\n")
    counts = bench_migrated.count_generated(tmp_path)
    assert counts["repeated statements"] == 3  # h = f(x) twice more, y = g(h) once more; other files apart


def test_cli_flags_reads_the_help_text(monkeypatch):
    class Done:
        stdout = "  --functions {compiled,eager}\n  --xla  compile steps with XLA\n"

    monkeypatch.setattr(bench_migrated.subprocess, "run", lambda *a, **k: Done())
    assert bench_migrated.cli_flags() == {"functions": ["compiled", "eager"], "xla": True}
    Done.stdout = "usage: tf-migrate [-h]\n"
    assert bench_migrated.cli_flags() == {"functions": [], "xla": False}
