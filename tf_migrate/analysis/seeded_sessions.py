"""A seeded random op run in more than one session, or by two different runs.

TF1 starts a seeded op's sequence over in each new session: ``c = tf.random_uniform([], seed=2)`` run in two
``with tf.Session()`` blocks prints the same number twice. An eager op (or the function a run becomes) continues
one sequence: the second session's runs would print the next numbers. A scope whose seeded random op is run by
runs of two sessions (two bindings, two ``with`` blocks, a session opened in a loop or a function) stays compat,
with the reason at the first run of the second session.

In one session, TF1's runs of the op draw one sequence: ``sess.run(c)`` then ``c.eval()`` print two numbers. Two
different runs become two functions, each with a copy of the op and the same seed: each copy starts the sequence
again, and the second run would print the first number again. Such a scope stays compat too (but for dropout, whose
draws an evaluation run with keep probability 1.0 does not see). Unseeded ops draw numbers TF1 does not repeat.
"""
from __future__ import annotations

from typing import Dict, Hashable, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.repetition import RepetitionDepth
from tf_migrate.analysis.run_sites import GLOBAL_STEP, RUN
from tf_migrate.analysis.slicing import plan_run
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code
from tf_migrate.traversal import visit

_MANY = "<a session opened again each time>"
# Values drawn again in each run (a variable's initial value is drawn once: analysis/reinitialization).
_PER_RUN = pm.DEFERRED_KINDS | {pm.EAGER}


def check_seeded_sessions(c: Classifier) -> None:
    """Block the scope where runs of a second session, or two different runs, run one seeded random op (see the
    module's doc)."""
    seeded = _seeded_random_statements(c)
    if not seeded:
        return
    sessions: Set[Hashable] = set()
    runs: Dict[int, Hashable] = {}  # seeded statement -> the first run computing it
    for st in c.scope.statements:
        for site in st.run_sites:
            drawn = _drawn_by(c, st, site, seeded)
            if not drawn:
                continue
            session = _session_of(c, st, site)
            if session == _MANY or (sessions and session not in sessions):
                c.block(site.call, "a seeded random op is run in more than one session: TF1 starts its numbers "
                                   "over in each new session, where an eager op continues them")
                return
            sessions.add(session)
            run = (site.style, code(site.fetch), code(site.feed) if site.feed is not None else "")
            for index in drawn:
                if seeded[index] and runs.setdefault(index, run) != run:
                    c.block(site.call, "a seeded random op is run by two different runs: TF1 draws one sequence "
                                       "for both, where each run's function would hold a copy of the op that "
                                       "starts the sequence again")
                    return


def _seeded_random_statements(c: Classifier) -> Dict[int, bool]:
    """The statements drawing seeded random numbers (an op ``seed=``, or a graph seed set before them) -> whether
    their draws reach what runs compute (dropout's do not where a run feeds its keep probability 1.0, as
    evaluations do: not known here, so dropout is left out of the two-runs check)."""
    graph_seeded = False
    seeded: Dict[int, bool] = {}
    for st in c.scope.statements:
        calls = list(all_calls(st.node))
        random = [call for call in calls if c.names.call_name(call) in api.RANDOM_OPS]
        if st.random and st.kind in _PER_RUN and (graph_seeded or any(_given(argument(call, "seed"))
                                                                      for call in random)):
            seeded[st.index] = any(c.names.call_name(call) != "tf.nn.dropout" for call in random)
        graph_seeded = graph_seeded or any(c.names.call_name(call) in api.GRAPH_SEEDS for call in calls)
    return seeded


def _given(seed: Optional[cst.BaseExpression]) -> bool:
    return seed is not None and not (isinstance(seed, cst.Name) and seed.value == "None")


def _drawn_by(c: Classifier, st: "pm.Statement", site, statements) -> Set[int]:
    """Those of ``statements`` whose values the run ``site`` in ``st`` computes (or fetches)."""
    plan = plan_run(c.scope, site, st.index)
    drawn = {needed.index for needed in plan.statements if needed.index in statements}
    for key in plan.reads:
        symbol = c.scope.symbol_at(key, st.index + 1)
        if symbol is not None and symbol.index in statements:
            drawn.add(symbol.index)
    return drawn


def _session_of(c: Classifier, st: "pm.Statement", site) -> Optional[Hashable]:
    """Which session a run runs on, as far as the text tells them apart (``_MANY``: a new one each time)."""
    opened = _opened_in(c, st.node)
    if opened is not None:
        return opened if opened == _MANY else ("statement", st.index)
    for with_node in reversed(st.flat.unwrapped_from):
        if any(isinstance(item.item, cst.Call) and c.names.call_name(item.item) in api.SESSIONS
               for item in with_node.items):
            return ("with", id(with_node))
    if site.style == RUN and isinstance(site.call.func, cst.Attribute):
        session = site.call.func.value  # sess.run(...)
    elif site.style == GLOBAL_STEP:
        session = site.call.args[0].value  # tf.train.global_step(sess, step)
    else:  # y.eval(feed, sess), op.run(session=sess); without one, the default session
        session = argument(site.call, "session", 1)
    key = symbol_key(session) if session is not None else None
    if key is None:
        return ("default",)
    symbol = c.scope.symbol_at(key, st.index + 1)
    return ("binding", key, symbol.index if symbol is not None else None)


def _opened_in(c: Classifier, node: cst.CSTNode) -> Optional[str]:
    """Whether the statement itself opens a session: ``"once"``, or ``_MANY`` inside a loop, a function or a class."""
    finder = _SessionOpenings(c)
    visit(node, finder)
    return finder.found


class _SessionOpenings(RepetitionDepth):
    def __init__(self, c: Classifier) -> None:
        super().__init__()
        self.c = c
        self.found: Optional[str] = None

    def visit_Call(self, node: cst.Call) -> None:
        if self.c.names.call_name(node) in api.SESSIONS:
            self.found = _MANY if self.depth or self.found is not None else "once"
