"""tf.data iterators -> Python iterators over the dataset: ``iter(dataset)``.

TF2 iterators keep ``get_next()`` and raise ``tf.errors.OutOfRangeError``
at the end, so a ``while True: try: sess.run(...) except OutOfRangeError``
loop keeps its meaning once ``get_next()`` runs inside the generated
function of each run:

* ``ds.make_one_shot_iterator()`` / ``tf.data.make_one_shot_iterator(ds)``
  -> ``iter(ds)``; built inline (``ds.make_one_shot_iterator().get_next()``)
  it is bound to a name first, so it is built once.
* ``ds.make_initializable_iterator()`` -> ``iter(ds)``, and each
  ``sess.run(it.initializer)`` -> ``it = iter(ds)``: a fresh pass over the
  dataset, as re-initializing gave. An initializer run with a feed (a dataset
  built from placeholders) is not converted.

The rewrite is kept only where the program model runs each ``get_next()``
once per ``sess.run`` and builds each iterator once. A ``get_next()`` built
in the fetches of a run (``sess.run(iterator.get_next())`` in a loop) is the
next element of that run: TF1 built a new op there, which drew it. Elsewhere the iterators
keep their TF1 meaning, written ``tf.data.make_one_shot_iterator(ds)``, an
API the analysis knows, so the file stays in compat mode, with a warning.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._fed_pipelines import Refused as FedRefused, fed_pipelines
from tf_migrate.rules._program_scopes import graph_scopes, statement_value
from tf_migrate.traversal import visit

RULE_ID = "dataset-iterators"
_ONE_SHOT, _INITIALIZABLE = "make_one_shot_iterator", "make_initializable_iterator"
_STRUCTURE = "from_structure"  # an iterator each make_initializer(dataset) points at a dataset
_FROM_STRUCTURE = {"tf.data.Iterator.from_structure", "tf.compat.v1.data.Iterator.from_structure"}


class DatasetIterators(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.data one-shot and initializable iterators -> iter(dataset); get_next() runs once per "
                   "sess.run, OutOfRangeError still ends the loop")
    ORDER = 95  # after the other local rules: the model it checks is the one the session rule will see

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        original = module
        try:
            module, fed = fed_pipelines(module, ctx, _maker, _initializer_run)
            refused = ""
        except FedRefused as why:
            fed, refused = set(), str(why)
        survey = _Survey(ctx, refused)
        visit(module, survey)
        if not survey.makers and not fed:
            return module
        problem = survey.problem
        if problem is None:
            rewriter = _Rewrite(survey, reads(module) | set(writes(module)))
            new_module = visit(module, rewriter)
            problem = _model_problem(new_module, ctx, set(rewriter.iterators) | fed)
            if problem is None:
                self._report_done(survey, ctx)
                for key in sorted(fed):
                    ctx.report(None, RULE_ID, INFO, f"`{key}` over a dataset built from fed placeholders: its "
                                                    "pipeline is a function of the fed values, and each initializer "
                                                    "run makes a fresh iterator over them")
                return new_module
            problem = (next(iter(survey.makers), None), problem[1])
        ctx.report(problem[0], RULE_ID, WARNING, f"tf.data iterator not converted: {problem[1]}")
        ctx.block(problem[0], f"tf.data iterator not converted: {problem[1]}")  # the reason the file stays compat
        # The TF1 function form is what the analysis knows: it keeps this file in compat mode.
        survey = _Survey(ctx, refused)  # (of the input: its makers take the TF1 function form)
        visit(original, survey)
        return visit(original, _FunctionForm(survey, ctx.tf))

    @staticmethod
    def _report_done(survey: "_Survey", ctx: RuleContext) -> None:
        for call, (kind, _) in survey.makers.items():
            ctx.report(call, RULE_ID, INFO, f"{kind}() -> iter(dataset)")
        for stmt, key in survey.initializer_runs:
            ctx.report(stmt, RULE_ID, INFO, f"sess.run({key}.initializer) -> {key} = iter(dataset): a fresh pass")
        if survey.initializer_runs and survey.shuffles:
            ctx.report(survey.initializer_runs[0][0], RULE_ID, WARNING,
                       "a shuffled dataset: TF1 replayed a seeded shuffle in the same order after each "
                       "re-initialization; iter(dataset) reshuffles on every pass (reshuffle_each_iteration)")


class _FunctionForm(cst.CSTTransformer):
    """``ds.make_one_shot_iterator()`` -> ``tf.data.make_one_shot_iterator(ds)``: same meaning, known API."""

    def __init__(self, survey: "_Survey", tf: str) -> None:
        self.survey, self.tf = survey, tf

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if original not in self.survey.makers or not isinstance(updated.func, cst.Attribute) \
                or self.survey.ctx.names.call_name(original) is not None:
            return updated
        kind = updated.func.attr.value
        return cst.Call(cst.parse_expression(f"{self.tf}.data.{kind}"), [cst.Arg(updated.func.value)])


def _maker(call: cst.Call, ctx: RuleContext) -> Optional[Tuple[str, Optional[cst.BaseExpression]]]:
    """(kind, dataset expression) when ``call`` makes a TF1 iterator, else None (no dataset: from_structure)."""
    qualname = ctx.names.call_name(call)
    if qualname in _FROM_STRUCTURE:
        return _STRUCTURE, None
    for kind in (_ONE_SHOT, _INITIALIZABLE):
        if qualname == f"tf.data.{kind}" and len(call.args) == 1 and call.args[0].keyword is None \
                and not call.args[0].star:
            return kind, call.args[0].value
        if qualname is None and isinstance(call.func, cst.Attribute) and call.func.attr.value == kind \
                and not call.args:
            return kind, call.func.value
    return None


def _initializer_run(stmt: cst.BaseStatement, initializers=()) -> Optional[Tuple[str, bool]]:
    """(iterator key, has a feed) for ``sess.run(it.initializer[, feed])`` as a whole statement; (initializer name,
    has a feed) for ``sess.run(train_init)`` of a name in ``initializers``."""
    value = statement_value(stmt)
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "run" and value.args and isinstance(stmt.body[0], cst.Expr)):
        return None
    fetch = value.args[0].value
    if isinstance(fetch, cst.Name) and fetch.value in initializers:
        return fetch.value, len(value.args) > 1
    if not (isinstance(fetch, cst.Attribute) and fetch.attr.value == "initializer"):
        return None
    key = symbol_key(fetch.value)
    return (key, len(value.args) > 1) if key is not None else None


class _Survey(cst.CSTVisitor):
    """Every iterator the module makes, how it is bound, and how it is (re)initialized."""

    def __init__(self, ctx: RuleContext, fed_refused: str = "") -> None:
        self.ctx = ctx
        self.fed_refused = fed_refused  # why iterators initialized with feeds are not converted (rules/_fed_pipelines)
        self.makers: Dict[cst.Call, Tuple[str, cst.BaseExpression]] = {}
        self.bound: Dict[cst.Call, str] = {}  # maker -> the name it is assigned to
        self.inline: Set[cst.Call] = set()  # ds.make_one_shot_iterator().get_next()
        self.initializer_runs: List[Tuple[cst.SimpleStatementLine, str]] = []
        self.problem: Optional[Tuple[cst.CSTNode, str]] = None
        self.shuffles = False
        self._line: Optional[cst.SimpleStatementLine] = None
        self._fed: Set[str] = set()
        # train_init = it.make_initializer(train_data): initializer name -> (iterator key, dataset)
        self.initializers: Dict[str, Tuple[str, cst.BaseExpression]] = {}
        self.initializer_lines: Set[int] = set()
        self.name_reads: Dict[str, int] = {}

    def visit_Name(self, node: cst.Name) -> None:
        self.name_reads[node.value] = self.name_reads.get(node.value, 0) + 1

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line = node
        run = _initializer_run(node, self.initializers)
        if run is not None:
            self.initializer_runs.append((node, run[0]))
            if run[1]:
                self._fed.add(run[0])
        value = statement_value(node)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value == "make_initializer":
            target = _single_target(node)
            iterator = symbol_key(value.func.value)
            dataset = value.args[0].value if len(value.args) == 1 and value.args[0].keyword is None else None
            if target is None or iterator is None or symbol_key(dataset) is None:
                self._fail(node, "an iterator initializer not bound to a name, or over a dataset with no name")
            else:
                self.initializers[target] = (iterator, dataset)
                self.initializer_lines.add(id(node))

    def leave_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line = None

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Call) and _maker(node.value, self.ctx) is not None:
            self.inline.add(node.value)
            if self._line is None:
                self._fail(node, "an iterator built inline in the header of a compound statement")

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "shuffle":
            self.shuffles = True
        made = _maker(node, self.ctx)
        if made is None:
            return
        self.makers[node] = made
        target = _single_target(self._line) if self._line is not None else None
        if target is not None and statement_value(self._line) is node:
            self.bound[node] = target

    def leave_Module(self, node: cst.Module) -> None:
        bound_keys = set(self.bound.values())
        for call, (kind, _) in self.makers.items():
            if call not in self.bound and call not in self.inline:
                self._fail(call, "an iterator that is not bound to a name (returned or passed on): its "
                                 "get_next() cannot be followed")
            elif call in self.inline and kind == _INITIALIZABLE:
                self._fail(call, "an initializable iterator built inline: nothing can re-initialize it")
            elif kind in (_INITIALIZABLE, _STRUCTURE) and self.bound.get(call) in self._fed:
                self._fail(call, "the initializer runs with a feed (a dataset built from placeholders), and its "
                                 f"pipeline cannot be rebuilt from the fed values: {self.fed_refused}")
            elif kind == _STRUCTURE and not any(k == self.bound.get(call) for k, _ in self.initializers.values()):
                self._fail(call, "an iterator from a structure that no make_initializer points at a dataset")
        for name, (iterator, _) in self.initializers.items():
            runs = sum(1 for _, key in self.initializer_runs if key == name)
            if self.name_reads.get(name, 0) != 1 + runs:  # (its binding, and the statements that run it)
                self._fail(None, f"the initializer `{name}` is used other than run alone as a statement")
            if iterator not in bound_keys:
                self._fail(None, f"`{iterator}.make_initializer` of an iterator this rule does not follow")
        self.initializer_runs = [(stmt, key) for stmt, key in self.initializer_runs
                                 if key in bound_keys or key in self.initializers]

    def _fail(self, node: cst.CSTNode, why: str) -> None:
        if self.problem is None:
            self.problem = (node, why)


class _Rewrite(cst.CSTTransformer):
    def __init__(self, survey: _Survey, taken: Set[str]) -> None:
        self.survey, self.taken = survey, set(taken)
        self.iterators: Dict[str, cst.BaseExpression] = {}  # iterator key -> the dataset it passes over
        self.datasets: Dict[cst.Call, cst.BaseExpression] = {}
        self.dataset_lines: Dict[cst.Call, cst.SimpleStatementLine] = {}
        self._hoisted: List[cst.BaseStatement] = []
        for call, (kind, dataset) in survey.makers.items():
            if kind == _STRUCTURE:  # starts over the first dataset an initializer points it at
                dataset = next(d for k, d in survey.initializers.values() if k == survey.bound.get(call))
            elif kind == _INITIALIZABLE and symbol_key(dataset) is None:
                # An initializer iterates over the same dataset again: it needs a name.
                name = self._fresh("dataset")
                self.dataset_lines[call] = _assign(name, dataset)
                dataset = cst.Name(name)
            self.datasets[call] = dataset
            if call in survey.bound:
                self.iterators[survey.bound[call]] = dataset

    def _fresh(self, stem: str) -> str:
        return fresh(stem, self.taken)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if original not in self.survey.makers:
            return updated
        if original in self.dataset_lines:
            self._hoisted.append(self.dataset_lines[original])
        dataset = self.datasets[original]
        if original not in self.dataset_lines and self.survey.makers[original][0] != _STRUCTURE:
            dataset = _maker(updated, self.survey.ctx)[1]  # keeps rewrites made inside the dataset expression
        return cst.Call(cst.Name("iter"), [cst.Arg(dataset)])

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if original.value not in self.survey.inline:
            return updated
        name = self._fresh("iterator")
        self.iterators[name] = self.survey.makers[original.value][1]
        self._hoisted.append(_assign(name, updated.value))
        return updated.with_changes(value=cst.Name(name))

    def leave_SimpleStatementLine(self, original, updated):
        if id(original) in self.survey.initializer_lines:
            return cst.RemoveFromParent()  # train_init = it.make_initializer(train_data): its runs say it
        run = _initializer_run(original, self.survey.initializers)
        if run is not None and run[0] in self.survey.initializers:
            iterator, dataset = self.survey.initializers[run[0]]
            return cst.parse_statement(f"{iterator} = iter({code(dataset)})\n").with_changes(
                leading_lines=updated.leading_lines)
        if run is not None and run[0] in self.iterators:
            dataset = code(self.iterators[run[0]])
            return cst.parse_statement(f"{run[0]} = iter({dataset})\n").with_changes(
                leading_lines=updated.leading_lines)
        hoisted, self._hoisted = self._hoisted, []
        if not hoisted:
            return updated
        first = hoisted[0].with_changes(leading_lines=updated.leading_lines)
        return cst.FlattenSentinel([first] + hoisted[1:] + [updated.with_changes(leading_lines=[])])


def _assign(name: str, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], value)])


def _single_target(line: cst.SimpleStatementLine) -> Optional[str]:
    if len(line.body) == 1 and isinstance(line.body[0], cst.Assign) and len(line.body[0].targets) == 1:
        return symbol_key(line.body[0].targets[0].target)
    return None


def _model_problem(module: cst.Module, ctx: RuleContext, iterators: Set[str]):
    """(node, why) when the program model would not run the rewritten iterators faithfully, else None."""
    seen = 0
    for scope in graph_scopes(module, ctx):
        if not scope.is_graph_program:
            continue  # other blockers need no check here: the decision after the local rules sees them
        for st in scope.statements:
            if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
                continue  # a graph-building function is a block of its own; any other keeps its calls
            value = statement_value(st.node)
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "iter" \
                    and set(st.defines) & iterators and st.role != pm.KEEP:
                return st.node, "the iterator would be rebuilt inside each run"
            count = _get_next_calls(st.node, iterators)
            fetched = sum(_get_next_calls(site.fetch, iterators) for site in st.run_sites)
            if count and st.role != pm.DEFER and count != fetched:
                return st.node, "get_next() would run once, not once per sess.run"
            seen += count
    if seen != _get_next_calls(module, iterators):
        return None, "get_next() outside the blocks that build and run the graph (a helper function): it would " \
                     "run once"
    return None


def _get_next_calls(node: cst.CSTNode, iterators: Set[str]) -> int:
    finder = _GetNext(iterators)
    visit(node, finder)
    return finder.count


class _GetNext(cst.CSTVisitor):
    def __init__(self, iterators: Set[str]) -> None:
        self.iterators, self.count = iterators, 0

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get_next" and symbol_key(func.value) in self.iterators:
            self.count += 1
