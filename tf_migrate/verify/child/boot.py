"""Runs one program for ``tf_migrate.verify`` inside its own process.

Executed as a script (``python boot.py CONFIG.json``) for plain programs
and for notebooks run as one script, and loaded by file path from a hidden first
cell for notebooks run in a Jupyter kernel. It never imports the ``tf_migrate``
package, so it works wherever the interpreter can import TensorFlow.

``prepare`` sets up the process before the program runs:

* ``legacy``: ``tf.compat.v1.disable_v2_behavior()`` and
  ``sys.modules['tensorflow'] = tf.compat.v1``, so ``import tensorflow as tf``,
  ``import tensorflow.compat.v1 as tf`` and local modules that import TensorFlow
  all see TF1 graph semantics; ``Session.run`` is wrapped to pin the read/update
  order of fetches that TF1 leaves unordered (``fetch_order``), unless
  ``fetch_order`` is None (measurements want TF1's own ``Session.run``).
* ``migrated``: plain TF2, eager.
* both: graph ops run one at a time (one inter-op thread; not for measurements), so draws
  evaluated in one run come in the same order in both; the program's own clock reads tick per read (``clock``; ``clock="real"``
  for measurements), TF's random ops draw shared values (``random_draws``), and Python's and
  numpy's global generators are seeded (0) right before the program starts; with
  ``state_path``, the trained variables (``state_dump``) and the numbers the
  program's module-level names hold (``program_values``) are saved at the end.
"""

import ast
import importlib.util
import json
import linecache
import os
import sys
import traceback
import types

_HERE = os.path.dirname(os.path.abspath(__file__))


def _sibling(name):
    """Loads a sibling helper module by path (the package may not be importable).

    It is registered under a prefixed name, so a program's own ``fetch_order.py``
    cannot collide with it.
    """
    key = "_tf_migrate_verify_" + name
    module = sys.modules.get(key)
    if module is None:
        spec = importlib.util.spec_from_file_location(key, os.path.join(_HERE, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return module


class EventLog:
    """Appends one JSON line per event, flushed at once so a killed run keeps its log."""

    def __init__(self, path, user_files=()):
        self._file = open(path, "a", encoding="utf-8") if path else None
        self.user_files = tuple(user_files)

    def where(self):
        """``file:line`` of the innermost frame in the program (files starting so)."""
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename.startswith(self.user_files):
                return f"{frame.f_code.co_filename}:{frame.f_lineno}"
            frame = frame.f_back
        return "?"

    def stack(self):
        """``(file, line)`` of every frame in the program, innermost first."""
        frames = []
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename.startswith(self.user_files):
                frames.append((frame.f_code.co_filename, frame.f_lineno))
            frame = frame.f_back
        return tuple(frames)

    def write(self, **event):
        if self._file is not None:
            self._file.write(json.dumps(event) + "\n")
            self._file.flush()


GRAPHS_AS_WRITTEN = "TF_MIGRATE_GRAPHS_AS_WRITTEN"  # "1": Grappler's arithmetic rewrites off (see below)


def prepare(mode, *, program_dir, log_path=None, fetch_order="pre", user_files=(), state_path=None,
            clock="virtual"):
    """Makes this process run a ``legacy`` or ``migrated`` program (see module doc).

    ``user_files``: prefixes of the program's code file names, for ``file:line`` in events.
    ``fetch_order``: ``pre``, ``post``, or None to leave ``Session.run`` as TF1 has it.
    ``state_path``: where the trained variables and the names' values are written (None: nowhere).
    ``clock``: ``virtual`` (the program's clock reads tick per read, ``clock``) or ``real``.
    Returns the recorders whose ``save(namespace)`` writes them at the end ([] without ``state_path``).
    """
    if program_dir and program_dir not in sys.path:
        sys.path.insert(0, program_dir)
    import tensorflow as tf

    log = EventLog(log_path, user_files)
    if clock == "virtual":  # verification; measurements (clock="real") run TF as users have it
        _one_op_at_a_time(tf)
        if os.environ.get(GRAPHS_AS_WRITTEN) == "1":
            _graphs_as_written(tf)
    # a verified run numbers its sessions (a seeded op draws again in a new one): the legacy program's, and a
    # migrated program's that still runs sessions (compat output: TF1 semantics again); measurements (no
    # fetch-order pin, a real clock) keep TF1's own Session.run
    track_sessions = fetch_order is not None if mode == "legacy" else clock == "virtual"
    _sibling("random_draws").install(tf, log, _sibling("draw_values"), track_sessions)
    if mode == "legacy":
        tf.compat.v1.disable_v2_behavior()
        if fetch_order is not None:
            _sibling("fetch_order").install(tf, log, fetch_order)
        sys.modules["tensorflow"] = tf.compat.v1
    if clock == "virtual":  # (the program's modules tick too: a project's model.py timing its epochs)
        _sibling("clock").install(tuple(log.user_files) + ((os.path.join(program_dir, ""),) if program_dir else ()))
    _seed_host_generators()
    if state_path is None:
        return []
    recorders = [
        _sibling("state_dump").StateRecorder(tf, log, state_path),
        _sibling("program_values").ValueRecorder(tf, log, state_path + "_values", mode),
    ]
    for recorder in recorders:
        recorder.install()
    return recorders


def _one_op_at_a_time(tf):
    """Graph ops run one at a time (one inter-op thread; each op may still use many), in both runs.

    A TF1 initializer run evaluates every initializer at once, and a shared random draw takes the
    next index of its class when it comes late (``random_draws``): with parallel threads two draws of
    one class could swap between runs (a notebook that built a second variable after the first
    initializer run printed the other's values under load, Oreilly ``Chapter3.ipynb``). Sessions
    made without a ``ConfigProto`` read this setting; so do ``tf.function`` graphs. Queue and
    reader ops are asynchronous kernels: they wait without holding the thread.
    """
    try:
        tf.config.threading.set_inter_op_parallelism_threads(1)
    except RuntimeError:  # TensorFlow already ran an op in this process: leave its pool as it is
        pass


def _graphs_as_written(tf):
    """Grappler's arithmetic rewrites off: graphs compute op by op as written (the verifier's second look).

    The rewrites reassociate and fold float arithmetic (``a*b + a*c`` -> ``a*(b+c)``, hoisted
    casts), and they apply otherwise to a ``tf.function`` graph, whose feeds are arguments, than to
    a TF1 Session graph: a printed mean of squared residuals near 1 from residuals near 150 (hunkim
    ``lab-09-6``) differed from TF1's in its fifth digit while every trained weight agreed to 1e-7;
    with the rewrites off the two programs print the same bits. They are part of what TF1 programs
    run with, and not only rounding (one turns ``log(softmax(x))`` into a stable log-softmax), so both
    runs keep them first, and the verifier runs both again without them only when the outputs differ
    (``verifier.verify_program``).
    """
    try:
        tf.config.optimizer.set_experimental_options({"arithmetic_optimization": False})
    except (RuntimeError, ValueError):  # TensorFlow already ran an op in this process: leave it as it is
        pass


def _seed_host_generators():
    """Both programs start with Python's and numpy's global generators in the same state: importing
    TensorFlow and the setup above draw from Python's ``random`` differently in the two modes, which
    shifted a program's own unseeded ``random.randint`` (hunkim lab-07-4 printed another test label)."""
    import random

    import numpy

    random.seed(0)
    numpy.random.seed(0)


def _display(value):
    """What an IPython prompt shows for a cell's last expression, minus the prompt."""
    if value is not None:
        print(repr(value))


def run_cell(source, filename, namespace, interactive):
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    tree = ast.parse(source, filename)
    last = None
    silenced = source.rstrip().endswith(";")
    if interactive and not silenced and tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, filename, "exec"), namespace)
    if last is not None:
        _display(eval(compile(last, filename, "eval"), namespace))


def main(config_path):
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    cells = config["cells"]
    recorders = prepare(
        config["mode"],
        program_dir=config["program_dir"],
        log_path=config["log"],
        fetch_order=config.get("fetch_order", "pre"),
        user_files=[cell["filename"] for cell in cells],
        state_path=config.get("state"),
        clock=config.get("clock", "virtual"),
    )
    main_module = types.ModuleType("__main__")
    main_module.__file__ = config["display_path"]
    main_module.__builtins__ = __builtins__
    sys.modules["__main__"] = main_module
    sys.argv = [config["display_path"]] + config.get("args", [])
    try:
        for cell in cells:
            run_cell(cell["source"], cell["filename"], main_module.__dict__, config["interactive"])
    except SystemExit as exit_:
        if exit_.code in (None, 0):  # sys.exit(0), tf.app.run(): the program ended well, and has its state
            _save(recorders, main_module)
        raise
    except BaseException:
        traceback.print_exc()
        sys.stdout.flush()
        return 1
    _save(recorders, main_module)
    return 0


def _save(recorders, main_module):
    sys.stdout.flush()
    for recorder in recorders:
        recorder.save(main_module.__dict__)


if __name__ == "__main__":
    sys.path.pop(0)  # this file's folder must not shadow the program's modules
    sys.exit(main(sys.argv[1]))
