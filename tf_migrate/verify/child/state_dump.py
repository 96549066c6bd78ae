"""The trained variables at a program's end, saved for ``tf_migrate.verify.state_compare``.

A TF1 program's variables live in its sessions, and a ``with tf.Session()``
block closes the session before the program ends: ``install`` wraps
``Session.close`` to take the session's trainable variables just before it
closes, and ``save`` takes any session still open at the end (an
``InteractiveSession``, Keras' own). The last session taken wins. A program
without sessions (the eager migration) gets its live trainable ``tf.Variable``
objects, in creation order.

Initial values are kept too, so that a wrong initializer is named even after
training has spread its error to every variable: a session's trainable
variables right after its first ``sess.run`` of a variables initializer
(``tf.global_variables_initializer()``; each session its own, so a program that
resets its graph and builds ``Variable`` again is not given the first one's), an eager variable's value when it was
created (not for variables a ``tf.function`` trace creates). A variable a session's initializer run initialized
again in the same graph (a second model's session) and left at that value is not taken: TF1 reset it, eager
code keeps what it was trained to, and the program reads it no more.

``save`` writes the values to ``PATH.npz`` (``v0``, ``v1``, ..., initial values
``i0``, ``i1``, ...) and logs one ``state`` event with their names and shapes. Variables over ``_MAX_BYTES`` in
all are not saved (the event says so).
"""

import gc
import inspect
import weakref

_MAX_BYTES = 256 * 1024 * 1024


class StateRecorder:
    def __init__(self, tf, log, path):
        self.tf, self.log, self.path = tf, log, path
        self.taken = None  # [(name, value, initial value or None)] of the last session taken
        self.initial = weakref.WeakKeyDictionary()  # session -> {name: value} after its first initializer run
        self.initialized = {}  # graph -> names of its variables an initializer run has initialized so far
        self.reset = weakref.WeakKeyDictionary()  # session -> the names its first initializer run initialized again

    def install(self):
        from tensorflow.python.client import session
        from tensorflow.python.ops import resource_variable_ops
        from tensorflow.python.util import nest

        recorder = self
        close, run = session.BaseSession.close, session.BaseSession.run
        # the recorder's own reads run on TF's Session.run, past the verifier's wrappers: they are not the
        # program's runs (a read at close time may be on TF's SessionCloseThread, which fetch_order would log
        # as the program running sessions from worker threads)
        self._own_run = inspect.unwrap(run)
        create = resource_variable_ops.ResourceVariable.__init__

        def closing(sess):
            if not sess._closed:
                recorder.take_session(sess)
            return close(sess)

        def running(sess, fetches, *args, **kwargs):
            result = run(sess, fetches, *args, **kwargs)
            if sess not in recorder.initial and any(_initializes(f) for f in nest.flatten(fetches)):
                values = dict(recorder._session_values(sess) or ())
                before = recorder.initialized.setdefault(sess.graph, set())
                recorder.initial[sess], recorder.reset[sess] = values, before & set(values)
                before.update(values)
            return result

        def creating(variable, *args, **kwargs):
            create(variable, *args, **kwargs)
            if recorder.tf.executing_eagerly():
                variable._tf_migrate_initial = variable.numpy()

        closing.__wrapped__, running.__wrapped__, creating.__wrapped__ = close, run, create
        session.BaseSession.close, session.BaseSession.run = closing, running
        resource_variable_ops.ResourceVariable.__init__ = creating

    def _session_values(self, sess):
        variables = sess.graph.get_collection("trainable_variables")
        if not variables:
            return None
        try:
            values = self._own_run(sess, variables)
        except Exception:  # uninitialized variables, a broken graph: nothing to take
            return None
        return [(v.op.name, value) for v, value in zip(variables, values)]

    def take_session(self, sess):
        import numpy as np

        values = self._session_values(sess)
        if values:
            initial, reset = self.initial.get(sess, {}), self.reset.get(sess, set())
            # A variable an earlier session trained, this one reset and never changed (a second model's session
            # initializing all variables again): eager code keeps its trained value, which nothing reads.
            self.taken = [(name, value, initial.get(name)) for name, value in values
                          if not (name in reset and np.array_equal(value, initial.get(name)))]

    def _eager(self):
        variables = [
            o for o in gc.get_objects()
            if isinstance(o, self.tf.Variable) and o.trainable and not getattr(o, "_in_graph_mode", False)
        ]
        variables.sort(key=_creation_number)
        return [(v.name.rsplit(":", 1)[0], v.numpy(), getattr(v, "_tf_migrate_initial", None)) for v in variables]

    def save(self, namespace=None):
        """Writes the variables taken (``namespace``, the program's globals, is not needed here)."""
        from tensorflow.python.client import session

        for sess in [o for o in gc.get_objects() if isinstance(o, session.BaseSession)]:
            if not sess._closed:
                self.take_session(sess)
        import numpy as np

        taken = self.taken if self.taken is not None else self._eager()
        # Numbers only: a string variable's value is an object array, which numpy loads back only by unpickling.
        taken = [entry for entry in taken if np.asarray(entry[1]).dtype.kind in "biufc"]
        if not taken:
            return
        size = sum(getattr(value, "nbytes", 0) for _, value, _ in taken)
        entries = [{"name": name, "shape": list(getattr(value, "shape", ())), "initial": initial is not None}
                   for name, value, initial in taken]
        if size > _MAX_BYTES:
            self.log.write(event="state", variables=entries, saved=False)
            return
        arrays = {f"v{i}": value for i, (_, value, _) in enumerate(taken)}
        arrays.update({f"i{i}": initial for i, (_, _, initial) in enumerate(taken) if initial is not None})
        np.savez(self.path, **arrays)
        self.log.write(event="state", variables=entries, saved=True, path=self.path + ".npz")


def _initializes(fetch):
    """Whether a fetch is a variables initializer (``tf.global_variables_initializer()``)."""
    return getattr(fetch, "type", None) == "NoOp" and fetch.name.split("/")[-1].startswith("init")


def _creation_number(variable):
    """TF numbers eager variables as it makes them (``_unique_id`` ends ``_<uid>``)."""
    suffix = str(getattr(variable, "_unique_id", "")).rsplit("_", 1)[-1]
    return int(suffix) if suffix.isdigit() else 0
