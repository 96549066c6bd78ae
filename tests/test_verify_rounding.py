"""verify's rounding look: printed numbers that differ are measured against the legacy program's own rounding."""
import os

import numpy as np

from tf_migrate.verify.child_runs import Run
from tf_migrate.verify.verifier import _rounding_look

LEGACY = "step 0 0.500000\nstep 1 0.250000\nstep 2 0.125000\nstep 3 0.062500\n"
MIGRATED = "step 0 0.500000\nstep 1 0.250000\nstep 2 0.125100\nstep 3 0.063700\n"  # differs from line 3


class _Runner:
    """Gives the legacy rerun's output, and records the environment it was asked to run with."""

    def __init__(self, rerun_output, failed=False):
        self.rerun_output, self.failed, self.asked = rerun_output, failed, []
        self.legacy_environment = {}

    def run(self, mode, source, fetch_order):
        self.asked.append((mode, dict(self.legacy_environment)))
        return Run(1 if self.failed else 0, self.rerun_output, "", False, 60.0)


def _look(rerun_output, failed=False):
    runner = _Runner(rerun_output, failed)
    verdict = _rounding_look(runner, "source", Run(0, LEGACY, "", False, 60.0), Run(0, MIGRATED, "", False, 60.0),
                             "value 0.125000 != 0.125100", rtol=1e-5, atol=1e-6)
    return verdict, runner


def test_a_legacy_output_that_moves_with_the_kernels_no_later_is_not_comparable():
    (status, detail), runner = _look("step 0 0.500000\nstep 1 0.250300\nstep 2 0.125000\nstep 3 0.062500\n")  # line 2 moves
    assert status == "not-comparable"
    assert "legacy program's own output differs from line 2" in detail and "value 0.125000 != 0.125100" in detail
    assert "as the migrated output does from line 3" in detail
    flipped = "1" if os.environ.get("TF_ENABLE_ONEDNN_OPTS") == "0" else "0"
    assert runner.asked == [("legacy", {"TF_ENABLE_ONEDNN_OPTS": flipped})]
    assert runner.legacy_environment == {}  # (only for that run)


def test_a_legacy_output_the_other_kernels_reproduce_keeps_the_difference():
    (status, detail), _ = _look(LEGACY)
    assert (status, detail) == ("different", "value 0.125000 != 0.125100")


def test_a_legacy_output_that_moves_about_as_early_is_not_comparable_and_much_later_keeps_the_difference():
    moves_at_4 = "step 0 0.500000\nstep 1 0.250000\nstep 2 0.125000\nstep 3 0.062900\n"
    (status, detail), _ = _look(moves_at_4)  # the migrated output differs from line 3: 4 is about as early
    assert status == "not-comparable" and "differs from line 4" in detail and "from line 3" in detail
    long_legacy = "".join(f"step {i} {0.5 ** i:.6f}\n" for i in range(8))
    migrated = long_legacy.replace("step 1 0.500000", "step 1 0.510000")  # differs from line 2
    runner = _Runner(long_legacy.replace("step 7 0.007812", "step 7 0.007900"))  # moves at line 8 only
    status, _ = _rounding_look(runner, "source", Run(0, long_legacy, "", False, 60.0), Run(0, migrated, "", False, 60.0),
                               "value 0.5 != 0.51", rtol=1e-5, atol=1e-6)
    assert status == "different"  # the migrated output differs from line 2, the legacy's own moves only at 8


def test_a_legacy_rerun_that_fails_keeps_the_difference():
    (status, _), _ = _look("", failed=True)
    assert status == "different"


def test_outputs_that_differ_only_in_length_are_not_a_rounding_question():
    runner = _Runner("anything")
    status, _ = _rounding_look(runner, "source", Run(0, LEGACY, "", False, 60.0),
                               Run(0, LEGACY + "extra 1\n", "", False, 60.0), "longer", rtol=1e-5, atol=1e-6)
    assert status == "different" and runner.asked == []


def _state_look(rerun_weights):
    def run(weights, output="done\n"):
        return Run(0, output, "", False, 60.0, state=[("dense/kernel", np.array(weights, dtype=np.float32), None)])

    runner = _Runner("done\n")
    runner.run = lambda mode, source, fetch_order: run(rerun_weights)
    return _rounding_look(runner, "source", run([1.0] * 10), run([1.0] * 9 + [3.0]), "trained variable differs",
                          rtol=1e-5, atol=1e-6)


def test_equal_output_and_trained_values_that_move_with_the_kernels_are_not_comparable():
    status, detail = _state_look([1.0] * 8 + [2.0, 1.0])
    assert status == "not-comparable" and "legacy program's own trained values differ" in detail


def test_trained_values_the_other_kernels_reproduce_keep_the_difference():
    assert _state_look([1.0] * 10) == ("different", "trained variable differs")


def test_on_the_same_line_a_token_the_legacy_program_reproduces_keeps_the_difference():
    """A timestamp that changes from run to run, and a step number the migration changed, on one line."""
    legacy = "12:00:01.25 step 0 loss 0.5\n"
    runner = _Runner("12:00:03.75 step 0 loss 0.5\n")
    status, _ = _rounding_look(runner, "source", Run(0, legacy, "", False, 60.0),
                               Run(0, "12:00:02.50 step 1 loss 0.5\n", "", False, 60.0), "value", rtol=1e-5, atol=1e-6)
    assert status == "different"
    runner = _Runner("12:00:03.75 step 0 loss 0.5\n")
    status, _ = _rounding_look(runner, "source", Run(0, legacy, "", False, 60.0),
                               Run(0, "12:00:02.50 step 0 loss 0.5\n", "", False, 60.0), "value", rtol=1e-5, atol=1e-6)
    assert status == "not-comparable"  # only the time differs, which the legacy program does not reproduce
