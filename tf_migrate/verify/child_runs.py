"""The subprocesses of a verification: each program runs in a child process of its own.

``Runner`` starts ``child/boot.py`` (or a Jupyter kernel through ``child/notebook.py``) in a
fresh folder with its own ``TMPDIR``, home folders and working directory, and reads back what the
child logged: its output, the events of its runs, its trained variables and the values its names
held. A ``Run`` is how one run ended.
"""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import List, Optional

from tf_migrate.verify import preloaded, state_compare, values_compare
from tf_migrate.verify.child import notebook as child_notebook
from tf_migrate.verify.child.boot import GRAPHS_AS_WRITTEN
from tf_migrate.verify.judge import error_tail

_CHILD = pathlib.Path(__file__).resolve().parent / "child"


@dataclass(frozen=True)
class RunSummary:
    """How one run of one program ended (the first legacy run, for the legacy side)."""

    failed: bool
    timed_out: bool
    seconds: float
    error: str  # the error's traceback tail when it failed, else ""


@dataclass
class Run:
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


RUN_FOLDER = "<run folder>"


class Runner:
    """Starts the subprocesses of one verification inside its temporary folder."""

    def __init__(self, tmp, programs, kind, use_kernel, timeout, workdirs, args=(), workdir_on_path=False,
                 record_state=True, clock="virtual"):
        self.tmp, self.programs, self.kind, self.use_kernel = tmp, programs, kind, use_kernel
        self.timeout, self.workdirs, self.args, self.workdir_on_path = timeout, workdirs, args, workdir_on_path
        self.record_state, self.clock = record_state, clock
        self.as_written = False  # both runs with Grappler's arithmetic rewrites off (``_second_look``)
        self.migrated_environment: dict = {}  # extra variables for the migrated side only
        self.legacy_environment: dict = {}  # extra variables for the legacy side only (``_rounding_look``)
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
            return Run(1, "", f"cannot read the notebook: {error}", False, self.timeout)
        config_path = root / "config.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        run = _execute([sys.executable, str(script), str(config_path)], root / "work", env, self.timeout,
                       outputs=None if self.use_kernel else root)
        # Each run has a folder of its own (a copy of the tree, its TMPDIR): a program that prints where it
        # writes (`Writing to .../runs/...`) names it. The two sides compare with it written alike.
        run.stdout = run.stdout.replace(str(root), RUN_FOLDER)
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
        if self.as_written:
            env[GRAPHS_AS_WRITTEN] = "1"
        if self.workdir_on_path:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root / "work"), env.get("PYTHONPATH")]))
        if mode == "legacy" and _tf_keras_installed():
            env["TF_USE_LEGACY_KERAS"] = "1"
        if mode == "migrated":
            env.update(self.migrated_environment)
        if mode == "legacy":
            env.update(self.legacy_environment)
        return env


def _tf_keras_installed():
    import importlib.util

    return importlib.util.find_spec("tf_keras") is not None


def _execute(command, cwd, env, timeout, outputs=None):
    """Runs ``python SCRIPT CONFIG``: forked from a preloaded process where one can (``outputs``: a
    folder for its output files), else as a fresh interpreter."""
    if outputs is not None:
        start = time.monotonic()
        forked = preloaded.run(pathlib.Path(command[1]), pathlib.Path(command[2]), cwd, env, timeout, outputs)
        if forked is not None:
            returncode, stdout, stderr, timed_out = forked
            return Run(returncode, _decode(stdout), _decode(stderr), timed_out, timeout, time.monotonic() - start)
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
    return Run(process.returncode, _decode(stdout), _decode(stderr), timed_out, timeout, time.monotonic() - start)


def _decode(data):
    return data.decode("utf-8", errors="replace")
