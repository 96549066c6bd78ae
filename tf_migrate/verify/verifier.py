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
    The migrated run never gets ``TF_USE_LEGACY_KERAS`` from the verifier: compat
    output that needs legacy Keras sets it itself, but only after the verifier
    has imported TensorFlow, which ``tf.layers``, rnn cells and ``tf.keras.*``
    follow (they read it at first use) and ``from tensorflow.keras import`` does not.

Results
    ``equivalent``; ``different`` (detail: the first differing value or text and
    its output lines); ``no-computation`` (the legacy program opened no Session,
    both ran to their end and printed nothing); ``legacy-fails`` / ``migrated-fails`` (detail: the error's
    traceback tail, or the timeout); ``not-comparable`` (detail: why: unmatched
    random draws, an ambiguous fetch that cannot be re-read, a legacy program
    that printed nothing and whose variables cannot be compared, or other output
    where TF1 left the numbers to its scheduler: updates computed from variables
    the same run updates, two unordered writes, ``sess.run`` in worker threads;
    see ``child/fetch_order.py``). ``legacy`` and ``migrated`` say how each run ended
    (failed, timed out, seconds, error tail) whatever the verdict.
"""

import dataclasses
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import List, Optional, Sequence

from tf_migrate.verify import state_compare, values_compare
from tf_migrate.verify.judge import error_tail, judge
from tf_migrate.verify.child import notebook as child_notebook

_CHILD = pathlib.Path(__file__).resolve().parent / "child"


@dataclass(frozen=True)
class RunSummary:
    """How one run of one program ended (the first legacy run, for the legacy side)."""

    failed: bool
    timed_out: bool
    seconds: float
    error: str  # the error's traceback tail when it failed, else ""


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


@dataclass
class _Run:
    returncode: Optional[int]
    stdout: str
    stderr: str
    timed_out: bool
    timeout: float
    seconds: float = 0.0
    events: List[dict] = field(default_factory=list)
    state: Optional[list] = None  # [(name, value)] of its trained variables at the end, when saved
    values: Optional[list] = None  # [(name, value, fetched)] its module-level names held at the end, when saved

    @property
    def failed(self):
        return self.timed_out or self.returncode != 0

    def events_of(self, kind):
        return [e for e in self.events if e.get("event") == kind]

    def summary(self):
        return RunSummary(self.failed, self.timed_out, self.seconds, error_tail(self) if self.failed else "")


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
        runner = _Runner(pathlib.Path(tmp), programs, kind, use_kernel, timeout, workdirs, tuple(args),
                         workdir_on_path)
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
        legacy_runs = [legacy]
        if not legacy.failed and legacy.events_of("ambiguous") and not migrated.failed:
            other_order = runner.run("legacy", legacy_source, "post")
            if not other_order.failed:
                legacy_runs.append(other_order)
    status, detail = judge(legacy_runs, _at_legacy_location(migrated, programs), rtol=rtol, atol=atol)
    return VerifyResult(status, detail, legacy.stdout, migrated.stdout, time.monotonic() - start,
                        legacy.summary(), migrated.summary())


def _at_legacy_location(migrated: "_Run", programs) -> "_Run":
    """The migrated run's output with its own folder written as the legacy program's: a program that prints
    where it saves (``os.path.dirname(__file__)``) names the folder it runs from, which the migration moved."""
    legacy_dir, migrated_dir = str(programs["legacy"].parent), str(programs["migrated"].parent)
    if legacy_dir == migrated_dir or migrated_dir not in migrated.stdout:
        return migrated
    return dataclasses.replace(migrated, stdout=migrated.stdout.replace(migrated_dir, legacy_dir))


_PORT_TAKEN = re.compile(r"Could not start gRPC server|[Aa]ddress already in use")


def run_program(source: str, *, path: pathlib.Path, mode: str, timeout: float = 120.0,
                pin_fetch_order: bool = True) -> "_Run":
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
        runner = _Runner(pathlib.Path(tmp), {"legacy": program, "migrated": program}, "py", False, timeout,
                         {"legacy": None, "migrated": None}, record_state=False, clock="real")
        return runner.run(mode, source, fetch_order)


class _Runner:
    """Starts the subprocesses of one verification inside its temporary folder."""

    def __init__(self, tmp, programs, kind, use_kernel, timeout, workdirs, args=(), workdir_on_path=False,
                 record_state=True, clock="virtual"):
        self.tmp, self.programs, self.kind, self.use_kernel = tmp, programs, kind, use_kernel
        self.timeout, self.workdirs, self.args, self.workdir_on_path = timeout, workdirs, args, workdir_on_path
        self.record_state, self.clock = record_state, clock
        self.count = 0

    def run(self, mode, source, fetch_order):
        self.count += 1
        root = self.tmp / f"{mode}-{self.count}"
        if self.workdirs[mode] is not None:
            shutil.copytree(self.workdirs[mode], root / "work", symlinks=True)
        for folder in ("work", "tmp", "home"):
            (root / folder).mkdir(parents=True, exist_ok=True)
        log = root / "events.jsonl"
        path = self.programs[mode]
        label = str(path) if mode == "legacy" else f"{path} (migrated)"
        env = self._environment(mode, root)
        try:
            if self.use_kernel:
                config = {
                    "notebook": source,
                    "timeout": self.timeout,
                    "cwd": str(root / "work"),
                    "jupyter_path": str(root / "home" / "jupyter"),
                    "hidden": child_notebook.hidden_cell(
                        mode, program_dir=str(path.parent), log=str(log), fetch_order=fetch_order or "pre",
                        user_files=[str(root / "tmp" / "ipykernel_")],
                    ),
                }
                script = _CHILD / "notebook.py"
            else:
                if self.kind == "ipynb":
                    cells = child_notebook.script_cells(source, label)
                else:
                    cells = [{"filename": label, "source": source}]
                config = {
                    "mode": mode, "cells": cells, "interactive": self.kind == "ipynb",
                    "program_dir": str(path.parent), "display_path": str(path),
                    "log": str(log), "fetch_order": fetch_order, "args": list(self.args),
                    "state": str(root / "state") if self.record_state else None, "clock": self.clock,
                }
                script = _CHILD / "boot.py"
        except (ValueError, KeyError, TypeError) as error:
            return _Run(1, "", f"cannot read the notebook: {error}", False, self.timeout)
        config_path = root / "config.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        run = _execute([sys.executable, str(script), str(config_path)], root / "work", env, self.timeout)
        if log.exists():
            run.events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]
            run.state = state_compare.load(run.events)
            run.values = values_compare.load(run.events)
        return run

    def _environment(self, mode, root):
        env = dict(os.environ)
        home = root / "home"
        env.update(
            TMPDIR=str(root / "tmp"), KERAS_HOME=str(home / "keras"), IPYTHONDIR=str(home / "ipython"),
            MPLCONFIGDIR=str(home / "matplotlib"), JUPYTER_RUNTIME_DIR=str(home / "jupyter-runtime"),
            JUPYTER_DATA_DIR=str(home / "jupyter-data"), PYTHONUNBUFFERED="1",
            PYTHONDONTWRITEBYTECODE="1", TF_CPP_MIN_LOG_LEVEL=env.get("TF_CPP_MIN_LOG_LEVEL", "2"),
        )
        env.pop("TF_USE_LEGACY_KERAS", None)
        env.pop("PYTHONSTARTUP", None)
        if self.workdir_on_path:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root / "work"), env.get("PYTHONPATH")]))
        if mode == "legacy" and _tf_keras_installed():
            env["TF_USE_LEGACY_KERAS"] = "1"
        return env


def _tf_keras_installed():
    import importlib.util

    return importlib.util.find_spec("tf_keras") is not None


def _execute(command, cwd, env, timeout):
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )
    timed_out = False
    start = time.monotonic()
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
    return _Run(process.returncode, _decode(stdout), _decode(stderr), timed_out, timeout, time.monotonic() - start)


def _decode(data):
    return data.decode("utf-8", errors="replace")
