"""A stand-in for matplotlib (stub set ``matplotlib``): plots are accepted and dropped.

The trial's machine has no matplotlib, and plots are not what the trial
compares. ``matplotlib.use``, ``rcParams`` and every submodule
(``pyplot``, ``gridspec``, ``cm``, ...; see ``_anything.py``) exist and do nothing.
"""
from matplotlib._anything import module_getattr as __getattr__  # noqa: F401

rcParams = {}
__version__ = "0.0-public-trial-stub"


def use(*args, **kwargs):
    pass


def get_backend():
    return "agg"
