"""Verification runs forked from a preloaded TensorFlow process are the runs a fresh interpreter makes."""
import os

from tf_migrate.verify import preloaded
from tf_migrate.verify.verifier import run_program

PROGRAM = """
import os, sys, tempfile
import numpy as np
import tensorflow as tf
print("argv", os.path.basename(sys.argv[0]), sys.argv[1:])
print("cwd is the run's work folder", os.path.basename(os.getcwd()) == "work")
print("tmp is the run's", tempfile.gettempdir() == os.environ["TMPDIR"] != "/tmp")
import keras.src.backend.config as keras_config
print("keras home is the run's", keras_config._KERAS_DIR == os.environ["KERAS_HOME"])
print("stdin", repr(sys.stdin.read()))
print("program folder on the path", os.path.dirname(os.path.abspath(__file__)) in sys.path)
print("own process group", os.getpgid(0) == os.getpid())
print("value", tf.reduce_sum(tf.ones([3])).numpy(), np.random.rand())
sys.stderr.write(f"parent {os.getppid()}\\n")
sys.exit(3)
"""


def _run(tmp_path, monkeypatch, fresh, source=PROGRAM, timeout=120.0):
    monkeypatch.setenv(preloaded.FRESH_PROCESSES, "1" if fresh else "0")
    return run_program(source, path=tmp_path / "program.py", mode="migrated", timeout=timeout)


def test_a_forked_run_sees_what_a_fresh_interpreter_sees(tmp_path, monkeypatch):
    fresh = _run(tmp_path, monkeypatch, fresh=True)
    forked = _run(tmp_path, monkeypatch, fresh=False)
    assert fresh.returncode == forked.returncode == 3
    assert "own process group True" in fresh.stdout and "stdin ''" in fresh.stdout
    assert forked.stdout == fresh.stdout
    # It was forked: its parent is a preloading process, which lives on for the next run.
    live = {p.process.pid for p in preloaded._processes.values() if not p.broken and p.process.poll() is None}
    assert _parent(forked) in live and _parent(fresh) not in live


def _parent(run):
    return int(next(line for line in run.stderr.splitlines() if line.startswith("parent ")).split()[1])


def test_a_run_past_its_timeout_is_killed_and_the_next_run_is_served(tmp_path, monkeypatch):
    slow = _run(tmp_path, monkeypatch, fresh=False, source="import time\ntime.sleep(60)\n", timeout=3.0)
    assert slow.timed_out and slow.failed
    again = _run(tmp_path, monkeypatch, fresh=False, source="print('after')\n")
    assert again.returncode == 0 and again.stdout.strip() == "after"


def test_preloading_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv(preloaded.FRESH_PROCESSES, "1")
    assert preloaded.run(None, None, None, dict(os.environ), 1.0, tmp_path) is None
