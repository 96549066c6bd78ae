"""A graph an object makes for itself (``self.g = tf.Graph()``, built under ``with self.g.as_default():``) -> the
program's one eager world.

    class TfLinreg(object):                               class TfLinreg(object):
        def __init__(self, x_dim, random_seed=None):          def __init__(self, x_dim, random_seed=None):
            self.g = tf.Graph()                                   tf.set_random_seed(random_seed)
            with self.g.as_default():                ->           self.build()
                tf.set_random_seed(random_seed)                   self.init_op = tf.global_variables_initializer()
                self.build()
                self.init_op = tf.global_variables_initializer()
    sess = tf.Session(graph=lrmodel.g)                    sess = tf.Session()

Model classes written for TF1 often keep their graph on the object (rasbt's book chapters, pat-coady's TRPO
policy and value function): each object's variables, ops and graph-level seed live in a graph of its own, run by a
session given that graph. Eager TF2 has no graphs to keep apart: the object's variables are its own Python
attributes, and its runs become its generated methods, as for a class that builds in the default graph. The
``with`` block is unwrapped (the session rule and the class analysis read its statements as ``__init__``'s, where
they read a compound statement as a block they do not convert), the graph goes, and sessions drop ``graph=``.

Only where the attribute holds that graph and nothing else reads it: bound once, to ``tf.Graph()``, in a method of
the class; named otherwise only as the single item of ``with self.g.as_default():`` in the class's methods and as
``graph=`` of a ``tf.Session`` / ``tf.InteractiveSession`` (``graph=model.g`` anywhere in the module). What TF1 kept
apart by graph and a program could still tell apart (variable names made unique per graph, collections listed per
graph) is what the rest of the analysis checks for the default graph too; but a graph-wide list made outside the
object's blocks (``tf.train.Saver()``, ``tf.trainable_variables()`` at module level: TF1 listed the default graph,
without the object's variables) keeps the file as it is.
"""
from __future__ import annotations

from typing import List, Set, Union

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.names import attribute_mentions
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import block_statements, pass_if_empty
from tf_migrate.traversal import visit

RULE_ID = "own-graphs"
_SESSIONS = {"tf.Session", "tf.InteractiveSession"}
# What lists a graph's contents: outside the object's blocks TF1 read the default graph, which held none of it.
_GRAPH_WIDE = api.VARIABLE_COLLECTIONS | api.SAVERS | {"tf.all_variables", "tf.local_variables", "tf.model_variables",
                                                      "tf.get_collection_ref", "tf.summary.merge_all",
                                                      "tf.get_default_graph", "tf.train.import_meta_graph"}


class OwnGraphs(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("self.g = tf.Graph() and `with self.g.as_default():` in a class -> the default graph (sessions "
                   "drop graph=self.g)")
    ORDER = 1  # before inline-build-methods and every rule that reads what a class builds
    TRIGGERS = ("Graph(",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        finder = _Uses(ctx)
        visit(module, finder)
        mentions = attribute_mentions(module)
        graphs = {attribute for attribute, count in finder.bindings.items()
                  if count == 1 and mentions.get(attribute, 0) == 1 + finder.blocks.get(attribute, 0)
                  + finder.session_args.get(attribute, 0)}
        if graphs and finder.graph_wide:  # another graph's list that would now take in the object's variables
            call = finder.graph_wide[0]
            ctx.report(call, RULE_ID, WARNING, f"objects keep graphs of their own, and `{ctx.names.call_name(call)}` "
                                            "outside them lists what another graph holds: left as it is")
            return module
        if not graphs:
            return module
        for attribute in sorted(graphs):
            ctx.report(finder.binding_nodes[attribute], RULE_ID, INFO,
                       f"`self.{attribute}`, the object's own graph -> the program's default graph (its `with "
                       "...as_default():` blocks unwrapped, `graph=` dropped from its sessions)")
        return visit(module, _Unwrap(ctx, graphs))


def _graph_attribute(node: cst.BaseExpression) -> str:
    """``g`` for ``self.g``, else ''."""
    key = symbol_key(node)
    return key.split(".", 1)[1] if key and key.startswith("self.") and key.count(".") == 1 else ""


class _Uses(cst.CSTVisitor):
    """Per attribute: its bindings to ``tf.Graph()`` in classes, its ``as_default`` blocks, its ``graph=`` uses."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.depth = 0  # classes entered
        self.bindings: dict = {}
        self.binding_nodes: dict = {}
        self.blocks: dict = {}
        self.session_args: dict = {}
        self.inside = 0  # `with self.g.as_default():` blocks entered
        self.graph_wide: List[cst.Call] = []  # graph-wide lists outside those blocks (in TF1, of another graph)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.depth += 1

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.depth -= 1

    def visit_Assign(self, node: cst.Assign) -> None:
        if self.depth and len(node.targets) == 1 and isinstance(node.value, cst.Call) and not node.value.args \
                and self.ctx.names.call_name(node.value) == "tf.Graph":
            attribute = _graph_attribute(node.targets[0].target)
            if attribute:
                self.bindings[attribute] = self.bindings.get(attribute, 0) + 1
                self.binding_nodes[attribute] = node

    def visit_With(self, node: cst.With) -> None:
        attribute = _as_default(node) if self.depth else ""
        if attribute:
            self.blocks[attribute] = self.blocks.get(attribute, 0) + 1
            self.inside += 1

    def leave_With(self, node: cst.With) -> None:
        if _as_default(node) and self.depth:
            self.inside -= 1

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.ctx.names.call_name(node)
        if not self.inside and qualname in _GRAPH_WIDE:
            self.graph_wide.append(node)
        if qualname in _SESSIONS:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "graph" and isinstance(arg.value, cst.Attribute):
                    attribute = arg.value.attr.value
                    self.session_args[attribute] = self.session_args.get(attribute, 0) + 1


def _as_default(node: cst.With) -> str:
    """``g`` for ``with self.g.as_default():`` (its only item, no ``as``), else ''."""
    if len(node.items) != 1 or node.items[0].asname is not None:
        return ""
    call = node.items[0].item
    if isinstance(call, cst.Call) and not call.args and isinstance(call.func, cst.Attribute) \
            and call.func.attr.value == "as_default":
        return _graph_attribute(call.func.value)
    return ""


class _Unwrap(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, graphs: Set[str]) -> None:
        self.ctx = ctx
        self.graphs = graphs

    def leave_With(self, original: cst.With, updated: cst.With) -> Union[cst.With, cst.FlattenSentinel]:
        if _as_default(original) not in self.graphs:
            return updated
        body = block_statements(updated.body)
        body[0] = body[0].with_changes(leading_lines=[*updated.leading_lines, *body[0].leading_lines])
        return cst.FlattenSentinel(body)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
                                  ) -> Union[cst.SimpleStatementLine, cst.RemovalSentinel]:
        small = updated.body[0] if len(updated.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Call) \
                and self.ctx.names.call_name(small.value) == "tf.Graph" \
                and _graph_attribute(small.targets[0].target) in self.graphs:
            return cst.RemovalSentinel.REMOVE
        return updated

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated.with_changes(body=pass_if_empty(updated.body)) if not updated.body else updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if self.ctx.names.call_name(original) not in _SESSIONS:
            return updated
        kept: List[cst.Arg] = [arg for arg in updated.args if not (
            arg.keyword is not None and arg.keyword.value == "graph" and isinstance(arg.value, cst.Attribute)
            and arg.value.attr.value in self.graphs)]
        if len(kept) == len(updated.args):
            return updated
        if kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(args=kept)
