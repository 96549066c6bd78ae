"""A TF1 reader pipeline over text files -> ``tf.data`` with the same element order.

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

and the coordinator lines go. The dataset-iterators rule then makes the iterator a Python one whose
``get_next()`` runs in each run that dequeued a batch. TF1's order is kept where it was fixed: the
file names in their order (``shuffle=False``), epoch after epoch (``num_epochs`` or forever), each
file's lines in order after its header lines, one thread batching them (``tf.train.batch`` with
``num_threads=1``), a last short batch dropped unless ``allow_smaller_final_batch=True``.

Left as they are (TF1 APIs the analysis blocks, the file compat with the reason): shuffled file
names, ``shuffle_batch``, several threads, the key read, other readers, element code that reads
anything per-run (a placeholder, a variable), and pipelines built across functions.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import pass_if_empty
from tf_migrate.traversal import visit

RULE_ID = "queue-pipelines"
_PRODUCER, _READER, _BATCH = "tf.train.string_input_producer", "tf.TextLineReader", "tf.train.batch"
_COORDINATION = {"tf.train.Coordinator", "tf.train.start_queue_runners"}
_PRODUCER_ARGS = {"string_tensor", "shuffle", "num_epochs", "name", "capacity"}
_BATCH_ARGS = {"tensors", "batch_size", "num_threads", "capacity", "allow_smaller_final_batch", "name"}


class QueuePipelines(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "string_input_producer + TextLineReader + tf.train.batch -> tf.data in TF1's element order"
    ORDER = 40
    TRIGGERS = ("string_input_producer",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return visit(module, _Pipelines(ctx, module))


class _Pipelines(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx = ctx
        self.taken: Set[str] = reads(module) | set(writes(module))
        self.coordination: Set[str] = set()  # names bound to a Coordinator or the queue-runner threads

    def leave_Module(self, original, updated: cst.Module) -> cst.Module:
        body = self._body(list(updated.body))
        return updated.with_changes(body=self._without_coordination(body) if self.coordination else body)

    def leave_IndentedBlock(self, original, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated.with_changes(body=self._body(list(updated.body)))

    def _body(self, body: list) -> list:
        pipeline = _find(body, self.ctx)
        if pipeline is None:
            return body
        new = self._rewrite(pipeline)
        self.ctx.report(body[pipeline.producer], RULE_ID, INFO, "queue pipeline -> tf.data in TF1's element order")
        out = []
        for index, statement in enumerate(body):
            if index == pipeline.producer:
                out.extend(new[:2])
            elif index == pipeline.batch:
                out.extend(new[2:])
            elif index not in pipeline.removed:
                out.append(statement)
        return out

    def _rewrite(self, p: "_Pipeline") -> List[cst.BaseStatement]:
        tf = self.ctx.tf
        repeat = f".repeat({code(p.epochs)})" if p.epochs is not None else ".repeat()"
        skip = f".skip({code(p.skip)})" if p.skip is not None else ""
        element = fresh("batch_elements", self.taken)
        self.taken.add(element)
        batches = fresh("batches", self.taken)
        self.taken.add(batches)
        header = [
            cst.parse_statement(f"{p.queue} = {tf}.data.Dataset.from_tensor_slices({code(p.files)}){repeat}\n"),
            cst.parse_statement(f"{p.value} = {p.queue}.flat_map(lambda filename: "
                                f"{tf}.data.TextLineDataset(filename){skip})\n"),
        ]
        returned = p.tensors  # the list tf.train.batch took: one tensor per element of the tuple
        listed = ", ".join(code(e.value) for e in returned.elements) if isinstance(returned, (cst.List, cst.Tuple)) else None
        body = "".join(code(s) for s in p.element) + f"return {listed or code(returned)}\n"
        function = cst.parse_statement(f"def {element}({p.value}):\n" + _indent(body))
        drop = "" if p.smaller_final else ", drop_remainder=True"
        tail = [
            function.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()]),
            cst.parse_statement(f"{batches} = {p.value}.map({element}).batch({code(p.batch_size)}{drop})\n").with_changes(
                leading_lines=[cst.EmptyLine(), cst.EmptyLine()]),
            cst.parse_statement(f"{code(p.targets)} = {tf}.data.make_one_shot_iterator({batches}).get_next()\n"),
        ]
        self.coordination |= p.coordination_names
        return header + tail

    def _without_coordination(self, body: list) -> list:
        return visit(cst.Module(body=body), _DropCoordination(self.ctx, self.coordination)).body


class _Pipeline:
    def __init__(self) -> None:
        self.producer = self.batch = -1
        self.removed: Set[int] = set()
        self.element: List[cst.BaseStatement] = []
        self.queue = self.value = ""
        self.files = self.epochs = self.skip = self.batch_size = self.tensors = self.targets = None
        self.smaller_final = False
        self.coordination_names: Set[str] = set()


def _find(body: list, ctx: RuleContext) -> Optional[_Pipeline]:
    """The one pipeline ``body`` builds, straight through, in the form the module docstring converts."""
    p = _Pipeline()
    calls: Dict[int, str] = {}
    for index, statement in enumerate(body):
        value = _assigned_call(statement)
        if value is not None:
            calls[index] = ctx.names.call_name(value) or ""
    producers = [i for i, q in calls.items() if q == _PRODUCER]
    readers = [i for i, q in calls.items() if q == _READER]
    batches = [i for i, q in calls.items() if q == _BATCH]
    if not (len(producers) == len(readers) == len(batches) == 1 and producers[0] < readers[0] < batches[0]):
        return None
    p.producer, reader_at, p.batch = producers[0], readers[0], batches[0]
    producer = _assigned_call(body[p.producer])
    if set(_keywords(producer)) - _PRODUCER_ARGS or len(producer.args) < 1 or producer.args[0].keyword:
        return None
    shuffle = argument(producer, "shuffle")
    if not (isinstance(shuffle, cst.Name) and shuffle.value == "False"):
        return None  # TF1 shuffled the file names each epoch
    p.files, p.epochs = producer.args[0].value, argument(producer, "num_epochs")
    if isinstance(p.epochs, cst.Name) and p.epochs.value == "None":
        p.epochs = None
    p.queue = _single_target(body[p.producer])
    reader_call = _assigned_call(body[reader_at])
    if set(_keywords(reader_call)) - {"skip_header_lines", "name"} or any(a.keyword is None for a in reader_call.args):
        return None
    p.skip = argument(reader_call, "skip_header_lines")
    reader = _single_target(body[reader_at])
    read_at = next((i for i in range(reader_at + 1, p.batch) if _reads_queue(body[i], reader, p.queue)), None)
    if p.queue is None or reader is None or read_at is None:
        return None
    key, p.value = _pair_targets(body[read_at])
    if p.value is None:
        return None
    chain = {p.value}
    for index in range(read_at + 1, p.batch):
        statement = body[index]
        if reads(statement) & chain:
            if _assigned_call(statement) is None and not _is_assign(statement):
                return None
            p.element.append(statement)
            p.removed.add(index)
            chain |= set(writes(statement))
    batch = _assigned_call(body[p.batch])
    if set(_keywords(batch)) - _BATCH_ARGS or len(batch.args) < 1 or batch.args[0].keyword:
        return None
    threads = argument(batch, "num_threads")
    if threads is not None and not (isinstance(threads, cst.Integer) and threads.value == "1"):
        return None
    smaller = argument(batch, "allow_smaller_final_batch")
    p.smaller_final = isinstance(smaller, cst.Name) and smaller.value == "True"
    if smaller is not None and not isinstance(smaller, cst.Name):
        return None
    positional = [a.value for a in batch.args if a.keyword is None]
    if len(positional) > 2:
        return None
    p.tensors = positional[0]
    if isinstance(p.tensors, (cst.List, cst.Tuple)) and (
            len(p.tensors.elements) < 2 or any(isinstance(e, cst.StarredElement) for e in p.tensors.elements)):
        return None  # one tensor in a list: TF1 handed back a list, a dataset a tuple
    p.batch_size = positional[1] if len(positional) == 2 else argument(batch, "batch_size")
    if p.batch_size is None:
        return None
    p.targets = body[p.batch].body[0].targets[0].target
    others = {p.queue, reader, key} - {None}
    after = body[:p.producer] + [s for i, s in enumerate(body) if i > p.batch]
    if any(reads(s) & (others | chain) for s in after) or not reads(p.tensors) & chain:
        return None  # the queue, reader, key or element values are used elsewhere
    p.removed |= {reader_at, read_at}
    p.coordination_names = _coordination_names(body, ctx)
    return p


def _coordination_names(body, ctx: RuleContext) -> Set[str]:
    names: Set[str] = set()

    class _Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and ctx.names.call_name(node.value) in _COORDINATION:
                names.update(k for t in node.targets if (k := symbol_key(t.target)))

    for statement in body:
        visit(statement, _Find())
    return names


class _DropCoordination(cst.CSTTransformer):
    """Removes the Coordinator, the queue runners and the lines that stop and join them."""

    def __init__(self, ctx: RuleContext, names: Set[str]) -> None:
        self.ctx, self.names = ctx, names

    def leave_SimpleStatementLine(self, original, updated: cst.SimpleStatementLine):
        line = updated.body[0] if len(updated.body) == 1 else None
        value = line.value if isinstance(line, (cst.Assign, cst.Expr)) else None
        if isinstance(value, cst.Call) and (self.ctx.names.call_name(value) in _COORDINATION or (
                isinstance(value.func, cst.Attribute) and symbol_key(value.func.value) in self.names
                and value.func.attr.value in ("request_stop", "join"))):
            return cst.RemoveFromParent()
        return updated

    def leave_IndentedBlock(self, original, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated if updated.body else updated.with_changes(body=pass_if_empty(updated.body))


def _assigned_call(statement) -> Optional[cst.Call]:
    if _is_assign(statement) and isinstance(statement.body[0].value, cst.Call):
        return statement.body[0].value
    return None


def _is_assign(statement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Assign) and len(statement.body[0].targets) == 1)


def _single_target(statement) -> Optional[str]:
    target = statement.body[0].targets[0].target
    return target.value if isinstance(target, cst.Name) else None


def _pair_targets(statement):
    target = statement.body[0].targets[0].target
    if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 and all(
            isinstance(e.value, cst.Name) for e in target.elements):
        return target.elements[0].value.value, target.elements[1].value.value
    return None, None


def _reads_queue(statement, reader: Optional[str], queue: Optional[str]) -> bool:
    call = _assigned_call(statement)
    return (call is not None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "read"
            and isinstance(call.func.value, cst.Name) and call.func.value.value == reader and len(call.args) == 1
            and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == queue)


def _keywords(call: cst.Call) -> List[str]:
    return [a.keyword.value for a in call.args if a.keyword is not None]


def _indent(text: str) -> str:
    return "".join("    " + line if line.strip() else line for line in text.splitlines(keepends=True))
