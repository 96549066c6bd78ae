"""A clock that ticks by calls, not by seconds, for the program's own reads of it.

Programs print how long they took (``print("Took: %f seconds" % (time.time() - start))``).
Two runs never take the same time, so such a line would differ between the legacy and
the migrated run whatever the migration did. While verifying, each read of
``time.time``, ``time.perf_counter``, ``time.monotonic`` or ``time.process_time``
(and their ``_ns`` forms) made from the program's own files returns a virtual time:
it starts at the same instant in both runs and advances by ``TICK`` seconds per
read. The same reads in the same order then print the same durations. So do
``datetime.datetime.now()``, ``today()`` and ``utcnow()`` (a training log's
``datetime.now().isoformat()``), on the same count. The program's own files are
its code and every module in its folder (a project's ``model.py`` timing its
epochs). Reads from anywhere else (TensorFlow, the standard library) get the real
clock, so timeouts and waits inside libraries keep their meaning.

Measurements (``run_program`` for ``benchmarks/bench_migrated.py``) keep the real
clock: there the program's timing lines are the result.
"""

import datetime
import os
import sys
import time

START = 1_700_000_000.0
TICK = 0.001
_NAMES = ("time", "perf_counter", "monotonic", "process_time")


def install(user_files):
    """Replaces the ``time`` module's clocks; reads from files starting with ``user_files`` tick (not installed
    packages: a program folder can hold a virtual environment)."""
    prefixes = tuple(user_files)
    installed = ("site-packages", "dist-packages", os.path.join(sys.prefix, ""), os.path.join(sys.base_prefix, ""))
    reads = [0]

    def own(filename):
        return filename.startswith(prefixes) and not any(part in filename for part in installed)

    def virtual(real, unit):
        def read():
            if own(sys._getframe(1).f_code.co_filename):
                reads[0] += 1
                return unit(START + reads[0] * TICK)
            return real()

        read.__name__, read.__doc__ = real.__name__, real.__doc__
        return read

    for name in _NAMES:
        real = getattr(time, name)
        setattr(time, name, virtual(real, float))
        real_ns = getattr(time, name + "_ns", None)
        if real_ns is not None:
            setattr(time, name + "_ns", virtual(real_ns, lambda seconds: int(round(seconds * 1e9))))
    _install_datetime(own, reads)


def _install_datetime(own, reads):
    """``datetime.datetime`` becomes a subclass whose ``now`` / ``today`` / ``utcnow`` read the virtual clock when
    the program's own files call them (the values they return are plain ``datetime`` objects)."""
    real = datetime.datetime

    def ticked(caller):
        if own(caller.f_code.co_filename):
            reads[0] += 1
            return START + reads[0] * TICK
        return None

    class VirtualDatetime(real):
        @classmethod
        def now(cls, tz=None):
            seconds = ticked(sys._getframe(1))
            return real.now(tz) if seconds is None else real.fromtimestamp(seconds, tz)

        @classmethod
        def today(cls):
            seconds = ticked(sys._getframe(1))
            return real.today() if seconds is None else real.fromtimestamp(seconds)

        @classmethod
        def utcnow(cls):
            seconds = ticked(sys._getframe(1))
            return real.utcnow() if seconds is None else real.fromtimestamp(seconds, datetime.timezone.utc).replace(
                tzinfo=None)

    VirtualDatetime.__name__ = VirtualDatetime.__qualname__ = "datetime"
    datetime.datetime = VirtualDatetime
