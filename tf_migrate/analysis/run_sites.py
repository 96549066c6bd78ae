"""Find the places a TF1 program runs its graph.

A run site is ``sess.run(fetches, feed_dict)``, ``tensor.eval(feed_dict)`` or
``op.run(feed_dict)``. Each becomes a call of a generated function.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import reads, symbol_key
from tf_migrate.traversal import visit

RUN = "run"  # sess.run(fetches, feed_dict)
EVAL = "eval"  # tensor.eval(feed_dict) -> value
OP_RUN = "op_run"  # op.run(feed_dict) -> None
GLOBAL_STEP = "global_step"  # tf.train.global_step(sess, step) -> int(sess.run(step))


@dataclass
class RunSite:
    call: cst.Call
    style: str
    fetch: cst.BaseExpression
    feed: Optional[cst.BaseExpression]  # the feed_dict expression, if any
    extra_args: List[str] = field(default_factory=list)  # options=, run_metadata=, ...
    home: Optional[cst.FunctionDef] = None  # the method it runs in, when that is not the graph's scope
    # The object whose class built the graph it runs (analysis/instance_runs), and that class's name.
    instance: Optional[str] = None
    instance_class: Optional[str] = None

    @property
    def literal_feeds(self) -> Optional[List[Tuple[str, cst.BaseExpression, cst.BaseExpression]]]:
        """[(key, key expression, value)] when the feed is a dict literal of symbols, else None."""
        if self.feed is None or (isinstance(self.feed, cst.Name) and self.feed.value == "None"):
            return []
        if not isinstance(self.feed, cst.Dict):
            return None
        feeds = []
        for element in self.feed.elements:
            if not isinstance(element, cst.DictElement):
                return None
            key = symbol_key(element.key)
            if key is None:
                return None
            feeds.append((key, element.key, element.value))
        return feeds


def _split_args(call: cst.Call, positional_names: List[str]) -> Tuple[dict, List[str]]:
    bound: dict = {}
    extra: List[str] = []
    position = 0
    for arg in call.args:
        if arg.star:
            extra.append(arg.star)
            continue
        if arg.keyword is not None:
            bound[arg.keyword.value] = arg.value
            continue
        if position < len(positional_names):
            bound[positional_names[position]] = arg.value
        position += 1
    return bound, extra


def session_named(name: str) -> bool:
    """Whether a parameter named ``name`` is taken for a session (``sess``, ``session``, ``train_sess``...)."""
    return name in ("sess", "session") or name.endswith(("_sess", "_session"))


def match_run_site(call: cst.Call, is_session: Callable[[cst.BaseExpression], bool],
                   kind_of: Callable[[cst.BaseExpression], Optional[str]]) -> Optional[RunSite]:
    """A RunSite when ``call`` runs the graph, else None.

    ``is_session(expr)`` says whether a receiver is a session; ``kind_of(expr)``
    gives the program-model kind of an expression ("op", "tensor", ...) or None.
    """
    if not isinstance(call.func, cst.Attribute):
        return None
    method = call.func.attr.value
    receiver = call.func.value
    if method == "global_step" and isinstance(receiver, cst.Attribute) and receiver.attr.value == "train" \
            and len(call.args) == 2 and all(arg.keyword is None and not arg.star for arg in call.args) \
            and is_session(call.args[0].value):
        return RunSite(call, GLOBAL_STEP, call.args[1].value, None, [])
    if method == "run" and is_session(receiver):
        bound, extra = _split_args(call, ["fetches", "feed_dict", "options", "run_metadata"])
        if "fetches" not in bound:
            return None
        extra += [k for k in bound if k in ("options", "run_metadata")]
        return RunSite(call, RUN, bound["fetches"], bound.get("feed_dict"), extra)
    if method in ("eval", "run") and not is_session(receiver):
        kind = kind_of(receiver)
        if method == "run" and isinstance(receiver, cst.Attribute) \
                and receiver.attr.value == "initializer" and kind_of(receiver.value) == "tensor":
            kind = "init"  # `w.initializer.run()` (InteractiveSession): the variable's initialization
        if kind is None:
            return None
        if method == "eval" and kind in ("op", "init", "session", "optimizer", "python"):
            return None
        if method == "run" and kind not in ("op", "init"):
            return None
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        # `variable.eval(sess)`: a variable's eval takes the session first; a tensor's or op's takes the feed dict
        order = ["session"] if positional and is_session(positional[0]) else ["feed_dict", "session"]
        bound, extra = _split_args(call, order)
        extra += [k for k in bound if k == "session" and not is_session(bound[k])]
        style = EVAL if method == "eval" else OP_RUN
        return RunSite(call, style, receiver, bound.get("feed_dict"), extra)
    return None


class _RunSiteFinder(cst.CSTVisitor):
    def __init__(self, is_session, kind_of) -> None:
        self.is_session = is_session
        self.kind_of = kind_of
        self.sites: List[RunSite] = []

    def visit_Call(self, node: cst.Call) -> None:
        site = match_run_site(node, self.is_session, self.kind_of)
        if site is not None:
            self.sites.append(site)


def find_run_sites(node: cst.CSTNode, is_session, kind_of) -> List[RunSite]:
    finder = _RunSiteFinder(is_session, kind_of)
    visit(node, finder)
    return finder.sites


def names_read_by_site(site: RunSite) -> set:
    keys = reads(site.fetch)
    if site.feed is not None:
        keys |= reads(site.feed)
    return keys
