"""Programs that start TF1's distributed runtime stay in compat mode, with the reason at the line.

``tf.train.Server`` starts a gRPC server; ``tf.Session(server.target)`` (or any target) runs the
graph on it, and ``tf.device('/job:local/task:1')`` places ops on its tasks. Eager code has no
session to send the graph to: the rewrite would run everything in the local process, on other
devices than the program asked for, while still starting the servers. The analysis does not model
clusters, so such a file keeps TF1 semantics.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "distributed-runtime"
_SERVERS = {"tf.train.Server", "tf.distribute.Server", "tf.compat.v1.train.Server"}
_SESSIONS = {"tf.Session", "tf.compat.v1.Session", "tf.InteractiveSession", "tf.compat.v1.InteractiveSession"}


class DistributedRuntime(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.train.Server and sessions given a target keep the file in compat mode (no eager cluster runtime)"
    ORDER = 30
    TRIGGERS = ("Server", "Session(")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        visit(module, _Finder(ctx))
        return module


class _Finder(cst.CSTVisitor):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def visit_Call(self, node: cst.Call) -> None:
        name = self.ctx.names.call_name(node)
        if name in _SERVERS:
            self.ctx.block(node, f"`{name}` starts TF1's distributed runtime (a gRPC server): eager code has no "
                                 "session to run the graph on it; kept in compat mode")
        elif name in _SESSIONS and any(_is_target(arg) for arg in node.args):
            self.ctx.block(node, f"`{name}` given a target runs the graph on another server; eager code runs in "
                                 "this process: kept in compat mode")


def _is_target(arg: cst.Arg) -> bool:
    """The session's first argument, or ``target=``, unless it is the local default ``''``."""
    if arg.star or not (arg.keyword is None or arg.keyword.value == "target"):
        return False
    return not (isinstance(arg.value, cst.SimpleString) and arg.value.evaluated_value == "")
