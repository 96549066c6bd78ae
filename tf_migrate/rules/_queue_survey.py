"""Which statements of a block build a TF1 queue pipeline, and what each part of it means (queue-pipelines).

A pipeline is built straight through in one block, each part one assignment:

* a **source**: ``tf.train.string_input_producer(files, num_epochs, shuffle)`` read by a reader
  (``TextLineReader``, ``TFRecordReader``, ``FixedLengthRecordReader``, ``WholeFileReader``) through
  ``key, value = reader.read(queue)``; or ``tf.train.slice_input_producer(tensors, num_epochs, shuffle)``,
  whose targets are one element's tensors;
* the **element code**: the assignments after it that compute from the element (``tf.decode_csv(value)``,
  ``tf.parse_single_example``, ``tf.image.decode_jpeg``);
* a **batcher**: ``tf.train.batch(tensors, batch_size)`` or ``tf.train.shuffle_batch(tensors, batch_size,
  capacity, min_after_dequeue)``.

:func:`survey` gives the :class:`Pipeline`, or a :class:`Refusal` naming what TF1 did that ``tf.data`` cannot
be told, or None where the block builds none. TF1's order is kept where it was fixed (file names or slices in
order, each file's records in order, one element after another). Where TF1 shuffled without a seed (file names
each epoch, slices each epoch, ``shuffle_batch``'s queue), the output shuffles there too: each run drew another
order, and ``tf.data``'s is one more such draw. A shuffle TF1 drew from a seed (the op's, or the graph's) is an
order the program repeats, which ``tf.data`` would not: refused. So are the reader's key where it is not the
file name, several records a read (``read_up_to``), batches of several elements a call (``enqueue_many``), padded
batches and compressed records.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Union

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, reads, target_keys, writes
from tf_migrate.cst.arguments import bind
from tf_migrate.rules import RuleContext
from tf_migrate.rules._queue_elements import (PerRunValues, assigned_call, data_only, is_assign, loads, outside,
                                              read_whole, sets_shape, value_reads)

FILES_PRODUCER, SLICES_PRODUCER = "tf.train.string_input_producer", "tf.train.slice_input_producer"
BATCH, SHUFFLE_BATCH = "tf.train.batch", "tf.train.shuffle_batch"
_PRODUCER_PARAMS = {
    FILES_PRODUCER: ("string_tensor", "num_epochs", "shuffle", "seed", "capacity", "shared_name", "name",
                     "cancel_op"),
    SLICES_PRODUCER: ("tensor_list", "num_epochs", "shuffle", "seed", "capacity", "shared_name", "name"),
}
_BATCH_PARAMS = {
    BATCH: ("tensors", "batch_size", "num_threads", "capacity", "enqueue_many", "shapes", "dynamic_pad",
            "allow_smaller_final_batch", "shared_name", "name"),
    SHUFFLE_BATCH: ("tensors", "batch_size", "capacity", "min_after_dequeue", "num_threads", "seed", "enqueue_many",
                    "shapes", "allow_smaller_final_batch", "shared_name", "name"),
}
# Reader class -> its parameters, and those the dataset of one file takes (in the dataset's order).
_READERS = {
    "tf.TextLineReader": (("skip_header_lines", "name"), ()),
    "tf.TFRecordReader": (("name", "options"), ()),
    "tf.FixedLengthRecordReader": (("record_bytes", "header_bytes", "footer_bytes", "hop_bytes", "name",
                                    "encoding"), ("record_bytes", "header_bytes", "footer_bytes")),
    "tf.WholeFileReader": (("name",), ()),
}
READER_DATASETS = {"tf.TextLineReader": "TextLineDataset", "tf.TFRecordReader": "TFRecordDataset",
                    "tf.FixedLengthRecordReader": "FixedLengthRecordDataset"}


@dataclass
class Refusal:
    node: cst.CSTNode
    why: str


@dataclass
class Pipeline:
    source: int  # index of the producer's statement
    source_kind: str  # FILES_PRODUCER or SLICES_PRODUCER
    data: cst.BaseExpression  # the file names, or the tensors sliced
    epochs: Optional[cst.BaseExpression]
    shuffled: bool  # TF1 shuffled the file names or slices each epoch, without a seed
    queue: str = ""  # the file-name queue's name (files)
    reader: str = ""  # the reader's class (files)
    reader_args: List[cst.BaseExpression] = field(default_factory=list)  # what its dataset takes after the file
    skip: Optional[cst.BaseExpression] = None  # header lines of a TextLineReader
    key: Optional[str] = None  # the read key's name, where the element code uses it (a WholeFileReader's file)
    value: str = ""  # the read value's name (files)
    element_names: List[str] = field(default_factory=list)  # the sliced tensors' names (slices)
    element_star: Optional[str] = None  # ``inputs = slice_input_producer(...)``: one name for the list
    element: List[cst.BaseStatement] = field(default_factory=list)
    batch: int = -1
    batch_size: Optional[cst.BaseExpression] = None
    shuffle_buffer: Optional[cst.BaseExpression] = None  # shuffle_batch's capacity
    smaller_final: bool = False
    tensors: Optional[cst.BaseExpression] = None  # what the batcher took
    targets: Optional[cst.BaseAssignTargetExpression] = None
    removed: Set[int] = field(default_factory=set)  # the reader, the read and the element code
    unbatched: bool = False  # no batcher: each run reads one element (``tensors`` the element code's outputs)


def survey(body: list, ctx: RuleContext, module: cst.Module, scope: cst.CSTNode) -> Union[Pipeline, Refusal, None]:
    """The one pipeline ``body`` builds straight through (the module's doc), a Refusal, or None. ``scope`` holds
    ``body``: the innermost function around it (its names are that function's locals), or the module."""
    calls: Dict[int, str] = {}
    for index, statement in enumerate(body):
        value = assigned_call(statement)
        if value is not None:
            calls[index] = ctx.names.call_name(value) or ""
    producers = [i for i, q in calls.items() if q in _PRODUCER_PARAMS]
    batches = [i for i, q in calls.items() if q in _BATCH_PARAMS]
    if not producers:
        return None
    first = body[producers[0]]
    if len(producers) != 1 or len(batches) > 1 or (batches and batches[0] < producers[0]):
        return Refusal(first, "a queue pipeline the rule does not follow: it converts one input producer, then "
                              "at most one batcher after it, in one block")
    seeded = _graph_seeded(module, ctx)
    source = _source(body, producers[0], calls[producers[0]], seeded)
    if isinstance(source, Refusal):
        return source
    p = source
    per_run = PerRunValues(module, ctx)
    drawn = per_run.read_by(p.data)
    if drawn is not None:
        return Refusal(first, f"the queue's input reads `{drawn}`, which TF1 computed again in each run (a "
                              "placeholder, a variable or a random op): a dataset would take one value")
    end = batches[0] if batches else len(body)
    start = producers[0] + 1
    if p.source_kind == FILES_PRODUCER:
        read_at = _reader(body, p, calls, end, scope)
        if isinstance(read_at, Refusal):
            return read_at
        start = read_at + 1
        bound = [p.value] + ([p.key] if p.key else [])
    else:
        bound = list(p.element_names) + ([p.element_star] if p.element_star else [])
    chain = set(bound)
    for index in range(start, end):
        statement = body[index]
        if not value_reads(statement) & chain:
            continue
        if not ((is_assign(statement) or sets_shape(statement)) and data_only(statement, chain, ctx)):
            if batches:
                return Refusal(statement, "the queue's element code does more than compute from the element (a "
                                          "statement other than an assignment, a variable, a layer, a call of a "
                                          "function of the program)")
            break  # the element ends where the graph that reads it starts
        graph_value = per_run.read_by(statement, chain)
        if graph_value is not None:
            if batches:
                return Refusal(first, f"the queue's element code reads `{graph_value}`, which TF1 computed again "
                                      "in each run (a placeholder, a variable, a random op): a dataset's function "
                                      "reads it once")
            break
        p.element.append(statement)
        p.removed.add(index)
        names = target_keys(statement.body[0].targets[0].target) if is_assign(statement) else []
        bound.extend(name for name in names if name not in bound)  # in the text's order
        chain |= set(writes(statement))
    if batches:
        p.batch = batches[0]
        refused = _batcher(body[p.batch], calls[p.batch], p, seeded)
        if refused is not None:
            return refused
        if not reads(p.tensors) & chain:
            return Refusal(body[p.batch], "the batcher batches nothing the queue's element code computed")
        if (isinstance(p.tensors, cst.Name) and p.tensors.value == p.element_star
                and not (isinstance(p.data, (cst.List, cst.Tuple)) and len(p.data.elements) > 1)):
            return Refusal(body[p.batch], "a batch of a sliced list of one tensor, or of a list the text does not "
                                          "give: TF1 handed back a list, a dataset a tuple")
    graph_value = per_run.read_by(p.tensors, chain) if batches else None
    if graph_value is not None:
        return Refusal(first, f"the queue's element code reads `{graph_value}`, which TF1 computed again in "
                              "each run (a placeholder, a variable, a random op): a dataset's function reads it once")
    kept = [s for i, s in enumerate(body) if i not in p.removed | {p.source, p.batch}]
    used = set().union(*(reads(s) for s in kept)) if kept else set()
    for other in outside(scope, body):
        used |= reads(other)
    if p.queue and p.queue in used:
        return Refusal(first, f"the file-name queue `{p.queue}` is read outside the pipeline")
    later = kept + outside(scope, body)
    literal = isinstance(p.tensors, (cst.List, cst.Tuple)) and len(p.tensors.elements) > 1  # (one: the tensor)
    listed = literal or isinstance(p.tensors, cst.Name) and p.tensors.value == p.element_star
    if batches and isinstance(p.targets, cst.Name) and listed and read_whole(later, p.targets.value):
        return Refusal(body[p.batch], f"the batch `{p.targets.value}` is read whole: TF1 handed back a list, a "
                                      "dataset a tuple")
    if not batches and p.element_star and read_whole(later, p.element_star):
        return Refusal(first, f"the sliced tensors `{p.element_star}` are read whole: TF1 handed back a list, a "
                              "dataset a tuple")
    if batches:
        if used & chain:
            return Refusal(first, f"the queue pipeline's `{sorted(used & chain)[0]}` is read outside it: TF1's "
                                  "per-element tensor, which a batched dataset does not give")
        return _unless_rebound(body, p, chain)
    outputs = [name for name in bound if name in used]
    if not outputs:
        return Refusal(first, "a queue pipeline whose elements nothing reads")
    p.batch = max(p.removed, default=p.source)  # where the element's dataset is bound: after its last statement
    checked = _unless_rebound(body, p, chain)
    if checked is not p:
        return checked
    p.unbatched = True
    p.tensors = (cst.Name(outputs[0]) if len(outputs) == 1
                 else cst.Tuple([cst.Element(cst.Name(name)) for name in outputs], lpar=[], rpar=[]))
    p.targets = p.tensors
    return p


def _unless_rebound(body: list, p: Pipeline, chain: Set[str]) -> Union[Pipeline, Refusal]:
    """``p``, unless a statement left in place binds a name that moved code reads between where TF1 read it and
    where the dataset reads it: the element code (read where it stood, now where the dataset is built) and the
    reader's arguments (read where the reader stood, now at the producer)."""
    position = {id(statement): index for index, statement in enumerate(body)}
    spans = [(position[id(s)], p.batch, value_reads(s)) for s in p.element]
    reader_at = min((i for i in p.removed if i not in {position[id(s)] for s in p.element}), default=p.source)
    spans += [(p.source, reader_at, value_reads(argument)) for argument in p.reader_args]
    for start, end, read in spans:
        for index in range(start + 1, end):
            rebound = set(writes(body[index])) & (read - chain) if index not in p.removed else set()
            if rebound:
                return Refusal(body[index], f"`{sorted(rebound)[0]}`, which the queue's element code or reader "
                                            "reads, is bound here, between where TF1 read it and where the dataset "
                                            "reads it")
    return p


def _source(body, index: int, qualname: str, seeded: bool) -> Union[Pipeline, Refusal]:
    statement = body[index]
    call = assigned_call(statement)
    args = bind(call, _PRODUCER_PARAMS[qualname])
    short = qualname.rsplit(".", 1)[-1]
    if args is None or ("string_tensor" if qualname == FILES_PRODUCER else "tensor_list") not in args:
        return Refusal(statement, f"`{short}` with arguments the rule does not read")
    data = args.get("string_tensor", args.get("tensor_list"))
    epochs = args.get("num_epochs")
    if isinstance(epochs, cst.Name) and epochs.value == "None":
        epochs = None
    shuffle = args.get("shuffle")
    shuffles = not (isinstance(shuffle, cst.Name) and shuffle.value == "False")
    if shuffle is not None and not isinstance(shuffle, cst.Name):
        return Refusal(statement, f"`{short}` shuffles or not by a value the text does not give")
    if shuffles and qualname == FILES_PRODUCER and isinstance(data, (cst.List, cst.Tuple)) and len(data.elements) == 1:
        shuffles = False  # one file name: TF1's shuffle gave the same order
    if shuffles and (seeded or "seed" in args):
        return Refusal(statement, f"`{short}` shuffles from a seed: TF1's order repeats from run to run, and "
                                  "tf.data would draw another")
    p = Pipeline(source=index, source_kind=qualname, data=data, epochs=epochs, shuffled=shuffles)
    target = statement.body[0].targets[0].target
    if qualname == FILES_PRODUCER:
        if not isinstance(target, cst.Name):
            return Refusal(statement, "an input producer bound to something other than one name")
        p.queue = target.value
        return p
    if isinstance(target, cst.Name):
        p.element_star = target.value
    elif isinstance(target, (cst.Tuple, cst.List)) and all(isinstance(e.value, cst.Name) and not isinstance(
            e, cst.StarredElement) for e in target.elements) and (not isinstance(data, (cst.List, cst.Tuple)) or len(
                data.elements) == len(target.elements)):
        p.element_names = [e.value.value for e in target.elements]
    else:
        return Refusal(statement, "`slice_input_producer`'s tensors bound to targets the rule does not follow")
    if isinstance(data, (cst.List, cst.Tuple)) and any(isinstance(e, cst.StarredElement) for e in data.elements):
        return Refusal(statement, "`slice_input_producer` of a starred list")
    return p


def _reader(body, p: Pipeline, calls: Dict[int, str], batch_at: int, scope) -> Union[int, Refusal]:
    """Fill in the reader of a file-name queue; the index of its ``read``."""
    readers = [i for i, q in calls.items() if q in _READERS and p.source < i < batch_at]
    if len(readers) != 1:
        return Refusal(body[p.source], "a file-name queue read by no reader, or by several, between the producer "
                                       "and the batcher")
    statement = body[readers[0]]
    qualname = calls[readers[0]]
    params, dataset_params = _READERS[qualname]
    args = bind(assigned_call(statement), params)
    if args is None or set(args) - {"name", "skip_header_lines", "record_bytes", "header_bytes", "footer_bytes"}:
        return Refusal(statement, f"`{qualname}` with arguments tf.data's reader does not take (compression, "
                                  "hop bytes, an encoding)")
    if qualname == "tf.FixedLengthRecordReader" and "record_bytes" not in args:
        return Refusal(statement, "a FixedLengthRecordReader without its record size")
    p.reader = qualname
    p.skip = args.get("skip_header_lines")
    p.reader_args = [args[name] for name in dataset_params if name in args]
    if len(p.reader_args) != len([n for n in dataset_params if n in args]) or (
            "footer_bytes" in args and "header_bytes" not in args):
        return Refusal(statement, f"`{qualname}` with arguments the rule does not place")
    reader = single_target(statement)
    read_at = next((i for i in range(readers[0] + 1, batch_at) if _reads_queue(body[i], reader, p.queue)), None)
    if reader is None or read_at is None:
        return Refusal(statement, "a reader whose records are not read by `key, value = reader.read(queue)` "
                                  "before the batcher")
    key, p.value = _pair_targets(body[read_at])
    if p.value is None:
        return Refusal(body[read_at], "a read bound to targets the rule does not follow")
    key_read = key is not None and loads(body[read_at + 1:] + outside(scope, body), key)
    if key_read and qualname != "tf.WholeFileReader":
        return Refusal(body[read_at], "the reader's key is used: TF1's `file:record` string, which tf.data does not "
                                      "give")
    p.key = key if key_read else None
    p.removed |= {readers[0], read_at}
    return read_at


def _batcher(statement, qualname: str, p: Pipeline, seeded: bool) -> Optional[Refusal]:
    call = assigned_call(statement)
    args = bind(call, _BATCH_PARAMS[qualname])
    short = qualname.rsplit(".", 1)[-1]
    if args is None or "tensors" not in args or "batch_size" not in args:
        return Refusal(statement, f"`{short}` with arguments the rule does not read")
    for flag in ("enqueue_many", "dynamic_pad"):
        if flag in args and not (isinstance(args[flag], cst.Name) and args[flag].value == "False"):
            return Refusal(statement, f"`{short}` with `{flag}`: batches the rule does not rebuild")
    if "shapes" in args:
        return Refusal(statement, f"`{short}` with `shapes`: shapes set on the queue")
    smaller = args.get("allow_smaller_final_batch")
    if smaller is not None and not isinstance(smaller, cst.Name):
        return Refusal(statement, f"`{short}` keeps a short last batch or not by a value the text does not give")
    p.smaller_final = isinstance(smaller, cst.Name) and smaller.value == "True"
    if qualname == SHUFFLE_BATCH:
        if seeded or "seed" in args:
            return Refusal(statement, "`shuffle_batch` shuffles from a seed: TF1's order repeats from run to run, "
                                      "and tf.data would draw another")
        if "capacity" not in args:
            return Refusal(statement, "`shuffle_batch` without its capacity")
        p.shuffle_buffer = args["capacity"]
    tensors = args["tensors"]
    target = statement.body[0].targets[0].target
    if isinstance(tensors, (cst.List, cst.Tuple)) and (
            not tensors.elements or any(isinstance(e, cst.StarredElement) for e in tensors.elements)):
        return Refusal(statement, f"`{short}` of a starred or empty list")
    p.tensors, p.batch_size = tensors, args["batch_size"]
    p.targets = target
    return None


def _graph_seeded(module: cst.Module, ctx: RuleContext) -> bool:
    return any(ctx.names.call_name(call) in api.GRAPH_SEEDS for call in all_calls(module))


def single_target(statement) -> Optional[str]:
    target = statement.body[0].targets[0].target
    return target.value if isinstance(target, cst.Name) else None


def _pair_targets(statement):
    target = statement.body[0].targets[0].target
    if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 and all(
            isinstance(e.value, cst.Name) for e in target.elements):
        return target.elements[0].value.value, target.elements[1].value.value
    return None, None


def _reads_queue(statement, reader: Optional[str], queue: str) -> bool:
    call = assigned_call(statement)
    return (call is not None and isinstance(call.func, cst.Attribute) and call.func.attr.value == "read"
            and isinstance(call.func.value, cst.Name) and call.func.value.value == reader and len(call.args) == 1
            and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == queue)
