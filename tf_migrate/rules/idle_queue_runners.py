"""``tf.train.start_queue_runners`` in a program that builds no queue runner -> ``[]``: TF1 started no thread.

    coord = tf.train.Coordinator()                              coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)   ->    threads = []
    ...                                                         ...
    coord.request_stop()                                        coord.request_stop()
    coord.join(threads)                                         coord.join(threads)

Code that once read its data through queues, or copied the boilerplate of code that did, starts the queue runners
of a graph that has none: TF1 returned an empty list of threads, and the ``Coordinator`` around them only stopped
and joined nothing. TF2 keeps ``tf.train.Coordinator`` (pure Python, the same class: ``request_stop(e)`` then
``join`` raises ``e`` again, as TF1's did), so only the start, which needs a session, changes: to the list it
returned. The program builds no queue runner when no call of it makes one (``string_input_producer``,
``tf.train.batch`` and the other input producers and batchers, ``QueueRunner``, ``add_queue_runner``) and it imports
no module that could (only TensorFlow, the standard library and the host packages of ``api_tables.HOST_MODULES``).
The session must be the program's own: the module makes one, asks for no default session, and the start does not
run a session a function was given (``def queue_context(sess): ... start_queue_runners(sess=sess)``, a helper
another module's graph calls with its queues). Else the start is left alone, and the file stays compat for it.
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, reads
from tf_migrate.cst.arguments import argument, parameter_names
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._queue_runners import START, builds_no_queue_runner
from tf_migrate.traversal import visit

RULE_ID = "idle-queue-runners"
_DEFAULT_SESSIONS = {"tf.get_default_session", "tf.compat.v1.get_default_session"}


class IdleQueueRunners(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "start_queue_runners where the program builds no queue runner -> [] (TF1 started no thread)"
    ORDER = 41  # after queue-pipelines, which removes the start with the pipeline it converts
    TRIGGERS = ("start_queue_runners",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if not _builds_no_queue_runner(module, ctx):
            return module
        return visit(module, _EmptyStarts(ctx))


def _builds_no_queue_runner(module: cst.Module, ctx: RuleContext) -> bool:
    if not builds_no_queue_runner(module, ctx):
        return False
    made = {ctx.names.call_name(call) for call in all_calls(module)}
    return bool(made & api.SESSIONS) and not made & _DEFAULT_SESSIONS


class _EmptyStarts(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.parameters: List[Set[str]] = []  # of the functions around the node, innermost last

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.parameters.append(set(parameter_names(node.params)))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.parameters.pop()
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.BaseExpression) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) not in START:
            return updated
        session = argument(original, "sess", 0)
        given = set().union(*self.parameters) if self.parameters else set()
        if session is None or any(key.split(".")[0] in given for key in reads(session)):
            return updated  # the default session, or one a function was given: whose graph is not known here
        self.ctx.report(original, RULE_ID, INFO, "the program builds no queue runner: TF1 started no thread and "
                                                  "returned an empty list")
        return cst.List([])
