"""Run a legacy program under TF1 graph semantics and a migrated one eagerly (or, compat, as the legacy one), in this process.

The legacy run sees ``tensorflow.compat.v1`` as ``tensorflow`` inside a fresh
``tf.Graph``, the way ``--verify`` runs it in a subprocess; sharing this
process keeps TensorFlow's import cost to once per test session.
"""
from __future__ import annotations

import contextlib
import glob
import io
import re
import sys

import numpy as np

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def run_legacy(source: str) -> str:
    import tensorflow as tf

    from tensorflow.python.framework import ops

    saved = {name: sys.modules.get(name) for name in ("tensorflow",)}
    out = io.StringIO()
    reset = ops.reset_default_graph
    try:
        sys.modules["tensorflow"] = tf.compat.v1
        # The program runs in a fresh graph nested in this process's, which TF refuses to reset; the
        # programs here reset only before they build, so a reset has nothing to clear.
        ops.reset_default_graph = tf.compat.v1.reset_default_graph = lambda: None
        # What disable_v2_behavior switches besides eager execution, undone afterwards.
        tf.compat.v1.disable_v2_tensorshape()
        tf.compat.v1.disable_control_flow_v2()
        with tf.Graph().as_default(), contextlib.redirect_stdout(out):
            exec(compile(source, "<legacy>", "exec"), {"__name__": "__main__"})
    finally:
        ops.reset_default_graph = tf.compat.v1.reset_default_graph = reset
        tf.compat.v1.enable_v2_tensorshape()
        tf.compat.v1.enable_control_flow_v2()
        for name, module in saved.items():
            sys.modules[name] = module
    return out.getvalue()


def run_compat(source: str) -> str:
    """A compat-mode output, run as the legacy program is.

    Its own ``disable_v2_behavior()`` would switch eager execution off for the whole process (and
    every later eager run in it), so those switches do nothing here; the legacy run's set-up stands in."""
    import tensorflow.compat.v1  # noqa: F401 - the module the output imports, in sys.modules before patching

    switches = ("disable_v2_behavior", "disable_eager_execution", "disable_resource_variables")
    saved = [(module, name, getattr(module, name)) for key, module in list(sys.modules.items())
             if key.startswith("tensorflow") and module is not None
             for name in switches if getattr(module, name, None) is not None]
    try:
        for module, name, _ in saved:
            setattr(module, name, lambda: None)
        return run_legacy(source)
    finally:
        for module, name, function in saved:
            setattr(module, name, function)


def run_migrated(source: str) -> str:
    import tensorflow as tf

    assert tf.executing_eagerly()
    # A compat output would switch eager execution off for every later test of this process: run_compat runs it.
    assert "disable_v2_behavior" not in source, "a compat-mode output: run it with run_compat"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<migrated>", "exec"), {"__name__": "__main__"})
    return out.getvalue()


def assert_same_output(legacy: str, migrated: str, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Same text and, within tolerance, the same numbers."""
    def shape(text: str) -> str:
        return re.sub(r"\s+", "", _NUMBER.sub("#", text))

    assert shape(legacy) == shape(migrated), (legacy, migrated)
    a = np.array([float(n) for n in _NUMBER.findall(legacy)])
    b = np.array([float(n) for n in _NUMBER.findall(migrated)])
    np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)


def summary_events(logdir) -> dict:
    """{(tag, step): (kind, number)} of the event files in ``logdir``, read back as TensorBoard does: a scalar's
    value, a TF1 histogram's (min, max, sum, count), else None."""
    import tensorflow as tf

    found = {}
    for path in glob.glob(f"{logdir}/events.out*"):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                if value.HasField("tensor"):
                    array = tf.make_ndarray(value.tensor)
                    number = float(array) if array.ndim == 0 else None
                elif value.HasField("simple_value"):
                    number = value.simple_value
                elif value.HasField("histo"):
                    number = (value.histo.min, value.histo.max, value.histo.sum, value.histo.num)
                else:
                    number = None
                kind = "histogram" if value.HasField("histo") or (value.HasField("tensor") and number is None) \
                    else "scalar"
                found[(value.tag, event.step)] = (kind, number)
    return found


def events_both_ways(program: str, migrated: str, tmp_path):
    """Run ``program`` under TF1 and ``migrated`` under TF2, each writing its events where ``LOGDIR`` stands (a
    folder of its own): what each printed, and :func:`summary_events` of each."""
    legacy_dir, migrated_dir = tmp_path / "legacy", tmp_path / "migrated"
    legacy_dir.mkdir()
    migrated_dir.mkdir()
    before = run_legacy(program.replace("LOGDIR", repr(str(legacy_dir))))
    after = run_migrated(migrated.replace("LOGDIR", repr(str(migrated_dir))))
    return before, after, summary_events(legacy_dir), summary_events(migrated_dir)
