"""The keys of a feed dict passed by name: ``feed = {x: ..., y: ...}`` then ``sess.run(..., feed_dict=feed)``.

A feed dict built in the loop and passed by name is the common form of TF1 training code. Its values
change every step, but its keys do not: when every binding of the name in the scope is a dict literal
of the same placeholders, and the name is only ever passed as a ``feed_dict``, the run's function
knows its parameters exactly. A compiled function needs that: ``tf.function`` with an input signature
takes no ``**unused_feeds`` catch-all.
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.symbols import symbol_key


def named_feed_keys(scope: "pm.Scope", site: "RunSite") -> Optional[List[str]]:
    """The placeholder keys the site's named feed holds at every run (in its literal's order), or None.

    The name is looked up where the run stands: the graph's scope, or the method of the graph's class
    the run sits in (``site.home``), whose feed dict keys are the class's placeholders.
    """
    feed = site.feed
    if site.home is not None:
        params = {param.name.value for param in site.home.params.params}
        params |= {p.name.value for p in site.home.params.kwonly_params}
        bodies = [site.home.body]
    else:
        params, bodies = scope.params, [st.node for st in scope.statements]
    if not isinstance(feed, cst.Name) or feed.value in params:
        return None
    finder = _Uses(feed.value, feed)
    for body in bodies:
        body.visit(finder)
    if finder.other or not finder.literals:
        return None
    key_lists = [[symbol_key(element.key) for element in literal.elements] for literal in finder.literals]
    first = key_lists[0]
    if any(set(keys) != set(first) or len(keys) != len(first) for keys in key_lists):
        return None
    for key in first:
        symbol = scope.symbols.get(key) if key is not None else None
        if symbol is None or symbol.kind != pm.PLACEHOLDER or len(scope.bindings.get(key, [])) > 1:
            return None  # a fed tensor is computed, not a parameter; a name bound twice is not one placeholder
    return first


class _Uses(cst.CSTVisitor):
    """Every occurrence of one name: dict-literal assignments, ``feed_dict=`` arguments, and anything else."""

    def __init__(self, name: str, run_feed: cst.Name) -> None:
        self.name = name
        self.literals: List[cst.Dict] = []
        self.other = False
        self._accounted: set = {id(run_feed)}  # the run site's own feed, by keyword or by position

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name) and target.target.value == self.name:
                if len(node.targets) == 1 and _is_key_literal(node.value):
                    self.literals.append(node.value)
                    self._accounted.add(id(target.target))

    def visit_Call(self, node: cst.Call) -> None:
        positional = [arg for arg in node.args if arg.keyword is None and not arg.star]
        if (isinstance(node.func, cst.Attribute) and node.func.attr.value == "run" and len(positional) >= 2
                and isinstance(positional[1].value, cst.Name) and positional[1].value.value == self.name):
            self._accounted.add(id(positional[1].value))  # `sess.run(fetches, feed)`: the feed by position

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._accounted.add(id(node.keyword))  # `feed_dict=feed_dict`: the keyword is no use of the name
        if (node.keyword is not None and node.keyword.value == "feed_dict" and not node.star
                and isinstance(node.value, cst.Name) and node.value.value == self.name):
            self._accounted.add(id(node.value))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name and id(node) not in self._accounted:
            self.other = True  # read, mutated, rebound otherwise, or passed elsewhere: keys may change

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._accounted.add(id(node.attr))  # `self.feed` is another value

    def visit_Param(self, node: cst.Param) -> None:
        if node.name.value == self.name:
            self.other = True


def _is_key_literal(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Dict) and bool(value.elements) and all(
        isinstance(element, cst.DictElement) and symbol_key(element.key) is not None for element in value.elements)
