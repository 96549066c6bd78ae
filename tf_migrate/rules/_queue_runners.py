"""Whether a program builds queue runners: one home for queue-pipelines and idle-queue-runners.

TF1's ``start_queue_runners`` starts the threads of every queue runner the graph holds. Once a program builds
none (no input producer, batcher, ``QueueRunner`` or ``add_queue_runner`` call, and no import of a module of its
own that could add one), the start started no thread, and the ``Coordinator`` around it stopped and joined nothing.
"""
from __future__ import annotations

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.rules import RuleContext
from tf_migrate.traversal import all_nodes

START = {"tf.train.start_queue_runners", "tf.train.queue_runner.start_queue_runners"}
COORDINATOR = "tf.train.Coordinator"
# Calls that add queue runners to the graph.
RUNNER_MAKERS = ("tf.train.string_input_producer", "tf.train.input_producer", "tf.train.range_input_producer",
                 "tf.train.slice_input_producer", "tf.train.batch", "tf.train.shuffle_batch", "tf.train.batch_join",
                 "tf.train.shuffle_batch_join", "tf.train.maybe_batch", "tf.train.maybe_shuffle_batch",
                 "tf.train.maybe_batch_join", "tf.train.maybe_shuffle_batch_join", "tf.train.QueueRunner",
                 "tf.train.add_queue_runner", "tf.train.queue_runner.", "tf.contrib.")


def builds_no_queue_runner(module: cst.Module, ctx: RuleContext) -> bool:
    """No call of ``module`` adds a queue runner, and it imports nothing of its own that could."""
    for call in all_calls(module):
        qualname = ctx.names.call_name(call) or ""
        if qualname not in START and any(
                qualname == maker or (maker.endswith(".") and qualname.startswith(maker)) for maker in RUNNER_MAKERS):
            return False
    for full in ctx.names.aliases.values():
        top = full.split(".")[0]
        if top != "tensorflow" and top not in api.HOST_MODULES:
            return False  # a module of the program, or a library: it may add queue runners to the graph
    for node in all_nodes(module):
        if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
            return False  # (``from inputs import *``: what it binds is not in the aliases)
    return True
