"""Start-up hook of the public-code trial's runs (``benchmarks/public_trial.py``).

The trial puts this folder on ``PYTHONPATH`` of both runs of every program
(legacy under TF1 semantics, migrated under plain TF2), so Python imports this
module at start-up, before ``tf_migrate/verify/child/boot.py`` imports TensorFlow.
It does nothing unless ``TRIAL_STUBS`` names stub sets (comma-separated); then:

* the stub modules of those sets (``modules/``, see ``modules/README.md``) are
  served by a finder placed before every other one, so they win over a
  repository's own module of the same name (a downloading ``input_data.py``)
  and over installed packages, while every name outside the chosen sets
  imports as usual (TensorFlow never imports these names itself);
* Python's and numpy's global random generators are seeded (0), so programs
  that draw unseeded data (``np.random.rand(100)``) draw the same values in both
  runs;
* network connections to anything but this machine fail at once
  (``OSError``), so download helpers fail fast instead of waiting on DNS.

``PYTHONHASHSEED`` is set by the harness, not here (it must be set before the
interpreter starts).
"""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_MODULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "modules")

# Stub set -> the top-level names it serves from modules/ (file or package of that name,
# except where a different file is given).
STUB_SETS = {
    "mnist": {"input_data": "tf_examples.tutorials.mnist.input_data", "tensorflow.examples": "tf_examples"},
    "hvass_mnist": {"mnist": "hvass_mnist", "tensorflow.examples": "tf_examples"},
    "matplotlib": {"matplotlib": "matplotlib", "mpl_toolkits": "mpl_toolkits", "pylab": "pylab"},
    "gym": {"gym": "gym"},
    "sklearn": {"sklearn": "sklearn"},
}
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "", None}


class StubFinder(importlib.abc.MetaPathFinder):
    """Finds the chosen stub modules (and their submodules) in ``modules/``."""

    def __init__(self, names):
        self.names = names  # importable name -> module name in modules/

    def find_spec(self, fullname, path=None, target=None):
        for name, stub in self.names.items():
            if fullname == name or fullname.startswith(name + "."):
                stub_name = stub + fullname[len(name):]
                return _spec(fullname, stub_name)
        return None


def _spec(fullname, stub_name):
    parts = stub_name.split(".")
    base = os.path.join(_MODULES, *parts)
    if os.path.isdir(base):
        return importlib.util.spec_from_file_location(
            fullname, os.path.join(base, "__init__.py"), submodule_search_locations=[base])
    if os.path.isfile(base + ".py"):
        return importlib.util.spec_from_file_location(fullname, base + ".py")
    if parts[0] in ("matplotlib", "mpl_toolkits"):  # pyplot, gridspec, mplot3d, ...: all do nothing
        return importlib.util.spec_from_file_location(
            fullname, os.path.join(_MODULES, "matplotlib", "_any_submodule.py"), submodule_search_locations=[])
    return None


def _refuse_remote(function):
    def guarded(host, *args, **kwargs):
        name = host[0] if isinstance(host, tuple) else host
        if isinstance(name, bytes):
            name = name.decode()
        if name not in _LOCAL_HOSTS:
            raise OSError(f"public trial: no network ({name!r}); the data must come from a stub")
        return function(host, *args, **kwargs)

    return guarded


def install(sets):
    unknown = [s for s in sets if s not in STUB_SETS]
    if unknown:
        raise ValueError(f"unknown stub set(s) {unknown}; known: {sorted(STUB_SETS)}")
    names = {}
    for stub_set in sets:
        names.update(STUB_SETS[stub_set])
    sys.meta_path.insert(0, StubFinder(names))
    import random
    import socket

    import numpy

    random.seed(0)
    numpy.random.seed(0)
    socket.getaddrinfo = _refuse_remote(socket.getaddrinfo)
    socket.create_connection = _refuse_remote(socket.create_connection)


_SETS = [s for s in os.environ.get("TRIAL_STUBS", "").split(",") if s]
if _SETS:
    install(_SETS)
