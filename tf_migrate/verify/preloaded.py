"""Runs of ``child/boot.py`` forked from a process that imported TensorFlow once (``child/preload.py``).

A verification runs each program at least twice, each in a child process that used to import
TensorFlow itself (~3-4 s of CPU, most of a small program's run). A preloading process per
environment (the environment less what differs per run: ``PER_RUN``) imports it once and forks the
runs; a run it cannot serve (it is busy with another run, or it failed) starts a fresh interpreter
as before, and ``TF_MIGRATE_FRESH_PROCESSES=1`` turns preloading off. What the run sees is what a
fresh ``python boot.py CONFIG`` sees: see ``child/preload.py``.

The preloading processes live as long as the process that started them: each reads its requests
from a pipe and exits when the pipe closes.
"""
from __future__ import annotations

import json
import os
import pathlib
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, FrozenSet, Optional, Tuple

from tf_migrate.verify.child.boot import GRAPHS_AS_WRITTEN

PRELOAD = pathlib.Path(__file__).resolve().parent / "child" / "preload.py"
FRESH_PROCESSES = "TF_MIGRATE_FRESH_PROCESSES"
# Variables each run sets for itself, and pytest's name of the running test: they do not decide which
# preloading process serves a run (the run has them in its environment all the same).
PER_RUN = frozenset({"TMPDIR", "KERAS_HOME", "IPYTHONDIR", "MPLCONFIGDIR", "JUPYTER_RUNTIME_DIR",
                     "JUPYTER_DATA_DIR", "PYTHONPATH", GRAPHS_AS_WRITTEN, "PYTEST_CURRENT_TEST"})
_READY_SECONDS = 300.0  # importing TensorFlow on a loaded machine; longer means the process is stuck
_MOST = 2  # preloading processes kept at once (~0.5 GB each): the legacy and the migrated side

_processes: Dict[FrozenSet[Tuple[str, str]], "_Preloaded"] = {}  # least recently used first
_processes_lock = threading.Lock()


def run(script: pathlib.Path, config: pathlib.Path, cwd: pathlib.Path, env: Dict[str, str], timeout: float,
        outputs: pathlib.Path) -> Optional[Tuple[Optional[int], bytes, bytes, bool]]:
    """(returncode, stdout, stderr, timed_out) of ``python SCRIPT CONFIG`` run in ``cwd`` with ``env``,
    forked from a preloaded process; None when no preloaded process can run it (the caller starts one).
    ``outputs`` is a folder for the run's stdout and stderr files."""
    if os.environ.get(FRESH_PROCESSES) == "1" or not hasattr(os, "fork"):
        return None
    key = frozenset((name, value) for name, value in env.items() if name not in PER_RUN)
    with _processes_lock:
        process = _processes.pop(key, None)
        if process is None or process.broken:
            idle = [k for k, other in _processes.items() if not other.lock.locked()]
            for old_key in idle[:max(0, len(_processes) + 1 - _MOST)]:
                _processes.pop(old_key).close()
            process = _Preloaded(env)
        _processes[key] = process
    if not process.lock.acquire(blocking=False):
        return None  # busy with another run of this environment
    try:
        return process.run(script, config, cwd, env, timeout, outputs)
    finally:
        process.lock.release()


class _Preloaded:
    """One preloading process and the pipes to it."""

    def __init__(self, env: Dict[str, str]) -> None:
        self.lock = threading.Lock()
        self.broken = False
        self.home = tempfile.mkdtemp(prefix="tf-migrate-preload-")
        own = dict(env)
        for name in ("TMPDIR", "KERAS_HOME", "IPYTHONDIR", "MPLCONFIGDIR"):
            own[name] = os.path.join(self.home, name.lower())
            os.makedirs(own[name], exist_ok=True)
        own.pop(GRAPHS_AS_WRITTEN, None)
        own.pop("PYTHONPATH", None)
        if os.environ.get("PYTHONPATH"):
            own["PYTHONPATH"] = os.environ["PYTHONPATH"]
        self.process = subprocess.Popen(
            [sys.executable, str(PRELOAD), self.home], cwd=self.home, env=own, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        self.pending = b""

    def run(self, script, config, cwd, env, timeout, outputs):
        stdout_path, stderr_path = outputs / "stdout.txt", outputs / "stderr.txt"
        request = {"script": str(script), "config": str(config), "cwd": str(cwd), "env": env,
                   "stdout": str(stdout_path), "stderr": str(stderr_path)}
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
            started = self._message(_READY_SECONDS)
        except (OSError, ValueError):
            started = None
        if started is None:
            self._give_up()
            return None
        pid = started["pid"]
        ended = self._message(timeout)
        timed_out = ended is None
        if timed_out:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            ended = self._message(60.0)
            if ended is None:
                self._give_up()
        return (None if ended is None else ended["returncode"], _read(stdout_path), _read(stderr_path), timed_out)

    def _message(self, seconds: float) -> Optional[dict]:
        """The next line the process writes, as JSON; None at end of file or after ``seconds``."""
        deadline = time.monotonic() + seconds
        fd = self.process.stdout.fileno()
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            data = os.read(fd, 1 << 16)
            if not data:
                return None
            self.pending += data
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> None:
        """Ends the process: it exits when its requests pipe closes (and removes its folder)."""
        try:
            self.process.stdin.close()
        except OSError:
            pass

    def _give_up(self) -> None:
        self.broken = True
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        shutil.rmtree(self.home, ignore_errors=True)


def _read(path: pathlib.Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""
