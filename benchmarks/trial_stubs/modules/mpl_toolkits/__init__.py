"""A stand-in for ``mpl_toolkits`` (stub set ``matplotlib``): see ``matplotlib/_anything.py``."""
from matplotlib._anything import module_getattr as __getattr__  # noqa: F401
