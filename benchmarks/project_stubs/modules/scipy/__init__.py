"""``scipy`` (stub set ``scipy_misc``): only ``scipy.misc``, whose image functions SciPy removed."""
