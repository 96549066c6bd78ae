"""Runs a legacy TF1 program and its migration, and compares what they print.

``verify_program`` is the engine of ``tf-migrate PATH --verify``:

>>> result = verify_program(old_text, new_text, path=pathlib.Path("train.py"))  # doctest: +SKIP
>>> result.status  # doctest: +SKIP
'equivalent'

How the two programs run
    Each in its own ``sys.executable`` subprocess (both at once), in a fresh
    temporary working directory (empty, or a copy of ``workdir``) with the
    program's folder first on ``sys.path`` (``migrated_path``'s folder for the
    migrated program when its sibling modules were migrated elsewhere),
    ``TMPDIR``/``KERAS_HOME``/``IPYTHONDIR``/Jupyter folders inside the verifier's
    temporary folder (removed afterwards: nothing is left behind), no stdin, and
    ``timeout`` seconds each; a program still running then is killed with its
    process group and reported as failing. The legacy program runs under TF1
    graph semantics on the installed TF 2.x (``tf.compat.v1.disable_v2_behavior()``
    and ``sys.modules['tensorflow'] = tf.compat.v1`` before it starts; with
    ``TF_USE_LEGACY_KERAS=1`` when tf-keras is installed, for ``tf.layers``), the
    migrated program under plain TF2 (eager, Keras 3). Notebooks run either as
    one script with IPython magics neutralized or in a real Jupyter kernel
    (``notebook_runner``; see ``child/notebook.py``).

How outputs compare (``output_compare``)
    Only stdout counts; TF's log noise and warnings go to stderr. Numbers match
    within ``rtol``/``atol`` (or one unit in their last printed digit), text must
    be equal, whitespace and line breaks only separate tokens. The program's own
    clock reads tick by 1 ms per read in both runs (``child/clock.py``), so the
    durations it prints agree.

Random ops (``child/random_draws.py``, ``draw_match``)
    Both runs draw TF's random values from numpy, keyed by what the draw is for
    (initializer, dropout, other), its distribution and shape, and its index
    within that class: an eager call's count, or for an op in a graph (TF1, or
    a ``tf.function`` trace) its evaluation count times the class's ops plus its
    build position. So initial weights agree whatever the seeds, and so do
    dropout masks and noise drawn anew at every training step, eager or
    compiled, even when ops of other classes are built in another order. When
    the two runs did not draw the same keys (an op drawn on every step in one
    and once in the other) the result is ``not-comparable``, never a guess.

Trained variables (``child/state_dump.py``, ``state_compare``)
    After each ``.py`` run (or notebook run as one script) its trainable
    variables are saved: a TF1 program's from its last session, just before it
    closes; an eager program's live ``tf.Variable`` objects. They pair by TF1
    name when the migration kept the names, else in creation order within a
    shape (the k-th of a repeated name with the k-th); initial values (each
    session's own) are compared first (rtol 1e-5, atol 1e-6), then
    trained ones, which may drift (by under 10% of their largest value, or in
    under 10% of their values). A difference makes the verdict ``different`` and names the
    variable, even when the printed output is equal; a legacy program that
    prints nothing is judged on its variables alone.

Results held by names (``child/program_values.py``, ``values_compare``)
    The module-level names bound to what the legacy program's ``Session.run``
    returned (``loss_val``, a list of per-step losses) are compared with the same
    names in the migrated program at its end, with the variables' tolerance and
    drift rule. A program that prints nothing and trains no variable is judged on
    them; a name the migration no longer binds is not compared. A legacy program
    that opened no Session computed nothing (a module of layer or model
    functions): with nothing printed by either run it is ``no-computation``,
    not a guess either way.

Read/update order (``child/fetch_order.py``)
    ``sess.run([train_op, W])`` has no defined order between the update and the
    read of ``W`` in TF1. The legacy run pins it (read first); when it met such a
    fetch it runs again with the update first, and the migrated output is
    equivalent if it matches either order. Two unordered writes of one variable in
    a run (an optimizer step fetched with a clipping ``assign``) cannot be pinned:
    other output is then ``not-comparable``, equal output still ``equivalent``.
    Nowhere else is the check tolerant.

Rounding (``_second_look``, ``_rounding_look``)
    Outputs that differ run again, both with Grappler's arithmetic rewrites
    off (equal then: ``equivalent``, the rewrites' rounding named). Printed
    numbers that still differ are measured against the legacy program's own
    rounding: it runs once more on TF's other CPU kernels
    (``TF_ENABLE_ONEDNN_OPTS`` flipped); where its own output then moves
    beyond the tolerance about as early as the migrated output differs (by
    line 2N for a difference at line N: a training loop that amplifies
    last-bit differences; on the same line, at each token the migrated output
    changes there), or, with equal output, where its own trained values differ
    too, the verdict is ``not-comparable``, and says so.

Limits
    Only stdout is compared, and only for one run of each program: output that
    varies from run to run (timings, addresses) reads as ``different``. The
    migrated program's folder, where its output names it (``Model saved to
    <dirname(__file__)>``), is read as the legacy program's folder. Programs
    run in an empty working directory, so files opened by relative path are not
    there unless ``workdir`` holds them (``__file__`` and the program's folder
    on ``sys.path`` work). Random ops
    inside ``tf.function(jit_compile=True)`` fail under the verifier (shared draws
    are ``numpy_function`` ops), stateless ops lose "same seed, same values", and
    ``tf.data`` shuffles are not shared. Read/update ambiguity is found from the
    graph of each ``Session.run``; the whole program is checked under one order.
    The migrated run gets ``TF_USE_LEGACY_KERAS=1`` from the verifier only where
    the migrated program sets it itself before its TensorFlow import (the line the
    rules write for output that needs legacy Keras): the verifier has imported
    TensorFlow before the program runs, and ``from tensorflow.keras import`` reads
    the switch at TensorFlow's import (``tf.layers``, rnn cells and ``tf.keras.*``
    read it at first use).

Results
    ``equivalent``; ``different`` (detail: the first differing value or text and
    its output lines); ``no-computation`` (the legacy program opened no Session,
    both ran to their end and printed nothing); ``legacy-fails`` / ``migrated-fails`` (detail: the error's
    traceback tail, or the timeout); ``not-comparable`` (detail: why: unmatched
    random draws, an ambiguous fetch that cannot be re-read, a legacy program
    that printed nothing and whose variables cannot be compared, or other output
    where TF1 left the numbers to its scheduler: updates computed from variables
    the same run updates, two unordered writes, ``sess.run`` in worker threads;
    see ``child/fetch_order.py``; or numbers that move with TF's kernels).
    ``legacy`` and ``migrated`` say how each run ended
    (failed, timed out, seconds, error tail) whatever the verdict.
"""

import dataclasses
import os
import pathlib
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Dict, Optional, Sequence

from tf_migrate.verify.child import notebook as child_notebook
from tf_migrate.verify.child_runs import Run, Runner, RunSummary
from tf_migrate.verify import output_compare, state_compare, values_compare
from tf_migrate.verify.judge import DIFFERENT, EQUIVALENT, NOT_COMPARABLE, judge

@dataclass(frozen=True)
class VerifyResult:
    """What ``verify_program`` found for one file."""

    status: str
    detail: str
    legacy_output: str
    migrated_output: str
    seconds: float
    legacy: Optional[RunSummary] = None
    migrated: Optional[RunSummary] = None


def verify_program(
    legacy_source: str,
    migrated_source: str,
    *,
    path: pathlib.Path,
    kind: str = "py",
    timeout: float = 120.0,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    notebook_runner: str = "auto",
    migrated_path: Optional[pathlib.Path] = None,
    workdir: Optional[pathlib.Path] = None,
    migrated_workdir: Optional[pathlib.Path] = None,
    args: Sequence[str] = (),
    workdir_on_path: bool = False,
    migrated_environment: Optional[Dict[str, str]] = None,
) -> VerifyResult:
    """Runs both programs and compares their printed output (see module doc).

    Args:
        legacy_source: the TF1 program's text (notebook JSON for ``kind="ipynb"``).
        migrated_source: the migrated program's text, same kind.
        path: where the program lives; its folder goes first on ``sys.path``.
        kind: ``"py"`` or ``"ipynb"``.
        timeout: seconds each run may take before it is killed.
        rtol, atol: tolerance for numbers.
        notebook_runner: ``"script"``, ``"kernel"`` (needs nbclient and
            ipykernel) or ``"auto"`` (kernel when installed).
        migrated_path: where the migrated program lives, when its sibling
            modules were migrated too (``-o OUT``); default ``path``.
        workdir: a folder copied into each run's working directory, for data
            files the program opens by relative path; default an empty one.
        migrated_workdir: the folder copied for the migrated run instead (a migrated tree).
        args: the program's command-line arguments (``sys.argv[1:]``).
        workdir_on_path: the working directory also goes on ``sys.path`` (``PYTHONPATH``), after the
            program's folder: a project's packages import from its root.
        migrated_environment: extra environment variables for the migrated side's runs only (a rounding
            control: the same TF1 program with ``TF_ENABLE_ONEDNN_OPTS=0``, TF's other valid kernels).
    """
    if kind not in ("py", "ipynb"):
        raise ValueError(f"kind must be 'py' or 'ipynb', not {kind!r}")
    if notebook_runner not in ("auto", "script", "kernel"):
        raise ValueError(f"notebook_runner must be 'auto', 'script' or 'kernel', not {notebook_runner!r}")
    use_kernel = kind == "ipynb" and notebook_runner != "script"
    if use_kernel and not child_notebook.kernel_available():
        if notebook_runner == "kernel":
            raise ValueError("notebook_runner='kernel' needs nbclient, nbformat and ipykernel installed")
        use_kernel = False
    path = pathlib.Path(path).resolve()
    programs = {"legacy": path, "migrated": pathlib.Path(migrated_path).resolve() if migrated_path else path}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tf-migrate-verify-") as tmp:
        workdirs = {"legacy": workdir, "migrated": migrated_workdir or workdir}
        runner = Runner(pathlib.Path(tmp), programs, kind, use_kernel, timeout, workdirs, tuple(args),
                         workdir_on_path)
        runner.migrated_environment = dict(migrated_environment or {})
        if _SELECTS_LEGACY_KERAS.search(migrated_source):
            runner.migrated_environment.setdefault("TF_USE_LEGACY_KERAS", "1")
        with ThreadPoolExecutor(2) as pool:
            legacy_future = pool.submit(runner.run, "legacy", legacy_source, "pre")
            migrated = runner.run("migrated", migrated_source, None)
            legacy = legacy_future.result()
        # The two sides run at once: a program that starts a server (tf.train.Server) finds the port taken
        # by its twin. Such a side runs again, alone.
        if legacy.failed and _PORT_TAKEN.search(legacy.stderr or ""):
            legacy = runner.run("legacy", legacy_source, "pre")
        if migrated.failed and _PORT_TAKEN.search(migrated.stderr or ""):
            migrated = runner.run("migrated", migrated_source, None)
        legacy_runs = _legacy_runs(runner, legacy, migrated, legacy_source)
        status, detail = judge(legacy_runs, _at_legacy_location(migrated, programs), rtol=rtol, atol=atol)
        if status == DIFFERENT:
            status, detail = _second_look(runner, legacy_source, migrated_source, programs, detail, rtol, atol)
        if status == DIFFERENT and len(legacy_runs) == 1:
            status, detail = _rounding_look(runner, legacy_source, legacy, _at_legacy_location(migrated, programs),
                                            detail, rtol, atol)
    return VerifyResult(status, detail, legacy.stdout, migrated.stdout, time.monotonic() - start,
                        legacy.summary(), migrated.summary())


def _legacy_runs(runner, legacy, migrated, legacy_source):
    """The legacy run, and its run in the other fetch order where TF1 leaves the order open.

    Where the migrated run failed, the other order's run is kept even when it fails too: then TF1's
    own order decides whether the program fails (``judge``: not comparable).
    """
    runs = [legacy]
    if not legacy.failed and legacy.events_of("ambiguous"):
        other_order = runner.run("legacy", legacy_source, "post")
        if not other_order.failed or migrated.failed:
            runs.append(other_order)
    return runs


def _second_look(runner, legacy_source, migrated_source, programs, detail, rtol, atol):
    """Outputs that differ are compared again with both programs' graphs computed as written.

    Grappler rewrites a ``tf.function`` graph's arithmetic otherwise than a Session graph's, and
    the rounding can show in printed digits (``child/boot._graphs_as_written``). When the two
    programs agree with the rewrites off in both, the difference was Grappler's, not the migration's.
    """
    runner.as_written = True
    try:
        migrated = runner.run("migrated", migrated_source, None)
        legacy = runner.run("legacy", legacy_source, "pre")
        again = judge(_legacy_runs(runner, legacy, migrated, legacy_source), _at_legacy_location(migrated, programs),
                      rtol=rtol, atol=atol)
    finally:
        runner.as_written = False
    if again[0] != EQUIVALENT:
        return DIFFERENT, detail
    return EQUIVALENT, (f"{again[1]} with Grappler's arithmetic rewrites off in both runs; with them on, the "
                        f"compiled graphs round otherwise: {detail}")


def _rounding_look(runner, legacy_source, legacy, migrated, detail, rtol, atol):
    """Numbers that still differ, measured against the legacy program's own rounding.

    A training loop can amplify a difference in the last bit of one step to the printed digits of later ones
    (ReLU units switching, Adam dividing by tiny second moments), and graph and eager kernels round
    differently. The legacy program runs again with TF's other CPU kernels (``TF_ENABLE_ONEDNN_OPTS`` flipped).
    Where its own output then differs beyond the tolerance about as early as the migrated output does (from line
    ``K <= 2 * N`` for a first difference at line ``N``: where rounding takes over is itself a matter of rounding;
    on the same line, at every token where the migrated output differs there), or, when the outputs agree and the
    trained values differ, where its own trained values differ too, the numbers cannot tell a wrong migration from
    the program's own variation, and the verdict is ``not-comparable``, never a guess. Where it reproduces its
    output (its values), the difference stands."""
    mine = output_compare.differing_tokens(legacy.stdout, migrated.stdout, rtol=rtol, atol=atol)
    if not mine and not _values_differ(legacy, migrated):
        return DIFFERENT, detail  # (the outputs' lengths differ: not a question of rounding)
    flipped = "1" if os.environ.get("TF_ENABLE_ONEDNN_OPTS") == "0" else "0"
    runner.legacy_environment = {"TF_ENABLE_ONEDNN_OPTS": flipped}
    try:
        again = runner.run("legacy", legacy_source, "pre")
    finally:
        runner.legacy_environment = {}
    kernels = f"when it runs again on TF's other CPU kernels (TF_ENABLE_ONEDNN_OPTS={flipped})"
    if again.failed:
        return DIFFERENT, detail
    if not mine:
        if not _values_differ(legacy, again):
            return DIFFERENT, detail
        return NOT_COMPARABLE, f"the legacy program's own trained values differ {kernels} ({detail})"
    own = output_compare.differing_tokens(legacy.stdout, again.stdout, rtol=rtol, atol=atol)
    line, own_line = mine[0][1], own[0][1] if own else None
    if own_line is None or own_line > 2 * line:
        return DIFFERENT, detail
    if own_line == line and not {i for i, at in mine if at == line} <= {i for i, at in own if at == line}:
        return DIFFERENT, detail  # (a token the legacy program reproduces differs there: `step 0` / `step 1`)
    return NOT_COMPARABLE, (f"the legacy program's own output differs from line {own_line} {kernels}, as the "
                            f"migrated output does from line {line}: rounding, or output that varies from run to "
                            f"run ({detail})")


def _values_differ(run, other) -> bool:
    """Whether two runs' trained variables, or the results their names hold, differ (beyond drift)."""
    verdicts = (state_compare.compare(run.state, other.state), values_compare.compare(run.values, other.values))
    return any(v is not None and v.status == state_compare.DIFFERENT for v in verdicts)


def _at_legacy_location(migrated: "Run", programs) -> "Run":
    """The migrated run's output with its own folder written as the legacy program's: a program that prints
    where it saves (``os.path.dirname(__file__)``) names the folder it runs from, which the migration moved."""
    legacy_dir, migrated_dir = str(programs["legacy"].parent), str(programs["migrated"].parent)
    if legacy_dir == migrated_dir or migrated_dir not in migrated.stdout:
        return migrated
    return dataclasses.replace(migrated, stdout=migrated.stdout.replace(migrated_dir, legacy_dir))


# The line the rules write before a program's first TensorFlow import (rules/_legacy_keras), also inside a
# notebook's JSON: a fresh process reads it at that import; the verifier's preloaded TensorFlow was imported before
# the program ran, so the migrated run gets it from its start, as a user's process would.
_SELECTS_LEGACY_KERAS = re.compile(r"""os\.environ\.setdefault\(\\?["']TF_USE_LEGACY_KERAS\\?["'],\s*\\?["']1""")
_PORT_TAKEN = re.compile(r"Could not start gRPC server|[Aa]ddress already in use")


def run_program(source: str, *, path: pathlib.Path, mode: str, timeout: float = 120.0,
                pin_fetch_order: bool = True) -> "Run":
    """Runs one ``.py`` program alone, as ``verify_program`` runs it; returns its run.

    ``mode`` is ``"legacy"`` (TF1 graph semantics) or ``"migrated"`` (plain TF2).
    The result has ``returncode``, ``stdout``, ``stderr``, ``timed_out`` and
    ``failed``. For measurements (``benchmarks/bench_migrated.py``): nothing else
    runs at the same time, and ``pin_fetch_order=False`` leaves the legacy
    ``Session.run`` unwrapped, so its time is TF1's own; the program reads the real
    clock (verification gives it one that ticks per read). Variables are not saved.
    """
    if mode not in ("legacy", "migrated"):
        raise ValueError(f"mode must be 'legacy' or 'migrated', not {mode!r}")
    fetch_order = "pre" if mode == "legacy" and pin_fetch_order else None
    with tempfile.TemporaryDirectory(prefix="tf-migrate-run-") as tmp:
        program = pathlib.Path(path).resolve()
        runner = Runner(pathlib.Path(tmp), {"legacy": program, "migrated": program}, "py", False, timeout,
                         {"legacy": None, "migrated": None}, record_state=False, clock="real")
        return runner.run(mode, source, fetch_order)
