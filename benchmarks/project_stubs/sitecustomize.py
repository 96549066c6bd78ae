"""Start-up hook of the public-projects runs (``benchmarks/public_projects.py``).

``PYTHONPATH`` holds this folder, then ``../trial_stubs``. This module first runs the
public trial's own hook (``trial_stubs/sitecustomize.py``: the stub sets named in
``TRIAL_STUBS``, seeded global generators, no network), then serves the project stub sets
named in ``PROJECT_STUBS`` from ``modules/`` (see ``modules/README.md``) ahead of every other
finder. Set ``numpy_legacy`` gives numpy < 1.24's behaviour that 2017-era code relies on
(``np.float`` / ``np.int`` aliases; ``np.array`` of ragged rows as an object array), in both
runs alike.
"""
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_MODULES = os.path.join(_HERE, "modules")

_trial = importlib.util.spec_from_file_location(
    "trial_sitecustomize", os.path.join(_HERE, os.pardir, "trial_stubs", "sitecustomize.py"))
trial = importlib.util.module_from_spec(_trial)
_trial.loader.exec_module(trial)

# Stub set -> importable name -> module name in modules/.
PROJECT_SETS = {
    "contrib": {"tensorflow.contrib": "tf_contrib"},
    "scipy_misc": {"scipy": "scipy"},
    "cv2": {"cv2": "cv2"},
    "bunch": {"bunch": "bunch"},
    "tqdm": {"tqdm": "tqdm"},
    "pandas": {"pandas": "pandas"},
}


class ProjectStubFinder(trial.StubFinder):
    def find_spec(self, fullname, path=None, target=None):
        for name, stub in self.names.items():
            if fullname == name or fullname.startswith(name + "."):
                parts = (stub + fullname[len(name):]).split(".")
                base = os.path.join(_MODULES, *parts)
                if os.path.isdir(base):
                    return importlib.util.spec_from_file_location(
                        fullname, os.path.join(base, "__init__.py"), submodule_search_locations=[base])
                if os.path.isfile(base + ".py"):
                    return importlib.util.spec_from_file_location(fullname, base + ".py")
        return None


def install(sets):
    unknown = [s for s in sets if s not in PROJECT_SETS and s != "numpy_legacy"]
    if unknown:
        raise ValueError(f"unknown project stub set(s) {unknown}; known: {sorted(PROJECT_SETS)}, numpy_legacy")
    names = {}
    for stub_set in sets:
        names.update(PROJECT_SETS.get(stub_set, {}))
    sys.meta_path.insert(0, ProjectStubFinder(names))
    if "numpy_legacy" in sets:
        _old_numpy()


def _old_numpy():
    """numpy < 1.24 as 2017-era code expects it: the type aliases, and ragged ``np.array`` as object arrays."""
    import numpy

    for alias, kind in (("float", float), ("int", int), ("bool", bool), ("object", object)):
        if not hasattr(numpy, alias):
            setattr(numpy, alias, kind)
    array = numpy.array

    def ragged_array(obj, *args, **kwargs):
        try:
            return array(obj, *args, **kwargs)
        except ValueError as error:
            if "inhomogeneous" not in str(error) or args or kwargs:
                raise
            return array(obj, dtype=object)

    numpy.array = ragged_array


_SETS = [s for s in os.environ.get("PROJECT_STUBS", "").split(",") if s]
if _SETS:
    install(_SETS)
