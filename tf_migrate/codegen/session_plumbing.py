"""A session-only function's body without its session (see :mod:`tf_migrate.analysis.session_functions`)."""
from __future__ import annotations

from typing import Callable, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.statement_facts import only_initializers
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit


def without_sessions(function: cst.FunctionDef, sessions: Set[str], scope: "pm.Scope",
                     names: TFNames) -> cst.FunctionDef:
    """``function`` (a session-only function of ``scope``, its runs already replaced) without the sessions it
    binds to ``sessions``."""
    return visit(function, SessionPlumbing(sessions, names, Classifier(scope, names).kind_of))


class SessionPlumbing(cst.CSTTransformer):
    """A session-only function's body without its sessions: ``with tf.Session() as sess:`` unwrapped,
    ``sess = tf.Session()``, initializer runs and ``sess.close()`` removed."""

    def __init__(self, sessions: Set[str], names: TFNames, kind_of: Callable[[cst.BaseExpression], Optional[str]]):
        self.sessions, self.names, self.kind_of = sessions, names, kind_of

    def _session(self, node: cst.BaseExpression) -> bool:
        return symbol_key(node) in self.sessions or (isinstance(node, cst.Call)
                                                     and self.names.call_name(node) in api.SESSIONS)

    def leave_With(self, original: cst.With, updated: cst.With):
        kept = [item for item in updated.items if not self._session(item.item)]
        if len(kept) == len(updated.items):
            return updated
        if kept:
            return updated.with_changes(items=[*kept[:-1], kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)])
        return cst.FlattenSentinel([*updated.body.body]) if updated.body.body else cst.RemoveFromParent()

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if len(updated.body) != 1:
            return updated
        small = updated.body[0]
        value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
        if isinstance(small, cst.Assign) and self._session(value):
            return cst.RemoveFromParent()  # sess = tf.Session()
        if isinstance(small, cst.Expr) and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            method, receiver = value.func.attr.value, value.func.value
            if method == "close" and self._session(receiver):
                return cst.RemoveFromParent()
            if method == "run" and self._session(receiver) and value.args and \
                    only_initializers(value.args[0].value, self.kind_of):
                return cst.RemoveFromParent()  # sess.run(tf.global_variables_initializer())
            if method == "run" and not value.args and only_initializers(receiver, self.kind_of):
                return cst.RemoveFromParent()  # tf.global_variables_initializer().run()
        return updated
