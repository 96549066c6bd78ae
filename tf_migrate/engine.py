"""Migrate one module's source: parse, decide the mode, run the rules, check.

The engine never imports TensorFlow and never runs the user's code. Every
output is parse- and compile-checked; a rule that crashes or emits invalid
code makes the engine fall back to the input, with an error finding. Changed
output is also checked statically for faults the rewrite introduced
(tf_migrate/selfcheck.py): eager output that has one falls back to compat
mode, compat output that has one leaves the input unchanged.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import re
import sys
import traceback
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Optional, Set, Tuple

import libcst as cst

from tf_migrate import report, selfcheck, traversal
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.class_scope import analyze_class, per_run_members
from tf_migrate.analysis.imported_helpers import rebound_modules, summarize_provider
from tf_migrate.analysis.instance_members import member_blockers
from tf_migrate.analysis.imported_runs import asked_sites, importer_blockers, unanswerable
from tf_migrate.analysis.held_graph_objects import function_parameters, held_parameters
from tf_migrate.analysis.binding_times import self_changing_methods
from tf_migrate.analysis.instance_runs import as_class_run, external_runs, module_classes
from tf_migrate.analysis.modules import variable_holders, variable_makers
from tf_migrate.analysis.object_graphs import object_graph
from tf_migrate.analysis.object_variables import object_trainable_parts
from tf_migrate.analysis.scoped_classes import ScopedClass, scoped_classes
from tf_migrate.analysis.object_members import member_requests, mixed_objects
from tf_migrate.analysis.session_methods import kept_per_run, outer_variables_reset
from tf_migrate.analysis.binding_times import module_bindings
from tf_migrate.analysis.symbols import member_objects
from tf_migrate.analysis.program import ScopeBlocked
from tf_migrate.analysis.project_index import one_session_classes, scan_module, single_instance_classes
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.codegen.compiled import COMPILED, FUNCTION_MODES
from tf_migrate.cst.names import attribute_mentions
from tf_migrate.cst.tab_indentation import expand_indentation_tabs
from tf_migrate.cst.text import module_code
from tf_migrate.report import ERROR, INFO, WARNING, Finding
from tf_migrate.rules import COMPAT, EAGER, RuleContext, all_rules
from tf_migrate.tfnames import HelperClass, ImportedFunction, TFNames, TreeHelpers

AUTO = "auto"
MODES = (AUTO, EAGER, COMPAT)
# A tree's modules a program imports functions from: provider path -> (its source, {local name in the
# importer -> function name in the provider}).
Providers = Mapping[str, Tuple[str, Mapping[str, str]]]


@dataclass(frozen=True)
class MigrationResult:
    """The outcome of migrating one source text."""

    path: str
    source: str
    new_source: str
    outcome: str  # report.UNCHANGED / EAGER / COMPAT / FAILED / SKIPPED
    findings: Tuple[Finding, ...] = ()
    compat_reason: str = ""
    # In a tree (rules/_tree_helpers): the helpers of other modules this one builds as classes (local name ->
    # HelperClass), and what became of the helpers the project pass asked it to export (function -> HelperClass
    # or why not). Eager output only.
    helper_requests: Mapping[str, HelperClass] = field(default_factory=dict)
    helper_exports: Mapping[str, object] = field(default_factory=dict)
    # The module's classes and functions whose eager form no longer takes the session parameter (name ->
    # (position after ``self``, parameter name)): its importers may drop the argument too (project.session_imports).
    session_params: Mapping[str, Tuple[int, str]] = field(default_factory=dict)
    # Runs of a class's graph across modules (analysis/imported_runs): those this module asks of other modules'
    # classes (local class name -> {key -> ClassRun}, whatever the outcome), and its answers (eager output only).
    runs_requested: Mapping[str, Mapping[tuple, object]] = field(default_factory=dict)
    runs_answered: Mapping[str, Mapping[tuple, str]] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return self.new_source != self.source


class InputError(Exception):
    """Source that cannot be migrated (syntax error, Python 2, ...)."""

    def __init__(self, path: str, line: int, col: int, message: str) -> None:
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path, self.line, self.col, self.message = path, line, col, message


_PY2_HINTS = ("print ", "except ", "exec ", "ur'", 'ur"')


def parse(source: str, path: str) -> cst.Module:
    """The LibCST module of ``source``, or :class:`InputError` at the line Python's compiler names.

    Python's own compiler goes first: it gives the best messages, rejects what LibCST's grammar
    accepts but Python does not (``except X, e``), and refuses expressions nested too deeply for
    it, which LibCST's native parser would otherwise crash the whole process on.
    """
    try:
        with _recursion_limit(_COMPILE_RECURSION_LIMIT):
            compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:  # TabError and IndentationError too
        text = (error.text or "").strip()
        hint = " (this looks like Python 2: run 2to3 or pyupgrade first)" if text.startswith(
            ("print ", "except ", "exec ")) or "Missing parentheses in call to 'print'" in error.msg else ""
        raise InputError(path, error.lineno or 1, max((error.offset or 1) - 1, 0),
                         f"syntax error{hint}: {error.msg}") from None
    except ValueError as error:  # NUL bytes and the like
        raise InputError(path, 1, 0, f"cannot compile: {error}") from None
    except (RecursionError, MemoryError):
        raise InputError(path, 1, 0, "an expression is nested too deeply for Python's compiler") from None
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as error:  # valid Python that LibCST's grammar does not cover
        expanded = expand_indentation_tabs(source)  # tabs and spaces mixed as Python reads them: spaces
        if expanded is not None:
            try:
                return cst.parse_module(expanded)
            except cst.ParserSyntaxError:
                pass
        raise InputError(path, error.raw_line, error.raw_column,
                         f"LibCST cannot parse this valid Python: {error.message}") from None


def blockers_of(module: cst.Module, names: TFNames, layer_scopes=None) -> List[Tuple[cst.CSTNode, str]]:
    """Everything that keeps this module out of eager mode (empty: it can go eager)."""
    found: List[Tuple[cst.CSTNode, str]] = []
    scopes, classes, analyses = [], [], []

    def visit_scope(body, params=(), parent=None):
        scope = analyze_scope(body, names, params, layer_scopes=layer_scopes, parent=parent)
        scopes.append(scope)
        if scope.is_graph_program:
            found.extend(scope.blockers)
        else:
            found.extend(scope.object_blockers)  # objects given to its graph classes, changed after (later_changes)
        found.extend(member_blockers(scope, names, layer_scopes))  # a converted class's dropped members read here
        found.extend(member_requests(scope, names))  # members of another module's object computed in its runs
        for st in scope.statements:
            if st.kind == "nested-scope" and isinstance(st.node, (cst.FunctionDef, cst.If)):
                visit_scope(*pm.nested_scope_body(st.node), scope)
            elif st.kind == "nested-scope" and isinstance(st.node, cst.ClassDef):
                classes.append(st.node)
                analyses.append(analyze_class(st.node, names, layer_scopes))
                for method in analyses[-1].own_scopes:  # fit(): a program of its own
                    found.extend(kept_per_run(visit_scope(*pm.nested_scope_body(method), scope), method))
                    found.extend(outer_variables_reset(scope, method))
        return scope

    visit_scope(list(module.body))
    external = external_runs(scopes)  # runs of a class's graph from outside it are planned in the class
    for analysis in analyses:  # ... and runs of an object another class holds (analysis/held_graph_objects)
        for site in analysis.held_runs:
            external.setdefault(site.instance_class, []).append((as_class_run(site, analysis.scope), site.instance))
    found.extend(importer_blockers(external, names))  # ... in another module's class: asked of it
    defined = [n.name.value for n in module_classes(module)] if external or names.tree_helpers.runs_asked else []
    for name, sites in external.items():
        if name not in names.tree_helpers.graph_classes and defined.count(name) != 1:
            found.extend((site.call, f"sess.run of the graph of a `{name}`: more than one class has that name")
                         for site, _ in sites)
    found.extend(unanswerable(defined, [cls.name.value for cls in classes], names))
    objects = {scope.instances.get(name) for scope in scopes for name in scope.object_graphs}
    for cls in classes:
        asked = [site for _, site in asked_sites(cls.name.value, names)]
        outside = [s for s, _ in external.get(cls.name.value, [])] + asked
        analysis = analyze_class(cls, names, layer_scopes, outside)
        found.extend(analysis.blockers)
        if not (outside or analysis.method_sites or cls.name.value in objects or names.tree_helpers.runs_asked.get(
                cls.name.value)) and per_run_members(analysis.scope):
            found.append((cls, f"nothing in this file runs the graph `{cls.name.value}` builds: the code that does "
                               "is elsewhere, and would lose the placeholders and per-run members the eager class "
                               "drops (migrate the folder, so that the project pass sees both)"))
    return found


def _selected(rule, select: Optional[Iterable[str]], ignore: Optional[Iterable[str]]) -> bool:
    if select and rule.RULE_ID not in select:
        return False
    return not (ignore and rule.RULE_ID in ignore)


def migrate_source(source: str, path: str = "<string>", *, mode: str = AUTO,
                   select: Optional[Iterable[str]] = None, ignore: Optional[Iterable[str]] = None,
                   functions: str = COMPILED, providers: Optional[Providers] = None,
                   single_instances: Optional[Iterable[str]] = None,
                   tree_helpers: Optional[TreeHelpers] = None) -> MigrationResult:
    """Migrate a TF1 program given as text; return the new text and the findings.

    >>> result = migrate_source(open("train.py").read(), "train.py")
    >>> print(result.outcome, len(result.findings))

    ``providers``: when the program is part of a tree, the modules of the tree it imports functions
    from: provider path -> (its source, {local name -> the function's name there}). The analysis then
    knows what those functions do (``analysis/imported_helpers``). ``single_instances``: the module's
    classes that every program of the tree builds once (None: read from the module alone, the classes
    it calls once itself). ``tree_helpers``: what the project pass asks of the module about helpers shared as
    tf.Module classes (``exports`` and ``refused``, see ``rules/_tree_helpers``).

    Raises :class:`InputError` for source that does not parse.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if functions not in FUNCTION_MODES:
        raise ValueError(f"functions must be one of {FUNCTION_MODES}, not {functions!r}")
    # LibCST's transforms and code generation recurse once or more per level of nesting; Python's
    # compiler (which parse() runs first) accepts sums of a few thousand terms, so make room for them.
    with _recursion_limit(max(sys.getrecursionlimit(), _RECURSION_ROOM)):
        given = tree_helpers or TreeHelpers()
        asked = TreeHelpers(**{f.name: dict(getattr(given, f.name)) for f in dataclasses.fields(TreeHelpers)})  # a
        # copy: the rules fill in what they did
        # (what methods of the module's classes run once matters only to an initializer run in a method)
        info = scan_module("", path, source) if "class" in source and (
            single_instances is None or "initializ" in source) else None
        if single_instances is None:  # one file: the classes it builds once, or always in one session, itself
            single_instances = single_instance_classes(info) if info else ()
            asked.shared_sessions.update(one_session_classes(info) if info and tree_helpers is None else {})
        facts = _TreeFacts(_imported(providers or {}), set(single_instances), asked,
                           called_once=set(info.called_once) if info else set(),
                           built_once_here=single_instance_classes(info) if info else set())
        result = dataclasses.replace(_migrate(source, path, mode, select, ignore, functions, facts),
                                     runs_requested=dict(asked.runs_requested))
        if result.outcome != report.EAGER:
            return result
        return dataclasses.replace(result, helper_requests=dict(asked.requested), helper_exports=dict(asked.exported),
                                   session_params=dict(asked.sessions_dropped), runs_answered=dict(asked.runs_answered))


def _imported(providers: Providers) -> Dict[str, ImportedFunction]:
    """The summaries of the functions imported from the tree; a provider that does not parse gives none."""
    found: Dict[str, ImportedFunction] = {}
    for path, (source, wanted) in providers.items():
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError:
            continue
        found.update(summarize_provider(module, path, dict(wanted)))
    return found


@dataclass
class _TreeFacts:
    """What the module's tree says about it: the functions it imports, and its classes built once."""

    imported: Dict[str, ImportedFunction]
    single_instances: Set[str]
    tree_helpers: TreeHelpers = field(default_factory=TreeHelpers)  # shared by every scan (rules/_tree_helpers)
    called_once: Set[str] = field(default_factory=set)  # (project_index.ModuleInfo.called_once)
    built_once_here: Set[str] = field(default_factory=set)  # classes the module itself builds once
    scoped_classes: Dict[str, ScopedClass] = field(default_factory=dict)  # read from the input text (_migrate_module)


def _scan(module: cst.Module, facts: "_TreeFacts") -> TFNames:
    names = TFNames.scan(module)
    rebound = rebound_modules(module, facts.imported)
    names.imported = {local: summary for local, summary in facts.imported.items() if local.split(".")[0] not in rebound}
    names.single_instances = set(facts.single_instances)
    names.methods_run_once = {(cls, method) for cls in facts.built_once_here & names.single_instances
                              for method in facts.called_once}
    names.tree_helpers = facts.tree_helpers
    names.attribute_counts = functools.lru_cache(maxsize=None)(lambda: attribute_mentions(module))
    names.object_graph = object_graph
    names.scoped_classes = facts.scoped_classes
    names.class_variables = object_trainable_parts
    names.variable_holders = variable_holders(module, names)
    names.variable_makers = variable_makers(module, names)
    defined = [stmt.name.value for stmt in module.body if isinstance(stmt, cst.ClassDef)]
    names.module_classes = {name for name in defined if defined.count(name) == 1}
    names.changing_methods = {stmt.name.value: self_changing_methods(stmt) for stmt in module.body
                              if isinstance(stmt, cst.ClassDef) and stmt.name.value in names.module_classes}
    names.held_parameters = held_parameters(module, names) if names.module_classes else {}
    names.function_parameters = function_parameters(module, names) if names.module_classes else {}
    return names


_RECURSION_ROOM = 30_000
# Python's compiler scales its nesting limit with the recursion limit; LibCST's native parser
# crashes (SIGSEGV) at a few thousand levels, so the compile check runs at Python's default.
_COMPILE_RECURSION_LIMIT = 1000


@contextlib.contextmanager
def _recursion_limit(limit: int):
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def _migrate(source: str, path: str, mode: str, select, ignore, functions: str,
             facts: _TreeFacts) -> MigrationResult:
    traversal.forget()
    module = parse(source, path)
    with member_objects(mixed_objects(module, facts.tree_helpers.graph_classes)), module_bindings(module):
        return _migrate_module(module, source, path, mode, select, ignore, functions, facts)


def _migrate_module(module: cst.Module, source: str, path: str, mode: str, select, ignore, functions: str,
                    facts: _TreeFacts) -> MigrationResult:
    names = _scan(module, facts)
    if not names.imports_tensorflow:
        return MigrationResult(path, source, source, report.SKIPPED)
    facts.scoped_classes = names.scoped_classes = scoped_classes(module, names)  # (the rules rewrite their scopes)
    findings: List[Finding] = []
    reason = ""
    chosen = COMPAT
    try:
        if mode != COMPAT:
            # Eager: the local rules first (they remove some blockers), then the decision.
            ctx = _context(path, source, module, EAGER, module, functions, facts, names)
            names = None  # the eager rules may change what their context's names say
            steps: List[selfcheck.Step] = []
            local = _apply(module, ctx, select, ignore, lambda rule: rule.ORDER < SESSION_ORDER, steps)
            blockers = list(ctx.blockers) + blockers_of(local, _scan(local, facts), ctx.layer_scopes)
            if not blockers:
                new_module = _apply(local, ctx, select, ignore, lambda rule: rule.ORDER >= SESSION_ORDER, steps)
                eager_code = module_code(new_module)
                tf_names = _tf_names(ctx)
                leftover = selfcheck.graph_only_call(eager_code, tf_names) or selfcheck.unconverted_eval(eager_code) \
                    or (selfcheck.removed_namespace(eager_code, tf_names) if not (select or ignore) else None)
                faults = [] if leftover else selfcheck.check(path, source, eager_code, steps,
                                                             after=_SELF_CHECK_FALLBACK[mode])
                if leftover is not None:  # a safety net: eager code must not call what only works in graph mode
                    blockers = [(None, f"the eager rewrite would still call graph-only `{leftover.group(0)}`"
                                 if not re.search(r"\bcontrib\b|\blayers$", leftover.group(0)) else  # (TF2 lacks them)
                                 f"the eager rewrite would still use `{leftover.group(0)}`, which TF2 does not have")]
                elif faults:
                    findings.extend(faults)
                    reason = "the eager rewrite failed the output self-check"
                    if mode == EAGER:
                        return MigrationResult(path, source, source, report.FAILED, tuple(findings),
                                               "cannot go eager: " + reason)
                else:
                    chosen = EAGER
                    findings.extend(ctx.findings)
            if blockers:
                decision = _context(path, source, local, EAGER, module, facts=facts)
                severity = ERROR if mode == EAGER else WARNING
                for node, why in blockers:
                    decision.report(node, "eager-blocker", severity, why)
                findings.extend(decision.findings)
                # What the local rules could not convert explains the blockers too.
                findings.extend(f for f in ctx.findings if f.severity != INFO)
                reason = report.explained_reason(blockers[0][1], decision.findings, ctx.findings)
                if mode == EAGER:
                    return MigrationResult(path, source, source, report.FAILED, tuple(findings),
                                           "cannot go eager: " + reason)
        if chosen == COMPAT:
            ctx = _context(path, source, module, COMPAT, module, facts=facts, names=names)
            steps = []
            new_module = _apply(module, ctx, select, ignore, lambda rule: True, steps)
            findings.extend(ctx.findings)
    except ScopeBlocked as blocked:
        return _internal_failure(path, source, findings, f"analysis changed after local rules: {blocked}")
    except Exception:  # a rule crashed: keep the input, say so
        return _internal_failure(path, source, findings, traceback.format_exc(limit=3))
    findings = list(dict.fromkeys(findings))  # a rule that runs in both passes reports once
    new_source = module_code(new_module)
    if new_source != source:
        try:  # the check parse() makes of input, so a second run accepts every output
            with _recursion_limit(_COMPILE_RECURSION_LIMIT):
                compile(new_source, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            return _internal_failure(path, source, findings, f"output does not parse: {error}")
        if chosen == COMPAT:  # eager output was checked before the decision
            faults = selfcheck.check(path, source, new_source, steps, after="file left unchanged")
            if faults:
                return MigrationResult(path, source, source, report.FAILED, tuple(findings + faults), "")
    outcome = report.UNCHANGED if new_source == source else (report.EAGER if chosen == EAGER else report.COMPAT)
    if chosen == COMPAT and not reason:
        reason = "--mode compat"
    return MigrationResult(path, source, new_source, outcome, tuple(findings), reason if chosen == COMPAT else "")


# What the engine does with eager output that fails the self-check, by --mode.
_SELF_CHECK_FALLBACK = {AUTO: "file kept in compat mode", EAGER: "file left unchanged (--mode eager)"}


def _internal_failure(path, source, findings, detail) -> MigrationResult:
    message = "internal error, file left unchanged: " + detail.strip().splitlines()[-1]
    findings = list(findings) + [Finding(path, 1, 0, "engine", ERROR, message)]
    return MigrationResult(path, source, source, report.FAILED, tuple(findings), "")


USE_TRIGGERS = True  # skip a rule whose Rule.TRIGGERS the input lacks (tests turn it off to compare)


def _tf_names(ctx: RuleContext) -> List[str]:
    """The names tensorflow goes by in the output: its alias, and ``tf`` unless the module binds ``tf`` to
    something else (a program that reads ``tf`` without importing it still means TensorFlow)."""
    other = ctx.names.aliases.get("tf")
    keep_tf = other is None or other == "tensorflow" or other.startswith("tensorflow.")
    return sorted({ctx.tf} | ({"tf"} if keep_tf else set()))


SESSION_ORDER = 500  # rules before it rewrite TF1 idioms; the session rule and later ones finish the job


def _context(path: str, source: str, module: cst.Module, mode: str, parsed_input: cst.Module,
             functions: str = COMPILED, facts: Optional[_TreeFacts] = None,
             names: Optional[TFNames] = None) -> RuleContext:
    """``names``: the module's scan, when no context has had it yet (a fresh one otherwise)."""
    names = names if names is not None else _scan(module, facts or _TreeFacts({}, set()))
    ctx = RuleContext(path, names, mode, functions=functions, original_source=source,
                      original_module=parsed_input)
    ctx.use_module(module)
    return ctx


def _apply(module: cst.Module, ctx: RuleContext, select, ignore, which, steps: List[selfcheck.Step]) -> cst.Module:
    """``module`` after the rules ``which`` picks; ``steps`` gets each rule that changed it, with its output."""
    for rule in all_rules():
        if ctx.mode not in rule.MODES or not _selected(rule, select, ignore) or not which(rule):
            continue
        tree = ctx.names.tree_helpers
        tree_work = rule.TREE_WORK and (ctx.names.imported or tree.exports or tree.runs_asked)
        triggered = tree_work or any(t in ctx.original_source for t in rule.TRIGGERS)
        if USE_TRIGGERS and rule.TRIGGERS and not triggered:
            continue  # nothing for it in this file
        ctx.use_module(module)
        changed = rule.apply(module, ctx)
        if changed is not module:
            steps.append((rule.RULE_ID, changed))
        module = changed
    return module
