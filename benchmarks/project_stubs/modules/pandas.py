"""``pandas`` (stub set ``pandas``): imported at the top of a module that never uses it.

Keras imports pandas when it is there and adds ``pandas.Series`` / ``pandas.DataFrame`` to the
array types it checks with ``isinstance``: classes of their own here, which nothing is an
instance of (as without pandas).
"""


class Series:
    """Nothing is a pandas Series in these runs."""


class DataFrame:
    """Nothing is a pandas DataFrame in these runs."""


class Index:
    """Nothing is a pandas Index in these runs."""
