"""Crash safety: SIGKILL ``tf-migrate -w`` at random points; every file is then
its original bytes or its complete migration, and a rerun finishes the job.

The killed runs go through a slow disk (every write to a file waits a few
milliseconds first), so kills often land while files are being written: a
rewrite that truncated the file before writing it would be caught here.
"""
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from tf_migrate import migrate_source

ROOT = Path(__file__).resolve().parent.parent
FILES = 200
TEMPLATES = 8
KILLS = 4

SLOW_DISK = """
import builtins, io, os, sys, time

class SlowFile:
    def __init__(self, handle):
        self._handle = handle
    def write(self, data):
        time.sleep(0.05)
        return self._handle.write(data)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return self._handle.__exit__(*exc)
    def __getattr__(self, name):
        return getattr(self._handle, name)

def slow(opener):
    def open_slowly(file, mode="r", *args, **kwargs):
        handle = opener(file, mode, *args, **kwargs)
        return SlowFile(handle) if any(c in mode for c in "wax+") else handle
    return open_slowly

builtins.open = io.open = slow(io.open)
os.fdopen = slow(os.fdopen)
from tf_migrate.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _program(rng: random.Random) -> str:
    """A small TF1 program (small, so that 200 of them migrate in seconds)."""
    name = rng.choice(["x", "inputs", "feat", "batch_x"])
    reduce = rng.choice(["tf.reduce_sum", "tf.reduce_mean", "tf.reduce_max"])
    fetch = rng.choice(["y", "[y, {n}]", "{{'y': y}}"]).format(n=name)
    return (f"import numpy as np\nimport tensorflow as tf\n\n{name} = tf.placeholder(tf.float32, [None])\n"
            f"y = {reduce}({name} * {rng.randint(1, 9)}.0)\nwith tf.Session() as sess:\n"
            f"    print(sess.run({fetch}, {{{name}: np.ones({rng.randint(1, 5)})}}))\n")


def _templates():
    """Distinct programs and their migrations (computed once here; 200 files share them)."""
    rng = random.Random(7)
    found = []
    for _ in range(TEMPLATES):
        source = _program(rng)
        result = migrate_source(source, "t.py")
        assert result.outcome == "eager", result.findings
        found.append((source, result.new_source))
    return found


def _tree(folder: Path, templates):
    layout = {}
    for i in range(FILES):
        path = folder / f"pkg{i % 10}" / f"module_{i:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        old, new = templates[i % len(templates)]
        path.write_text(old)
        layout[path] = (old.encode(), new.encode())
    return layout


def _terminal_signals() -> None:
    """In the child: SIGINT as a terminal's program gets it (handled by default, not blocked), whatever the
    test process inherited or set."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(folder: Path, slow: bool):
    command = [sys.executable, "-c", SLOW_DISK] if slow else [sys.executable, "-m", "tf_migrate"]
    return subprocess.Popen(command + ["-w", "-q", "-j", "2", str(folder)], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_terminal_signals)


def _check_old_or_new(folder: Path, layout):
    """Each file is whole: its old bytes or its new bytes. Returns how many are new."""
    migrated = 0
    for path, (old, new) in layout.items():
        data = path.read_bytes()
        assert data in (old, new), f"{path} is neither the original nor its migration:\n{data[:300]!r}"
        migrated += data == new
    strays = [p for p in folder.rglob("*") if p.is_file() and p not in layout]
    # A kill between creating the temp file and renaming it leaves the temp file: litter, never a source file.
    assert all(p.name.startswith(".") and p.name.endswith(".tf-migrate") for p in strays), strays
    return migrated


def test_sigkill_during_write_leaves_each_file_old_or_new(tmp_path):
    rng = random.Random(5)
    layout = _tree(tmp_path, _templates())
    kills, progress = 0, []
    for _ in range(KILLS):
        run = _cli(tmp_path, slow=True)
        delay = rng.uniform(1.0, 3.5)
        try:
            run.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
            kills += 1
        run.stderr.close()
        progress.append(_check_old_or_new(tmp_path, layout))
        time.sleep(0.05)
    assert kills >= 2, "the runs finished before they could be killed: make the tree bigger"
    final = _cli(tmp_path, slow=False)
    _, err = final.communicate(timeout=120)
    assert final.returncode == 0, err.decode()
    assert _check_old_or_new(tmp_path, layout) == FILES, progress  # the rerun completed the job


def test_ctrl_c_stops_promptly_with_130_and_whole_files(tmp_path):
    """SIGINT to the whole process group (what a terminal sends): exit 130 at once, not after the queue."""
    templates = _templates()[:2]
    layout = {}
    for i in range(120):  # enough queued writes (0.05 s each) that a starved test still interrupts the run
        path = tmp_path / f"m{i:03d}.py"
        path.write_text(templates[i % 2][0])
        layout[path] = tuple(text.encode() for text in templates[i % 2])
    run = _cli(tmp_path, slow=True)
    deadline = time.monotonic() + 60
    while not any(p.read_bytes() == new for p, (old, new) in layout.items()):  # wait until it is writing
        assert run.poll() is None and time.monotonic() < deadline, "the run ended before it wrote a file"
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGINT)
    start = time.perf_counter()
    _, err = run.communicate(timeout=60)
    written = sum(p.read_bytes() == new for p, (old, new) in layout.items())
    assert run.returncode == 130, (err.decode(), f"{written} of {len(layout)} files written",
                                   signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, []))
    assert time.perf_counter() - start < 5, "waited for the queued files"
    assert "interrupted" in err.decode() and "Traceback" not in err.decode()
    for path, (old, new) in layout.items():
        assert path.read_bytes() in (old, new)
