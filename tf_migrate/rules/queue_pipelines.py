"""TF1 queue pipelines -> ``tf.data``, in TF1's element order where TF1 fixed one.

    filename_queue = tf.train.string_input_producer(['scores.csv'], shuffle=False)
    reader = tf.TextLineReader(skip_header_lines=1)
    key, value = reader.read(filename_queue)
    xy = tf.decode_csv(value, record_defaults=record_defaults)
    x_batch, y_batch = tf.train.batch([xy[0:-1], xy[-1:]], batch_size=10)
    ...
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)

becomes::

    filename_queue = tf.data.Dataset.from_tensor_slices(['scores.csv']).repeat()
    value = filename_queue.flat_map(lambda filename: tf.data.TextLineDataset(filename).skip(1))


    def batch_elements(value):
        xy = tf.decode_csv(value, record_defaults=record_defaults)
        return xy[0:-1], xy[-1:]


    batches = value.map(batch_elements).batch(10, drop_remainder=True)
    x_batch, y_batch = tf.data.make_one_shot_iterator(batches).get_next()

and the coordinator lines go (where the program reads its ``Coordinator`` only to stop and join it; else the
``Coordinator``, TF2's too, stays and the start becomes ``[]``). The dataset-iterators rule then makes the
iterator a Python one whose ``get_next()`` runs in each run that dequeued a batch. What a pipeline is, and what
each part of it means, is :mod:`tf_migrate.rules._queue_survey`'s: text lines, TFRecords, fixed-length records
or whole files of a file-name queue, or slices of tensors (``slice_input_producer`` -> ``from_tensor_slices``),
epoch after epoch (``num_epochs`` or forever), the element code as a function mapped over them, batches (the
last short one dropped unless ``allow_smaller_final_batch=True``). Unseeded shuffles stay shuffles: file names
and slices each epoch (``.shuffle(count)`` before ``.repeat``), ``shuffle_batch``'s queue
(``.shuffle(capacity)`` before ``.batch``). A pipeline the survey refuses keeps the file compat, with the reason
at its line.
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.cst.names import fresh
from tf_migrate.cst.statements import statement_lines
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import pass_if_empty
from tf_migrate.rules._queue_runners import COORDINATOR, START, builds_no_queue_runner
from tf_migrate.rules._queue_elements import assigned_call
from tf_migrate.rules._queue_survey import FILES_PRODUCER, READER_DATASETS, Pipeline, Refusal, survey
from tf_migrate.traversal import visit

RULE_ID = "queue-pipelines"
_COORDINATION = START | {COORDINATOR}
_STOPS = ("request_stop", "join")


class QueuePipelines(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("input producers, readers and batchers -> tf.data in TF1's element order (unseeded shuffles "
                   "shuffled)")
    ORDER = 40
    TRIGGERS = ("input_producer",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        new = visit(module, _Pipelines(ctx, module))
        if new is module or not builds_no_queue_runner(new, ctx):
            return new
        return _without_coordination(new, ctx)


class _Pipelines(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx, self.module = ctx, module
        self.taken: Set[str] = reads(module) | set(writes(module))
        self.functions: List[cst.FunctionDef] = []  # around the node, innermost last

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.functions.pop()
        return updated

    def leave_Module(self, original, updated: cst.Module) -> cst.Module:
        return updated.with_changes(body=self._body(list(original.body), list(updated.body)))

    def leave_IndentedBlock(self, original, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated.with_changes(body=self._body(list(original.body), list(updated.body)))

    def _body(self, original: list, body: list) -> list:
        scope = self.functions[-1] if self.functions else self.module
        found = survey(original, self.ctx, self.module, scope)
        if found is None:
            return body
        if isinstance(found, Refusal):
            self.ctx.block(found.node, found.why)
            return body
        new = self._rewrite(found, body)
        order = "shuffled as TF1 shuffled it, without a seed" if (found.shuffled or found.shuffle_buffer) else (
            "in TF1's element order")
        self.ctx.report(original[found.source], RULE_ID, INFO, f"queue pipeline -> tf.data, {order}")
        out = []
        for index, statement in enumerate(body):
            if index == found.source:
                out.extend(new[0])
                if found.batch == found.source:  # slices read as they are: the iterator right after them
                    out.extend(new[1])
            elif index == found.batch:
                out.extend(new[1])
            elif index not in found.removed:
                out.append(statement)
        return out

    def _blank_lines(self) -> List[cst.EmptyLine]:
        """Around the element function: two blank lines at module level, one in a function (PEP 8)."""
        return [cst.EmptyLine(indent=False)] * (1 if self.functions else 2)

    def _fresh(self, stem: str) -> str:
        return fresh(stem, self.taken)

    def _rewrite(self, p: Pipeline, body: list):
        tf = self.ctx.tf
        repeat = f".repeat({code(p.epochs)})" if p.epochs is not None else ".repeat()"
        head: List[cst.BaseStatement] = []
        if p.source_kind == FILES_PRODUCER:
            names, data = p.queue, code(p.data)
        else:
            names = self._fresh("slices")
            data = _tuple_of(p.data)
        if p.shuffled:
            head.append(_line(f"{names} = {tf}.data.Dataset.from_tensor_slices({data})"))
            head.append(_line(f"{names} = {names}.shuffle({names}.cardinality()){repeat}"))
        else:
            head.append(_line(f"{names} = {tf}.data.Dataset.from_tensor_slices({data}){repeat}"))
        if p.source_kind == FILES_PRODUCER:
            records, parameters = self._records(p, head, names)
        else:
            records = names
            parameters = [f"*{p.element_star}"] if p.element_star else list(p.element_names)
        returned = p.tensors
        listed = ", ".join(code(e.value) for e in returned.elements) if isinstance(returned, (cst.List, cst.Tuple)) \
            else None
        # (a one-tensor list: TF1's batcher handed back the tensor itself, as the dataset does)
        tail: List[cst.BaseStatement] = []
        mapped = ""
        identity = not p.element and (listed == ", ".join(parameters) or (
            p.element_star is not None and code(returned) == p.element_star))  # the element as it is: no map
        if not identity:
            element = self._fresh("read_element" if p.unbatched else "batch_elements")
            body_text = "".join(code(s) for s in p.element) + f"return {listed or code(returned)}\n"
            function = cst.parse_statement(f"def {element}({', '.join(parameters)}):\n" + _indent(body_text))
            tail.append(function.with_changes(leading_lines=self._blank_lines()))
            mapped = f".map({element})"
        if p.unbatched:
            batches = self._fresh("elements")
            batched = _line(f"{batches} = {records}{mapped}")
        else:
            shuffle = f".shuffle({code(p.shuffle_buffer)})" if p.shuffle_buffer is not None else ""
            drop = "" if p.smaller_final else ", drop_remainder=True"
            batches = self._fresh("batches")
            batched = _line(f"{batches} = {records}{mapped}{shuffle}.batch({code(p.batch_size)}{drop})")
        if tail:
            batched = batched.with_changes(leading_lines=self._blank_lines())
        tail.append(batched)
        tail.append(_line(f"{code(p.targets)} = {tf}.data.make_one_shot_iterator({batches}).get_next()"))
        return head, tail

    def _records(self, p: Pipeline, head: list, names: str):
        """The statement binding the dataset of records read from the files; its name, and the element
        function's parameters."""
        tf = self.ctx.tf
        filename = self._fresh("filename")
        if p.reader == "tf.WholeFileReader":
            if p.key is None:
                head.append(_line(f"{p.value} = {names}.map({tf}.io.read_file)"))
                return p.value, [p.value]
            records = self._fresh("files_read")
            head.append(_line(f"{records} = {names}.map(lambda {filename}: ({filename}, "
                              f"{tf}.io.read_file({filename})))"))
            return records, [p.key, p.value]
        dataset = READER_DATASETS[p.reader]
        arguments = "".join(f", {code(a)}" for a in p.reader_args)
        skip = f".skip({code(p.skip)})" if p.skip is not None else ""
        head.append(_line(f"{p.value} = {names}.flat_map(lambda {filename}: "
                          f"{tf}.data.{dataset}({filename}{arguments}){skip})"))
        return p.value, [p.value]


def _without_coordination(module: cst.Module, ctx: RuleContext) -> cst.Module:
    """The Coordinator and queue-runner lines gone where the program only stops and joins them; else each start
    is ``[]``, the threads TF1 started for the queues the program no longer builds."""
    names: Set[str] = set()
    for statement in statement_lines(module):
        call = assigned_call(statement)
        if call is not None and ctx.names.call_name(call) in _COORDINATION:
            names.update(k for t in statement.body[0].targets if (k := symbol_key(t.target)))
    dropper = _DropCoordination(ctx, names)
    dropped = visit(module, dropper)
    if not names & reads(dropped):
        return dropped
    return visit(module, _EmptyStarts(ctx))


class _DropCoordination(cst.CSTTransformer):
    """Removes the Coordinator, the queue-runner starts and the lines that stop and join them."""

    def __init__(self, ctx: RuleContext, names: Set[str]) -> None:
        self.ctx, self.names = ctx, names

    def leave_SimpleStatementLine(self, original, updated: cst.SimpleStatementLine):
        line = updated.body[0] if len(updated.body) == 1 else None
        value = line.value if isinstance(line, (cst.Assign, cst.Expr)) else None
        if isinstance(value, cst.Call) and (self.ctx.names.call_name(value) in _COORDINATION or (
                isinstance(value.func, cst.Attribute) and symbol_key(value.func.value) in self.names
                and value.func.attr.value in _STOPS)):
            return cst.RemoveFromParent()
        return updated

    def leave_IndentedBlock(self, original, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated if updated.body else updated.with_changes(body=pass_if_empty(updated.body))


class _EmptyStarts(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    def leave_Call(self, original: cst.Call, updated: cst.BaseExpression) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) in START:
            return cst.List([])
        return updated


def _tuple_of(tensors: cst.BaseExpression) -> str:
    """The tensors ``slice_input_producer`` took, as the tuple ``from_tensor_slices`` slices together."""
    if not isinstance(tensors, (cst.List, cst.Tuple)):
        return f"tuple({code(tensors)})"
    items = [code(e.value) for e in tensors.elements]
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _line(text: str) -> cst.BaseStatement:
    return cst.parse_statement(text + "\n")


def _indent(text: str) -> str:
    return "".join("    " + line if line.strip() else line for line in text.splitlines(keepends=True))
