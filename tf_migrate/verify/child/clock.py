"""A clock that ticks by calls, not by seconds, for the program's own reads of it.

Programs print how long they took (``print("Took: %f seconds" % (time.time() - start))``).
Two runs never take the same time, so such a line would differ between the legacy and
the migrated run whatever the migration did. While verifying, each read of
``time.time``, ``time.perf_counter``, ``time.monotonic`` or ``time.process_time``
(and their ``_ns`` forms) made from the program's own files returns a virtual time:
it starts at the same instant in both runs and advances by ``TICK`` seconds per
read. The same reads in the same order then print the same durations. Reads from
anywhere else (TensorFlow, the standard library) get the real clock, so timeouts
and waits inside libraries keep their meaning.

Measurements (``run_program`` for ``benchmarks/bench_migrated.py``) keep the real
clock: there the program's timing lines are the result.
"""

import sys
import time

START = 1_700_000_000.0
TICK = 0.001
_NAMES = ("time", "perf_counter", "monotonic", "process_time")


def install(user_files):
    """Replaces the ``time`` module's clocks; reads from files starting with ``user_files`` tick."""
    user_files = tuple(user_files)
    reads = [0]

    def virtual(real, unit):
        def read():
            if sys._getframe(1).f_code.co_filename.startswith(user_files):
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
