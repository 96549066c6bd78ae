"""A plotting stand-in that accepts every call and draws nothing.

``Anything`` answers any attribute, call, index, ``with`` and arithmetic with
another ``Anything``; ``subplots`` returns a figure and a numpy array of axes
shaped as matplotlib's, ``plot`` a one-line list and ``hist`` a 3-tuple, so the
usual unpackings work (``fig, ax = plt.subplots()``, ``line, = ax.plot(...)``).
Nothing is shown, written or waited for (``show``, ``savefig``, ``pause``).
"""
import numpy


class Anything:
    def __call__(self, *args, **kwargs):
        return Anything()

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _SHAPED.get(name, Anything)()

    def __getitem__(self, key):
        return Anything()

    def __setitem__(self, key, value):
        pass

    def __iter__(self):
        return iter([Anything()])

    def __len__(self):
        return 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "<plot stub>"

    def _arithmetic(self, *other):
        return Anything()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _arithmetic
    __truediv__ = __rtruediv__ = __neg__ = _arithmetic


def subplots(nrows=1, ncols=1, *args, squeeze=True, **kwargs):
    axes = numpy.empty((nrows, ncols), dtype=object)
    for index in numpy.ndindex(axes.shape):
        axes[index] = Anything()
    if squeeze:
        axes = axes.item() if axes.size == 1 else axes.squeeze()
    return Anything(), axes


def plot(*args, **kwargs):
    return [Anything()]


def hist(*args, **kwargs):
    return Anything(), Anything(), Anything()


_SHAPED = {"subplots": lambda: subplots, "plot": lambda: plot, "hist": lambda: hist}


def module_getattr(name):
    """A module-level ``__getattr__`` for the stand-in modules."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return _SHAPED.get(name, Anything)()
