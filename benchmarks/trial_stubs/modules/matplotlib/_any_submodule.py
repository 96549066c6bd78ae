"""Any ``matplotlib.X`` (or ``mpl_toolkits.X``) submodule: every name is a do-nothing ``Anything``."""
from matplotlib._anything import module_getattr as __getattr__  # noqa: F401
from matplotlib._anything import hist, plot, subplots  # noqa: F401
