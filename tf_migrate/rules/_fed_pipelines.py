"""Datasets built from placeholders and re-initialized with feeds: the pipeline becomes a function of the fed values.

    x = tf.placeholder(tf.float32, [None, 2])             def make_dataset(x):
    dataset = tf.data.Dataset.from_tensor_slices(x)           dataset = tf.data.Dataset.from_tensor_slices(x)
    dataset = dataset.batch(4)                     ->         dataset = dataset.batch(4)
    it = dataset.make_initializable_iterator()                return dataset
    ...                                                   it = iter(make_dataset(tf.constant(train_x, tf.float32)))
    sess.run(it.initializer, feed_dict={x: test_x})       ...
                                                          it = iter(make_dataset(tf.constant(test_x, tf.float32)))

TF's "Importing Data" guide's pattern: the data stays out of the graph, and each initializer run builds the
pipeline again over the values it feeds. Eager code has no placeholders, so the pipeline is a function of them,
and each initializer run makes a fresh iterator over its own values, converted to the placeholders' dtypes as
TF1 converted the feed. The iterator starts over the values of the first initializer run (TF1's failed until
one ran), so those must be known where the iterator was made: names bound once, before it, read without calls.

Only where the text settles it, module-level statements all: the placeholders read only by the pipeline and as
the keys of its initializer runs, each run feeding all of them; the dataset read only by its pipeline and its
iterator; the pipeline's other names bound once, before the iterator. Otherwise :func:`fed_pipelines` says why
and changes nothing (the file stays compat with the reason).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import bound_names, reads
from tf_migrate.cst.arguments import argument
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code, module_code
from tf_migrate.rules import RuleContext
from tf_migrate.rules._program_scopes import statement_value
from tf_migrate.traversal import all_nodes, visit

_PLACEHOLDERS = {"tf.placeholder", "tf.compat.v1.placeholder"}
Maker = Callable[[cst.Call, RuleContext], Optional[Tuple[str, Optional[cst.BaseExpression]]]]


class Refused(Exception):
    """Why a fed pipeline cannot become a function of its fed values."""


@dataclass
class _Pipeline:
    iterator: str
    dataset: str
    maker: int  # index of the maker statement in the module body
    lines: List[int]  # indices of the statements that build the dataset, in order
    placeholders: List[Tuple[int, str, str]]  # (index of the statement, name, dtype code), in binding order
    runs: List[Tuple[cst.SimpleStatementLine, Dict[str, cst.BaseExpression]]] = field(default_factory=list)
    function: str = ""


def fed_pipelines(module: cst.Module, ctx: RuleContext, maker: Maker,
                  is_initializer_run) -> Tuple[cst.Module, Set[str]]:
    """The module with each iterator whose initializer runs feed its pipeline's placeholders made over a function
    of the fed values, and those iterators' names; raises Refused."""
    if "initializer" not in module_code(module):
        return module, set()
    runs = _fed_runs(module, is_initializer_run)
    if not runs:
        return module, set()
    taken = set(all_names(module))
    bindings = _Bindings(module)
    pipelines = []
    for key, fed in runs.items():
        pipeline = _pipeline(module, ctx, maker, key, bindings)
        pipeline.runs = [(line, _feed(line, pipeline)) for line in fed]
        pipeline.function = fresh(f"make_{pipeline.dataset}", taken)
        pipelines.append(pipeline)
    _check_reads(module, pipelines, bindings)
    return visit(module, _Rewrite(module, pipelines, ctx.tf)), {p.iterator for p in pipelines}


def _fed_runs(module: cst.Module, is_initializer_run) -> Dict[str, List[cst.SimpleStatementLine]]:
    """iterator key -> the statements that run its initializer with a feed, in the order of the text."""
    found: Dict[str, List[cst.SimpleStatementLine]] = {}

    class _Runs(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
            run = is_initializer_run(node)
            if run is not None and run[1]:
                found.setdefault(run[0], []).append(node)

    visit(module, _Runs())
    return found


class _Bindings:
    """The statements of the module body that bind each name (one pass over the module)."""

    def __init__(self, module: cst.Module) -> None:
        self.count = Counter(bound_names(module))  # bindings anywhere in the module, nested ones included
        self.lines: Dict[str, List[int]] = {}  # name -> indices of the body statements that bind it
        for index, line in enumerate(module.body):
            for name in set(bound_names(line)):
                self.lines.setdefault(name, []).append(index)

    def rebound(self, name: str, after: int) -> bool:
        """Whether ``name`` is bound more than once in the module, or by a statement after index ``after``."""
        return self.count[name] > 1 or any(index > after for index in self.lines.get(name, ()))


def _pipeline(module: cst.Module, ctx: RuleContext, maker: Maker, key: str, bindings: _Bindings) -> _Pipeline:
    body = list(module.body)
    makers = [i for i, line in enumerate(body) if _target(line) == key and isinstance(statement_value(line), cst.Call)
              and maker(statement_value(line), ctx) is not None]
    if len(makers) != 1 or bindings.count[key] != 1:
        raise Refused(f"`{key}` is not made once, by a statement at module level")
    index = makers[0]
    kind, dataset = maker(statement_value(body[index]), ctx)
    if not isinstance(dataset, cst.Name) or kind != "make_initializable_iterator":
        raise Refused("the iterator is not made over a dataset bound to a name")
    lines = []
    for i in range(index - 1, -1, -1):
        if _target(body[i]) == dataset.value:
            lines.insert(0, i)
            if dataset.value not in reads(statement_value(body[i])):
                break  # the dataset's source: from_tensor_slices(...) of the placeholders
    else:
        raise Refused(f"the module does not build `{dataset.value}` in lines of its own before the iterator")
    placeholders = []
    for i, line in enumerate(body[:lines[0]]):
        value = statement_value(line)
        if isinstance(value, cst.Call) and ctx.names.call_name(value) in _PLACEHOLDERS and _target(line) and any(
                _target(line) in reads(statement_value(body[j])) for j in lines):
            dtype = argument(value, "dtype", 0)
            if dtype is None:
                raise Refused(f"the placeholder `{_target(line)}` has no dtype the text gives")
            placeholders.append((i, _target(line), code(dtype)))
    if not placeholders:
        raise Refused(f"`{dataset.value}` is not built from placeholders of the module")
    own = {dataset.value, ctx.tf} | {name for _, name, _ in placeholders}
    for j in lines:
        for name in reads(statement_value(body[j])) - own:
            name = name.split(".")[0]
            if bindings.rebound(name, index):
                raise Refused(f"the pipeline reads `{name}`, which the module binds again or after the iterator")
    return _Pipeline(key, dataset.value, index, lines, placeholders)


def _feed(line: cst.SimpleStatementLine, pipeline: _Pipeline) -> Dict[str, cst.BaseExpression]:
    """placeholder -> the value an initializer run feeds it; raises Refused unless it feeds them all by name."""
    run = statement_value(line)
    given = argument(run, "feed_dict", 1)
    if not isinstance(given, cst.Dict):
        raise Refused("an initializer run's feed is not a dict literal")
    feed = {}
    for element in given.elements:
        if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.Name):
            raise Refused("an initializer run's feed has keys other than the placeholders' names")
        feed[element.key.value] = element.value
    if set(feed) != {name for _, name, _ in pipeline.placeholders} or len(run.args) > 2:
        raise Refused(f"an initializer run does not feed exactly the placeholders `{pipeline.dataset}` is built from")
    return feed


def _check_reads(module: cst.Module, pipelines: Sequence[_Pipeline], bindings: _Bindings) -> None:
    """Refused unless the placeholders and datasets are read by their pipelines and initializer runs only, and the
    first run's values can be read where the iterator is made."""
    counts: Counter = Counter()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            counts[node.value] += 1

    visit(module, _Names())
    body = list(module.body)
    for pipeline in pipelines:
        expected: Counter = Counter()
        for j in pipeline.lines + [pipeline.maker] + [i for i, _, _ in pipeline.placeholders]:
            expected.update(_name_counts(body[j]))
        for line, _ in pipeline.runs:
            expected.update(_name_counts(statement_value(line).args[1].value) - _value_counts(line))
        for name in [pipeline.dataset] + [name for _, name, _ in pipeline.placeholders]:
            if counts[name] != expected[name]:
                raise Refused(f"`{name}` is used other than to build `{pipeline.dataset}` and feed its initializer")
        for value in pipeline.runs[0][1].values():
            if any(isinstance(node, cst.Call) for node in all_nodes(value)):
                raise Refused("the first initializer run feeds values made by calls: making the iterator over them "
                              "where TF1 made it would make them twice")
            for name in reads(value):
                if bindings.rebound(name.split(".")[0], pipeline.maker):
                    raise Refused(f"the first initializer run feeds `{name}`, not bound once before the iterator")


def _name_counts(node: cst.CSTNode) -> Counter:
    return Counter(n.value for n in all_nodes(node) if isinstance(n, cst.Name))


def _value_counts(line: cst.SimpleStatementLine) -> Counter:
    given = statement_value(line).args[1].value
    return sum((_name_counts(e.value) for e in given.elements), Counter())


def _target(line: cst.CSTNode) -> Optional[str]:
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign) \
            and len(line.body[0].targets) == 1 and isinstance(line.body[0].targets[0].target, cst.Name):
        return line.body[0].targets[0].target.value
    return None


class _Rewrite(cst.CSTTransformer):
    def __init__(self, module: cst.Module, pipelines: Sequence[_Pipeline], tf: str) -> None:
        self.tf = tf
        body = list(module.body)
        self.replace: Dict[int, List[cst.BaseStatement]] = {}  # id(statement) -> what stands in its place
        self.runs: Dict[int, Tuple[_Pipeline, Dict[str, cst.BaseExpression]]] = {}
        for pipeline in pipelines:
            for i, _, _ in pipeline.placeholders:
                self.replace[id(body[i])] = []
            definition = _definition(pipeline, [body[j] for j in pipeline.lines])
            self.replace[id(body[pipeline.lines[0]])] = [definition.with_changes(
                leading_lines=body[pipeline.lines[0]].leading_lines)]
            for j in pipeline.lines[1:]:
                self.replace[id(body[j])] = []
            self.replace[id(body[pipeline.maker])] = [self._fresh_iterator(pipeline, pipeline.runs[0][1],
                                                                           body[pipeline.maker])]
            for line, feed in pipeline.runs:
                self.runs[id(line)] = (pipeline, feed)

    def _fresh_iterator(self, pipeline: _Pipeline, feed: Dict[str, cst.BaseExpression],
                        line: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        values = ", ".join(f"{self.tf}.constant({code(feed[name])}, {dtype})"
                           for _, name, dtype in pipeline.placeholders)
        made = cst.parse_statement(f"{pipeline.iterator} = iter({pipeline.function}({values}))\n")
        return made.with_changes(leading_lines=line.leading_lines, trailing_whitespace=line.trailing_whitespace)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if id(original) in self.runs:
            return self._fresh_iterator(*self.runs[id(original)], updated)
        if id(original) not in self.replace:
            return updated
        stands = self.replace[id(original)]
        return cst.FlattenSentinel(stands) if stands else cst.RemoveFromParent()


def _definition(pipeline: _Pipeline, lines: Sequence[cst.SimpleStatementLine]) -> cst.FunctionDef:
    params = ", ".join(name for _, name, _ in pipeline.placeholders)
    head = cst.parse_statement(f"def {pipeline.function}({params}):\n    return {pipeline.dataset}\n")
    body = [line.with_changes(leading_lines=line.leading_lines if i else ()) for i, line in enumerate(lines)]
    return head.with_changes(body=head.body.with_changes(body=body + list(head.body.body)))
