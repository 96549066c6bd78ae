"""A stand-in for ``pylab`` (stub set ``matplotlib``): see ``matplotlib/_anything.py``."""
from matplotlib._anything import module_getattr as __getattr__  # noqa: F401
from matplotlib._anything import hist, plot, subplots  # noqa: F401
