"""Per-run values read where no run provides them, and what may be read anyway.

A statement that stays where it was (plain Python, a kept variable, a run)
must not read a value that only exists inside a run. The exceptions are
static facts: a placeholder's declared shape and dtype, and the shape of a
per-run tensor that needs no feeds and has no effects (computed once).
"""
from __future__ import annotations

from typing import List, Optional, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.input_specs import input_spec, is_flag, run_parameters
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.slicing import RunPlan, plan_run
from tf_migrate.analysis.symbols import all_calls, comprehension_scope, symbol_key, target_names, writes
from tf_migrate.cst.arguments import parameter_names
from tf_migrate.traversal import visit

# Static facts of a placeholder that code outside any run may read.
STATIC_ATTRIBUTES = {"shape", "get_shape", "dtype"}


class _EscapeFinder(cst.CSTVisitor):
    def __init__(self, skip_calls, scope) -> None:
        self.skip = {id(c) for c in skip_calls}
        self.scope = scope
        self.keys: Set[str] = set()
        self.local: List[Set[str]] = []
        # Static facts of per-run tensors read outside runs: node id -> (key, "shape" | "get_shape" | "dtype").
        self.static: dict = {}

    def _static_base(self, node: cst.BaseExpression):
        key = symbol_key(node)
        if key is None or any(key in frame for frame in self.local):
            return None
        kind = self.scope.kind(key)
        return key if kind in pm.DEFERRED_KINDS and kind != pm.PLACEHOLDER else None

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if (isinstance(func, cst.Attribute) and func.attr.value == "get_shape" and not node.args
                and self._static_base(func.value)):
            self.static[id(node)] = (self._static_base(func.value), "get_shape")
            return False
        return id(node) not in self.skip

    def visit_Import(self, node) -> bool:
        return False  # binding a name is not reading one

    visit_ImportFrom = visit_Import
    visit_Global = visit_Import  # `global prediction` declares where a name lives; it reads nothing
    visit_Nonlocal = visit_Import

    def visit_Dict(self, node: cst.Dict) -> bool:
        if id(node) in self.scope.feed_literals:  # {a: 15} passed as a feed: the keys name what a run replaces
            for element in node.elements:
                visit(element.value, self)
            return False
        return True

    def visit_DictElement(self, node: cst.DictElement) -> bool:
        if symbol_key(node.key) is not None and self.scope.kind(symbol_key(node.key)) == pm.PLACEHOLDER:
            visit(node.value, self)
            return False
        return True

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        # feed[x] = value with a placeholder key
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            key = symbol_key(node.slice[0].slice.value)
            if key is not None and self.scope.kind(key) == pm.PLACEHOLDER:
                visit(node.value, self)
                return False
        return True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        self._written(node.target)  # `X = np.arange(3)` after the runs rebinds X: it reads no placeholder
        return False

    def visit_For(self, node: cst.For) -> bool:
        self._written(node.target)
        for part in (node.iter, node.body, node.orelse):
            if part is not None:
                visit(part, self)
        return False

    def _written(self, target: cst.BaseExpression) -> None:
        """A binding target: its names are written, not read; what a subscript or attribute target
        evaluates to find its slot (``d[k]``, ``obj.x``'s ``obj``) is read."""
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._written(element.value)
        elif isinstance(target, cst.StarredElement):
            self._written(target.value)
        elif isinstance(target, cst.Subscript):
            visit(target, self)
        elif isinstance(target, cst.Attribute):
            visit(target.value, self)
        elif not isinstance(target, cst.Name):
            visit(target, self)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        params = set(parameter_names(node.params))
        self.local.append(params | set(writes(node.body)))

    def leave_FunctionDef(self, node) -> None:
        self.local.pop()

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        visit(node.params, self)  # the defaults (visit_Param)
        self._in_frame(target_names(node.params), [node.body])
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        if node.default is not None:
            visit(node.default, self)
        return False

    def _comprehension(self, node) -> bool:
        """Names a comprehension's ``for`` targets bind are its own (``[x[0] for x in data]`` reads no ``x`` of
        the graph); the first ``for``'s iterable is read outside them."""
        outer, own, inner = comprehension_scope(node)
        visit(outer, self)
        self._in_frame(own, inner)
        return False

    def _in_frame(self, names, nodes) -> None:
        self.local.append(set(names))
        for node in nodes:
            visit(node, self)
        self.local.pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        key = symbol_key(node)
        if key is not None:
            self._record(key)
            return False
        base = symbol_key(node.value)
        if base is not None and node.attr.value in STATIC_ATTRIBUTES and self.scope.kind(base) == pm.PLACEHOLDER:
            return False  # a placeholder's declared shape/dtype: known without running
        if node.attr.value in ("shape", "dtype") and self._static_base(node.value):
            self.static[id(node)] = (self._static_base(node.value), node.attr.value)
            return False
        visit(node.value, self)  # `.attr` names a member; it reads no variable
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self._record(node.value)

    def visit_Arg(self, node: cst.Arg) -> bool:
        visit(node.value, self)
        return False

    def _record(self, key: str) -> None:
        if any(key in frame for frame in self.local):
            return
        if self.scope.deferred(key):
            self.keys.add(key)


def finder(node, run_sites, scope) -> "_EscapeFinder":
    """The escape finder run over ``node`` (run sites in ``run_sites`` are skipped)."""
    found = _EscapeFinder([s.call for s in run_sites], scope)
    if isinstance(node, cst.FunctionDef):
        found.visit_FunctionDef(node)
        visit(node.body, found)
    else:
        visit(node, found)
    return found


def escaped_reads(node, run_sites, scope) -> Set[str]:
    """Per-run keys ``node`` reads outside the given run sites (static reads included)."""
    found = finder(node, run_sites, scope)
    return found.keys | {key for key, _ in found.static.values()}


def static_read_problem(scope, key: str, before: int):
    """Why ``key``'s shape cannot be had by computing it once outside any run (None: it can)."""
    site = RunSite(cst.Call(cst.Name("static")), "run", cst.parse_expression(key), None)
    plan = plan_run(scope, site, before)
    if plan.unfed_placeholders:
        return "its shape depends on fed placeholders"
    if plan.conflicts:
        return plan.conflicts[0]  # an object's placeholder it needs (object_members), say
    for st in plan.statements:
        if st.random or st.per_run_effect or st.kind == pm.OP or any(
                isinstance(c.func, cst.Attribute) and c.func.attr.value.startswith("assign")
                for c in all_calls(st.node)):
            return "computing it runs ops with effects or random draws"
    return None


def printed_only(node: cst.CSTNode, key: str, run_sites) -> List[cst.Name]:
    """The ``key`` names that ``print`` takes as whole positional arguments in ``node``, when those are all the
    ways ``node`` reads ``key`` outside its run sites (else ``[]``)."""
    skip = {id(s.call) for s in run_sites}
    printed: List[cst.Name] = []
    count = 0

    class _Walk(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> bool:
            if id(call) in skip:
                return False
            if isinstance(call.func, cst.Name) and call.func.value == "print":
                printed.extend(arg.value for arg in call.args if arg.keyword is None and not arg.star
                               and isinstance(arg.value, cst.Name) and arg.value.value == key)
            return True

        def visit_Name(self, name: cst.Name) -> None:
            nonlocal count
            count += name.value == key

        def visit_Attribute(self, attr: cst.Attribute) -> bool:
            visit(attr.value, self)
            return False

        def visit_Arg(self, arg: cst.Arg) -> bool:
            visit(arg.value, self)
            return False

        def visit_FunctionDef(self, node) -> bool:
            return False

        visit_Lambda = visit_ClassDef = visit_FunctionDef

    visit(node, _Walk())
    return printed if printed and len(printed) == count else []


def traced_plan(scope, key: str, before: int) -> RunPlan:
    """The run of ``key`` whose trace describes it: fed every placeholder it needs, as a ``sess.run`` of it
    with those feeds is (so both share one generated function)."""
    fetch = cst.parse_expression(key)
    plan = plan_run(scope, RunSite(cst.Call(cst.Name("describe")), "run", fetch, None), before)
    keys = [st.defines[0] for st in plan.unfed_placeholders if st.defines]
    if not keys:
        return plan
    feed = cst.Dict([cst.DictElement(cst.parse_expression(k), cst.parse_expression(k)) for k in keys])
    return plan_run(scope, RunSite(cst.Call(cst.Name("describe")), "run", fetch, feed), before)


def describe_problem(scope, names, key: str, before: int) -> Optional[str]:
    """Why the graph of ``key`` cannot be traced where a statement prints it, outside any run (None: it can).

    TF1 printed a graph tensor's description (``Tensor("one_hot:0", shape=(?, 1, 7), dtype=float32)``);
    the migrated program prints the output of its run function's trace, which shows the same: the trace
    needs an input signature written from the placeholders it takes, and graph code only.
    """
    plan = traced_plan(scope, key, before)
    if plan.conflicts:
        return plan.conflicts[0]
    for st in plan.statements:
        if st.kind == pm.PYTHON or st.role != pm.DEFER or any(scope.kind(k) == pm.ITERATOR for k in st.reads):
            return "its value needs Python code or a dataset iterator"
    for param, symbol in run_parameters(plan, scope, names):
        if is_flag(symbol, names) or input_spec(symbol, scope, names, "tf") is None:
            return f"the placeholder `{param}` it needs has no dtype and shape written in the program"
    return None


def session_uses(node, run_sites, sessions) -> Optional[str]:
    """``sess.graph``, ``sess.list_devices()``: a session used for more than .run()/.close()."""
    uses = _SessionUses({id(s.call) for s in run_sites}, sessions)
    visit(node, uses)
    return uses.found[0] if uses.found else None


class _SessionUses(cst.CSTVisitor):
    def __init__(self, skip: Set[int], sessions) -> None:
        self.skip, self.sessions = skip, sessions
        self.found: List[str] = []

    def visit_Call(self, call: cst.Call) -> bool:
        if id(call) in self.skip:
            return False
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in ("close", "run", "as_default") \
                and symbol_key(call.func.value) in self.sessions:
            return False
        return True

    def visit_Attribute(self, attr: cst.Attribute) -> bool:
        if symbol_key(attr.value) in self.sessions:
            self.found.append(f"{symbol_key(attr.value)}.{attr.attr.value}")
            return False
        return True

    def visit_FunctionDef(self, node) -> bool:
        return False


def session_misuse(functions, callee: str, passed, seen: Optional[Set[str]] = None) -> str:
    """``sess.graph`` or another use of the session that ``callee`` (one of ``functions``: name -> FunctionDef) is
    given by the arguments ``passed`` ((position, Arg) pairs), other than running the graph with it, in its body or in
    the functions of ``functions`` it passes the session on to ('' if none)."""
    function, seen = functions[callee], seen if seen is not None else set()
    if callee in seen:
        return ""
    seen.add(callee)
    positional = [p.name.value for p in function.params.params]
    params = {arg.keyword.value if arg.keyword is not None else positional[index] if index < len(positional) else ""
              for index, arg in passed} - {""}
    use = session_uses(function.body, [], params) if params else None
    if use:
        return use
    for call in all_calls(function.body):
        inner = call.func.value if isinstance(call.func, cst.Name) else None
        handed = [(index, arg) for index, arg in enumerate(call.args) if symbol_key(arg.value) in params]
        if inner in functions and handed:
            use = session_misuse(functions, inner, handed, seen)
            if use:
                return use
    return ""
