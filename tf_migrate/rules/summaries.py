"""TF1 summaries -> tf.summary writes at the same steps.

    tf.summary.scalar("loss", loss)                merged = {"loss": loss, "inputs": x}
    tf.summary.histogram("inputs", x)       ->
    merged = tf.summary.merge_all()
    writer = tf.summary.FileWriter(logdir, g)      writer = tf.summary.create_file_writer(logdir)
    s, _ = sess.run([merged, train], feed)         s, _ = run_merged_train(...)    (values, as numpy)
    writer.add_summary(s, step)                    with writer.as_default(step=step):
                                                       tf.summary.scalar("loss", s["loss"])
                                                       tf.summary.histogram("inputs", s["inputs"])

The merged summary becomes a dict of the summarized tensors, which the
session rule fetches like any other structure; each ``add_summary`` writes
its values with the kind the TF1 summary had, at the same step (0 when TF1
passed none). Tags keep their name-scope prefix. The event files are
TensorBoard's, as before.

A program written in one function (``def train():`` building the graph, its summaries, the writer and the
session) is surveyed as the module is, and so is a class whose ``__init__`` builds the summaries and merges them,
made once (``self.merged = tf.summary.merge_all()``, then ``model = Model()`` and ``sess.run(model.merged)``:
``rules/_summary_programs``). The rule is all-or-nothing for a file: a
summary it cannot trace to its ``add_summary`` (merged lists, summaries built in other functions than summary
helpers or that one, ``family=``) leaves the file as it was, so the TF1 summary APIs keep it in compat mode.

This module surveys the summaries (``_Survey``); ``rules/_summary_writes.py`` rewrites what it found.
"""
from __future__ import annotations

import os

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import reads, symbol_key
from tf_migrate.cst.names import all_names
from tf_migrate.cst.text import code, module_code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import with_module_helper
from tf_migrate.rules._summary_helpers import (
    KINDS, SUMMARIES_KEY, Helper, NameScopes, Unsupported as _Unsupported, find_helpers, merged_key, op_names, replay,
    scope_name, summary_call,
)
from tf_migrate.rules._summary_programs import ClassProgram, class_program, program_function
from tf_migrate.rules._summary_writes import DROPPED_WRITES, Summary, SummaryWrites
from tf_migrate.traversal import visit

RULE_ID = "summaries"


class SummariesToTF2(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.summary.scalar/histogram/image/text + merge_all + FileWriter.add_summary -> "
                   "create_file_writer and tf.summary writes at the same steps")
    ORDER = 60
    TRIGGERS = ("summary",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if "tf.summary" not in module_code(module) and "summary." not in module_code(module):
            return module
        try:
            survey = _Survey(ctx, find_helpers(module, ctx.names), program_function(module, ctx.names),
                             class_program(module, ctx.names))
            visit(module, survey)
            if not (survey.registered or survey.merges or survey.writers or survey.graph_writers or survey.helpers):
                return module
            survey.check()
        except _Unsupported as why:
            ctx.report(None, RULE_ID, WARNING, f"summaries not converted: {why}")
            # TF2's tf.summary.* write to a default writer and return a bool: TF1's must stay TF1.
            ctx.block(None, f"TF1 summaries kept (not converted: {why})")
            return module
        if survey.registered or survey.merges:  # create_file_writer alone is TF's own
            if _shadows_tensorboard(ctx.path):
                # TF2's summary ops import the tensorboard package at their first call: run as a script, this
                # file is that module (kennysong's tf-tutorial `tensorboard.py`, held-out probe 45: the import ran the
                # program again inside the first write's trace, which crashed)
                ctx.block(None, "this file is named tensorboard.py: TF2's tf.summary writes import the tensorboard "
                                "package, which the script's own module shadows when it runs (rename the file to "
                                "convert its summaries)")
                return module
            ctx.report(None, RULE_ID, INFO, "eager tf.summary writes need the tensorboard package "
                                            "(TF 2.21 no longer installs it: pip install tensorboard)")
        rewrite = SummaryWrites(ctx, RULE_ID, survey, all_names(module))
        module = visit(module, rewrite)
        for source in reversed(rewrite.writer_functions.values()):
            module = with_module_helper(module, source)
        return module


def _shadows_tensorboard(path: str) -> bool:
    """Whether a script at ``path`` is a module named ``tensorboard`` (its folder comes first on ``sys.path``)."""
    return os.path.splitext(os.path.basename(path or ""))[0] == "tensorboard" and str(path).endswith(".py")


# What code may do with a TF1 FileWriter whose rewrite is a TF2 writer (TF2's has close and flush too).
_WRITER_METHODS = {"add_summary", "close", "flush"}
class _Survey(cst.CSTVisitor):
    """Where summaries are registered, merged, fetched and written."""

    def __init__(self, ctx: RuleContext, helpers: Dict[str, Helper], program: Optional[cst.FunctionDef] = None,
                 class_program: Optional[ClassProgram] = None) -> None:
        """``program``: a function holding the whole summary program (``def train():``), surveyed as the module;
        ``class_program``: a class whose ``__init__`` builds the summaries, made once (its ``self.merged`` is the
        object's: ``model.merged`` where the module made ``model = Model()``)."""
        self.ctx = ctx
        self.program = program
        self.class_program = class_program
        self.class_ops: List[str] = []  # the names of the ops module code makes outside the class program
        self.helpers = helpers
        self.helper_calls: Dict[int, Summary] = {}  # statement line id -> the summaries its helper call registered
        self.helper_defs: List[cst.FunctionDef] = []
        self.module_bindings: Dict[str, int] = {}  # how often module code binds each name
        self.scopes = NameScopes()
        self.depth = 0  # inside a def: summaries there are not traced
        self.in_class = 0  # inside the class program's class
        self.writing = 0  # inside `with writer.as_default(...)`: TF2 writes, not TF1 registrations
        self.registered: Dict[int, Summary] = {}  # statement line id -> summary
        self.named: Dict[str, Summary] = {}  # s = tf.summary.scalar(...)
        self.order: List[Summary] = []
        self.merges: Dict[str, List[Summary]] = {}  # merged name -> summaries
        self.merge_statements: Dict[int, str] = {}
        self.writers: set = set()
        self.graph_writers = 0  # `tf.summary.FileWriter(logdir, sess.graph)` as a statement: writes the graph only
        self.tf2_writers: set = set()  # w = tf.summary.create_file_writer(...): its as_default() writes
        self.fetched: Dict[str, str] = {}  # variable holding a fetched merge -> merge name
        self.add_calls: List[cst.Call] = []
        self.add_sources: Dict[int, Optional[str]] = {}  # add_summary call -> the merge its value was last fetched from
        self.dropped: Set[int] = set()  # `writer.add_graph` / `.add_run_metadata` of statements `writer.x(...)`

    def _surveyed_as_module(self, node: cst.FunctionDef) -> bool:
        return node is self.program or (self.class_program is not None and node is self.class_program.init)

    def visit_FunctionDef(self, node) -> Optional[bool]:
        self.depth += not self._surveyed_as_module(node)
        if self.depth == 1 and node.name.value in self.helpers:
            self.helper_defs.append(node)
            return False
        return None

    def leave_FunctionDef(self, node) -> None:
        self.depth -= not self._surveyed_as_module(node)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.in_class += self.class_program is not None and node is self.class_program.cls

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.in_class -= self.class_program is not None and node is self.class_program.cls

    def _object_key(self, expression: Optional[cst.BaseExpression]) -> Optional[str]:
        """The symbol key of ``expression``, and ``self.merged`` for ``model.merged`` of the class program's object
        (as its ``__init__`` named it)."""
        if (self.class_program is not None and isinstance(expression, cst.Attribute)
                and isinstance(expression.value, cst.Name) and expression.value.value == self.class_program.instance):
            return "self." + expression.attr.value
        return symbol_key(expression) if expression is not None else None

    def _writes_tf2(self, node: cst.With) -> bool:
        """``with writer.as_default(step=...)`` of a TF2 writer (not ``graph.as_default()``)."""
        for item in node.items:
            call = item.item
            if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                    and call.func.attr.value == "as_default"):
                continue
            receiver = call.func.value
            if (any(a.keyword is not None and a.keyword.value == "step" for a in call.args)
                    or symbol_key(receiver) in self.tf2_writers
                    or (isinstance(receiver, cst.Call)
                        and self.ctx.names.call_name(receiver) == "tf.summary.create_file_writer")):
                return True
        return False

    def visit_With(self, node: cst.With) -> None:
        if self._writes_tf2(node):
            self.writing += 1
        for item in node.items:
            self.scopes.push(scope_name(item.item, self.ctx.names))
            if isinstance(item.item, cst.Call) and self.ctx.names.call_name(item.item) == "tf.summary.FileWriter":
                named = symbol_key(item.asname.name) if item.asname is not None else None
                if named:  # `with tf.summary.FileWriter(logdir, sess.graph) as writer:`
                    self.writers.add(named)
                else:
                    self.graph_writers += 1

    def leave_With(self, node: cst.With) -> None:
        if self._writes_tf2(node):
            self.writing -= 1
        for _ in node.items:
            self.scopes.pop()

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.helpers and not any(node is s.value.func for s in self.helper_calls.values()):
            raise _Unsupported(f"summary helper `{node.value}` used other than called as a statement")

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if symbol_key(node.value) in self.writers and node.attr.value not in _WRITER_METHODS and not (
                node.attr.value in DROPPED_WRITES and id(node) in self.dropped):
            raise _Unsupported(f"`{code(node)}` of a FileWriter: TF2's summary writer has no such method")

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._binds(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._binds(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._binds(node.target)

    def _binds(self, target: cst.BaseExpression) -> None:
        if not self.depth:
            for key in reads(target):
                self.module_bindings[key] = self.module_bindings.get(key, 0) + 1


    def _summary(self, call: cst.Call) -> Optional[Summary]:
        if self.writing or self.ctx.names.call_name(call) not in KINDS:
            return None
        if self.depth:
            raise _Unsupported("a summary built inside a function other than a summary helper")
        self._check_scopes_known()
        found = summary_call(call, self.ctx.names)
        return Summary(found.kind, self.scopes.unique(found.name), found.value, found.extra,
                        collections=found.collections if found.collections is not None else (SUMMARIES_KEY,))

    def _check_scopes_known(self) -> None:
        if not self.scopes.known:  # (TF1 prefixed the tag with that scope's name)
            raise _Unsupported("a summary under a name scope whose name the text does not give "
                               "(`with tf.name_scope(name):` of a variable)")

    def _helper_call(self, call: cst.Call) -> Summary:
        """The summaries a statement ``helper(args)`` registers, as one group of the merged dict."""
        if self.depth:
            raise _Unsupported("a summary helper called inside a function")
        self._check_scopes_known()
        if any(a.star or isinstance(n, cst.Call) for a in call.args for n in [a.value]):
            raise _Unsupported("a summary helper called with computed arguments")
        helper = self.helpers[call.func.value]
        key, taken, count = code(call), {s.tag for s in self.order}, 1
        while key in taken:  # the same call twice: its summaries are registered twice, under other tags
            count += 1
            key = f"{code(call)} #{count}"
        members = [(inner, tag, helper.summaries[inner]) for inner, tag in replay(helper, self.scopes)]
        return Summary("group", key, call, [], members)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if not self.depth and not self.writing:  # the ops' names come first: a summary named alike gets `_1`
            for name in op_names(node, self.ctx.names):
                if self.class_program is not None and not self.in_class:
                    self.class_ops.append(name)  # (made in another order than the text's: checked at the end)
                else:
                    self.scopes.unique(name)
        if len(node.body) != 1:
            return
        small = node.body[0]
        value = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
        if not isinstance(value, cst.Call):
            return
        if isinstance(small, cst.Expr) and isinstance(value.func, cst.Attribute):
            self.dropped.add(id(value.func))  # (what the rewrite drops: a statement of the call alone)
        qualname = self.ctx.names.call_name(value) or ""
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        target_key = symbol_key(target) if target is not None else None
        if isinstance(small, cst.Expr) and isinstance(value.func, cst.Name) and value.func.value in self.helpers:
            group = self._helper_call(value)
            self.helper_calls[id(node)] = group
            self.order.append(group)
            return
        summary = self._summary(value)
        if summary is not None:
            self.registered[id(node)] = summary
            self.order.append(summary)
            if target_key:
                self.named[target_key] = summary
            return
        if qualname == "tf.summary.merge_all" and target_key:
            key = merged_key(value, self.ctx.names)
            self.merges[target_key] = [summary for summary in self.order if key in summary.collections]
            self.merge_statements[id(node)] = target_key
        elif qualname == "tf.summary.merge" and target_key:
            members = value.args[0].value if value.args else None
            if not isinstance(members, (cst.List, cst.Tuple)):
                raise _Unsupported("tf.summary.merge of a computed list")
            keys = [symbol_key(e.value) for e in members.elements]
            if not keys:
                raise _Unsupported("tf.summary.merge of an empty list")
            if any(k not in self.named for k in keys):
                raise _Unsupported("tf.summary.merge of summaries it cannot see")
            self.merges[target_key] = [self.named[k] for k in keys]
            self.merge_statements[id(node)] = target_key
        elif qualname == "tf.summary.FileWriter" and target_key:
            self.writers.add(target_key)
        elif qualname == "tf.summary.FileWriter" and isinstance(small, cst.Expr):
            self.graph_writers += 1
        elif qualname == "tf.summary.create_file_writer" and target_key:
            self.tf2_writers.add(target_key)
        elif target is not None and isinstance(value.func, cst.Attribute) and value.func.attr.value == "run":
            self._fetch(target, value)
        elif (isinstance(value.func, cst.Attribute) and value.func.attr.value == "add_summary"
              and symbol_key(value.func.value) in self.writers):
            self.add_calls.append(value)  # (a name fetched from two merges: the fetch before it, in the text)
            self.add_sources[id(value)] = self.fetched.get(symbol_key(value.args[0].value)) if value.args else None

    def _fetch(self, target, call: cst.Call) -> None:
        fetch = call.args[0].value if call.args else None
        merges = set(self.merges) | set(self.named)
        if self._object_key(fetch) in merges:
            if symbol_key(target):
                self.fetched[symbol_key(target)] = self._object_key(fetch)
            return
        if isinstance(fetch, (cst.List, cst.Tuple)) and isinstance(target, (cst.List, cst.Tuple)):
            for element, slot in zip(fetch.elements, target.elements):
                if self._object_key(element.value) in merges and symbol_key(slot.value):
                    self.fetched[symbol_key(slot.value)] = self._object_key(element.value)

    def check(self) -> None:
        if self.class_program is not None:
            self._check_class_program()
        called = {group.value.func.value for group in self.helper_calls.values()}
        for name in self.helpers:
            if name not in called:  # its TF1 summaries stay in it, and TF2's would write nothing
                raise _Unsupported(f"summary helper `{name}` is not called in this file")
        for group in self.helper_calls.values():
            if any(self.module_bindings.get(k, 0) > 1 for k in reads(group.value)):
                # the call moves to the merged summary: its arguments must mean there what they meant at the call
                raise _Unsupported(f"`{code(group.value)}` reads a name bound again in the program")
        for merge in self.fetched.values():
            if merge in self.merges and not self.merges[merge]:
                # TF1's merge_all() of nothing is None, which sess.run rejects: keep TF1's behaviour, error included
                raise _Unsupported(f"{merge} = merge_all() with no summary registered before it is None in TF1, "
                                   "and it is fetched")
        for call in self.add_calls:
            if self.add_sources[id(call)] is None:
                raise _Unsupported("add_summary of a value not fetched from a merged summary before it")
        if any(k in self.merges or k in self.named for k in self.fetched.values()) and not self.writers:
            raise _Unsupported("summaries fetched but no FileWriter writes them")

    def _check_class_program(self) -> None:
        """TF1 made the class program's summaries when the module made its object, after (and before) the module
        code around it: a summary whose tag an op of that code could have taken first, or an object name bound
        again, is not known."""
        program = self.class_program
        if program.bindings > 1:  # (another object under the name: its `.merged` would not be this one's)
            raise _Unsupported(f"`{program.instance}`, the `{program.cls.name.value}` whose __init__ builds the "
                               "summaries, is bound again")
        roots = {summary.tag.split("/")[0].lower() for summary in self.order}
        taken = sorted(roots & {name.lower() for name in self.class_ops})
        if taken:
            raise _Unsupported(f"module code makes an op named `{taken[0]}` besides the summary of that name that "
                               f"`{program.cls.name.value}.__init__` builds (which TF1 tagged depends on the order)")
