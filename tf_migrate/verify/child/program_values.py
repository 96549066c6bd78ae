"""The numbers a program's own names hold at its end, saved for ``tf_migrate.verify.values_compare``.

A TF1 program that prints nothing still computes: ``loss_val = sess.run(loss)``,
``W_history.append(sess.run(W))``. Its module-level names keep those results when it
ends, and so do the same names in its migration. They are the program's results
where it has no prints and no trained variables to compare.

Legacy run: ``install`` wraps ``Session.run`` to note which objects it returned. At
the end, ``save`` keeps the names whose value is such a result, or a list or tuple
holding one (``losses.append(l)``): values the program computed with TF, not inputs
it built with numpy, which would match whatever the migration did.

Migrated run: it cannot know which names the legacy run will keep (both run at
once), so ``save`` keeps every module-level name holding numbers (numpy values,
Python floats, eager tensors and variables, lists of these).

The legacy run also counts the Sessions it opens (a ``sessions`` event): a TF1
program that opens none computed nothing, whatever it built (a module of layer
and model functions, constants), which the verdict says instead of guessing.

Values are written to ``PATH.npz`` (``n0``, ``n1``, ...) and one ``values`` event
names them, with ``fetched`` marking the legacy run's results. Names whose
numbers do not form one numeric array (ragged lists, objects) are skipped, and so
is anything past ``_MAX_BYTES`` in all.
"""

import collections

_MAX_BYTES = 64 * 1024 * 1024
_MAX_ITEMS = 100000  # a list longer than this is not turned into an array


class ValueRecorder:
    def __init__(self, tf, log, path, mode):
        self.tf, self.log, self.path, self.mode = tf, log, path, mode
        self.fetched = set()  # id() of every object Session.run returned
        self.sessions_opened = 0
        self._pinned = collections.deque(maxlen=4096)  # keeps recent results alive, so their ids stay theirs

    def install(self):
        if self.mode != "legacy":
            return
        from tensorflow.python.client import session
        from tensorflow.python.util import nest

        recorder, run, init = self, session.BaseSession.run, session.BaseSession.__init__

        def opening(sess, *args, **kwargs):
            recorder.sessions_opened += 1
            init(sess, *args, **kwargs)

        def running(sess, *args, **kwargs):
            result = run(sess, *args, **kwargs)
            for value in nest.flatten(result):
                recorder.fetched.add(id(value))
                recorder._pinned.append(value)
            return result

        running.__wrapped__, opening.__wrapped__ = run, init
        session.BaseSession.run, session.BaseSession.__init__ = running, opening

    def _is_result(self, value):
        if id(value) in self.fetched:
            return True
        return isinstance(value, (list, tuple)) and any(id(item) in self.fetched for item in value[:_MAX_ITEMS])

    def _numbers(self, value):
        """``value`` as a numeric numpy array, or None."""
        import numpy as np

        if isinstance(value, (bool, str, bytes, type(None))) or callable(value) and not isinstance(value, self.tf.Variable):
            return None
        if isinstance(value, (list, tuple)):
            if not value or len(value) > _MAX_ITEMS:
                return None
            items = [self._numbers(item) for item in value]
            if any(item is None for item in items) or len({item.shape for item in items}) != 1:
                return None
            try:
                return np.stack(items)
            except (ValueError, TypeError):
                return None
        if isinstance(value, (self.tf.Tensor, self.tf.Variable)):
            try:
                value = value.numpy()
            except Exception:  # a graph tensor, a symbolic Keras tensor: no value
                return None
        if not isinstance(value, (np.ndarray, np.generic, int, float, complex)):
            return None
        array = np.asarray(value)
        return array if array.dtype.kind in "biufc" else None

    def save(self, namespace):
        import numpy as np

        if self.mode == "legacy":
            self.log.write(event="sessions", opened=self.sessions_opened)
        entries, arrays, size = [], {}, 0
        for name, value in list(namespace.items()):
            if name.startswith("_") or isinstance(value, type(np)):
                continue
            fetched = self.mode == "legacy" and self._is_result(value)
            if self.mode == "legacy" and not fetched:
                continue
            array = self._numbers(value)
            if array is None or size + array.nbytes > _MAX_BYTES:
                continue
            size += array.nbytes
            arrays[f"n{len(entries)}"] = array
            entries.append({"name": name, "shape": list(array.shape), "fetched": fetched})
        if not entries:
            return
        np.savez(self.path, **arrays)
        self.log.write(event="values", names=entries, path=self.path + ".npz")
