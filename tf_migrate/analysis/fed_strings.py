"""A run that fetches a string placeholder it feeds.

    name = tf.placeholder(tf.string)
    print(sess.run(name, {name: "hello"}))      # TF1: hello        eager TF2: b'hello'

TF1 handed a fed tensor's value back as the feed was given, as a numpy array of the placeholder's dtype: for
``tf.string`` an object array holding the ``str`` itself. The run function converts the feed to a string tensor and
its result to numpy, ``bytes``. Where a run fetches a string tensor that is a placeholder it feeds, or a name bound
only to one (``my_string = my_placeholder``), the scope stays compat, with the reason at the run (fabienbaradel's
``hello_world.py`` printed ``b'hello'`` where TF1 printed ``hello``). Other fetched strings are ``bytes`` in both.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.callables import fetch_leaves
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import symbol_key


def check_fed_strings(c) -> None:
    """Block the runs of the classifier's scope that fetch a string placeholder they feed (see the module doc)."""
    for st in c.scope.statements:
        for site in st.run_sites:
            if not isinstance(site.feed, cst.Dict):
                continue
            fed = {symbol_key(e.key) for e in site.feed.elements if isinstance(e, cst.DictElement)}
            for leaf in fetch_leaves(site.fetch):
                placeholder = _placeholder_of(c.scope, symbol_key(leaf))
                if placeholder is not None and placeholder in fed and c.scope.symbols[placeholder].dtype == "string":
                    c.block(site.call, f"the run fetches the string placeholder `{placeholder}` it feeds: TF1 gave the "
                                       "fed `str` back, the eager run gives `bytes`")
                    break


def _placeholder_of(scope: "pm.Scope", key: Optional[str]) -> Optional[str]:
    """The placeholder ``key`` names, itself or through names bound only to another name (None: none)."""
    seen = set()
    while key is not None and key not in seen:
        seen.add(key)
        symbol = scope.symbols.get(key)
        if symbol is None:
            return None
        if symbol.kind == pm.PLACEHOLDER:
            return key
        if not 0 <= symbol.index < len(scope.statements):
            return None
        _, value = single(scope.statements[symbol.index].node)
        key = symbol_key(value) if isinstance(value, (cst.Name, cst.Attribute)) else None
    return None
