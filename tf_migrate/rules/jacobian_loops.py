"""Jacobian loops: a list of ``tf.gradients(y[i], x)[0]`` stacked -> one vectorized ``jacobian``.

    rows = []
    for i in range(y.shape[0]):
        grad = tf.gradients(y[i], x)[0]
        rows.append(tf.expand_dims(grad, axis=0))
    J = tf.stack(rows)

becomes (see :mod:`tf_migrate.rules._jacobian` for why the sum)::

    y_row_sums = tf.reduce_sum(y, axis=list(range(1, y.shape.rank)))
    rows = tf.expand_dims(jacobian(y_row_sums, x), axis=1)
    J = rows

Same shape, same values, one vectorized backward pass instead of a gradient
subgraph per element. List comprehensions, columns (``y[:, j]``), ``tf.stack``
along other axes and ``tf.concat`` of rows expanded along the concat axis are
handled too. A loop that differentiates per element but does not match
exactly is left alone (the tape computes it faithfully, one element at a
time) and an info finding suggests the vectorized form.

Where the output is compiled (``--functions compiled``, the default) and the loop
visits a known number of at most :data:`FEW_ROWS` indices, the loop stays: a
compiled loop of a few gradients costs what TF1's did, while a vectorized
jacobian has a fixed cost of its own (a Jacobian penalty of 4 rows, measured:
1.6-1.9x TF1's step vectorized, 1.0-1.1x as a loop; 16 rows: even; 64 rows: the
vectorized one is faster). Compat output keeps vectorizing: TF1 builds a
gradient subgraph per element, slowly.
"""
from __future__ import annotations

from typing import List, Optional, Tuple, Union

import libcst as cst

from tf_migrate.cst.arguments import bind
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.cst.statements import plain_assignment
from tf_migrate.report import INFO
from tf_migrate.rules import COMPAT, EAGER, Rule, RuleContext
from tf_migrate.rules import _edits as ed
from tf_migrate.rules._edits import int_literal
from tf_migrate.rules import _jacobian as jac
from tf_migrate.rules import _jacobian_code as jcode
from tf_migrate.analysis.static_ranks import StaticRanks
from tf_migrate.analysis.symbols import binding_counts, writes
from tf_migrate.codegen.compiled import COMPILED
from tf_migrate.traversal import contains, visit

RULE_ID = "jacobian-loops"
FEW_ROWS = 16


class JacobianLoops(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("a loop or list comprehension of tf.gradients(y[i], x)[0] stacked into a Jacobian -> one "
                   "vectorized parallel_for jacobian with the same shape and values")
    ORDER = 5
    TRIGGERS = ("gradients",)
    MODES = (EAGER, COMPAT)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if not jac.gradient_calls(module, ctx.names):
            return module
        finder = _Candidates(ctx)
        visit(module, finder)
        if not finder.candidates:
            return module
        return _Rewrite(module, ctx).run(finder.candidates)


class _Candidates(cst.CSTVisitor):
    """Loops and comprehensions whose gradients' ys depend on the loop variable, with their statement."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.candidates: List[Tuple[cst.CSTNode, Optional[cst.BaseStatement], Optional[cst.Call]]] = []
        self._statements: List[cst.BaseStatement] = []
        self._calls: List[cst.Call] = []
        self._lambdas = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseStatement):
            self._statements.append(node)
        elif isinstance(node, cst.Call):
            self._calls.append(node)
        elif isinstance(node, cst.Lambda):
            self._lambdas += 1
        # on_leave still runs for a node whose children are passed over: what the stacks keep stays right
        return super().on_visit(node) and contains(node, (cst.For, cst.ListComp))  # what makes candidates

    def on_leave(self, original_node: cst.CSTNode) -> None:
        super().on_leave(original_node)
        if isinstance(original_node, cst.BaseStatement):
            self._statements.pop()
        elif isinstance(original_node, cst.Call):
            self._calls.pop()
        elif isinstance(original_node, cst.Lambda):
            self._lambdas -= 1

    def visit_For(self, node: cst.For) -> None:
        if isinstance(node.target, cst.Name) and jac.differentiates_along(node.body, node.target.value,
                                                                           self.ctx.names):
            self.candidates.append((node, node, None))

    def visit_ListComp(self, node: cst.ListComp) -> None:
        target = node.for_in.target
        if self._lambdas or not isinstance(target, cst.Name) or not jac.differentiates_along(
                node.elt, target.value, self.ctx.names):
            return
        call = self._calls[-1] if self._calls and self._calls[-1].args and \
            self._calls[-1].args[0].value is node else None
        self.candidates.append((node, self._statements[-1], call))


class _Rewrite:
    def __init__(self, module: cst.Module, ctx: RuleContext) -> None:
        self.module, self.ctx, self.names, self.tf = module, ctx, ctx.names, ctx.tf
        self.ranks: Optional[StaticRanks] = None
        self.layout = ed.Layout()
        visit(module, self.layout)
        self.kinds = jac.Kinds(module, ctx.names)
        self.taken = all_names(module)
        self.edits = ed.Edits()
        self.jacobian: Union[None, str, Tuple[str, Optional[str]]] = None
        self.constants: Optional[dict] = None  # module constants bound once to ints (see _count)

    def run(self, candidates) -> cst.Module:
        done = []
        for node, stmt, call in candidates:
            outcome = self._loop(node) if isinstance(node, cst.For) else self._comprehension(node, stmt, call)
            if isinstance(outcome, _Few):
                self.ctx.report(node, RULE_ID, INFO, f"per-element tf.gradients loop kept: {outcome.count} gradients, "
                                                     f"compiled, cost less than one vectorized jacobian")
            elif isinstance(outcome, str):
                self.ctx.report(node, RULE_ID, INFO, f"per-element tf.gradients loop kept ({outcome}); "
                                                     f"{jac.SUGGESTION}")
            else:
                done.append((node, outcome[0]))
        if not self.edits:
            return self.module
        for node, message in done:
            self.ctx.report(node, RULE_ID, INFO, message)
        module = visit(self.module, self.edits)
        _, import_line = self.jacobian
        return jac.add_import(module, self.ctx, import_line) if import_line else module

    # -- the two shapes of a loop ---------------------------------------------------------------
    def _loop(self, loop: cst.For) -> Union[str, Tuple]:
        var = loop.target.value
        rng = jac.match_range(loop.iter, self.names)
        if rng is None or loop.orelse is not None or loop.asynchronous is not None:
            return "the loop is not a plain `for i in range(...)`"
        block, index, _, function = self.layout.where[id(loop)]
        init = block[index - 1] if index > 0 else None
        rows = _empty_list_target(init)
        if rows is None or not isinstance(loop.body, cst.IndentedBlock):
            return "the loop does not fill a list created empty just before it"
        element_expr, temps = _appended(loop.body.body, rows)
        if element_expr is None:
            return f"the loop body does more than compute one gradient and append it to `{rows}`"
        later = self.layout.following(loop)
        for name in [var, *temps]:
            if not ed.dead_after(name, later):
                return f"`{name}` is read after the loop"
        return self._vectorize(element_expr, var, rng, rows, later, function,
                               lambda sums, batched: {
                                   id(init): [ed.statement(sums, init.leading_lines)] if sums else [],
                                   id(loop): [ed.statement(batched, ([] if sums else list(init.leading_lines))
                                                            + list(loop.leading_lines)
                                                            + ed.comment_lines([loop.body]))]})

    def _comprehension(self, comp: cst.ListComp, stmt, call) -> Union[str, Tuple]:
        for_in = comp.for_in
        var = for_in.target.value
        rng = jac.match_range(for_in.iter, self.names)
        if rng is None or for_in.ifs or for_in.inner_for_in is not None or for_in.asynchronous is not None:
            return "the comprehension is not a plain `for i in range(...)`"
        function = self.layout.function_of(stmt) if id(stmt) in self.layout.where else None
        rows = _assigned_name(stmt, comp)
        if rows is not None:
            return self._vectorize(comp.elt, var, rng, rows, self.layout.following(stmt), function,
                                   lambda sums, batched: {id(stmt): [
                                       *([ed.statement(sums, stmt.leading_lines)] if sums else []),
                                       ed.statement(batched, [] if sums else stmt.leading_lines).with_changes(
                                           trailing_whitespace=stmt.trailing_whitespace)]})
        if call is None or id(stmt) not in self.layout.where:
            return "the list is not bound to a name or passed to tf.stack / tf.concat"
        return self._vectorize(comp.elt, var, rng, None, [], function, None, call, stmt)

    # -- shared ---------------------------------------------------------------------------------
    def _vectorize(self, element_expr, var, rng, rows, later, function, replace, call=None, stmt=None):
        element = jac.match_element(element_expr, var, self.names)
        if isinstance(element, str):
            return element
        for part in (element.base, element.source):
            if not self.kinds.is_one_tensor(part, function):
                return f"cannot tell that `{code(part)}` is one tensor"
        if rows is not None:
            found = _stacking_call(rows, later, self.names)
            if isinstance(found, str):
                return found
            call, consumer = found
            if not ed.dead_after(rows, self.layout.following(consumer)):
                return f"`{rows}` is used again after it is stacked"
        stacked = jac.match_stack(call, self.names, element)
        if isinstance(stacked, str):
            return stacked
        count = self._count(rng)
        if count is not None and count <= FEW_ROWS and self.ctx.mode == EAGER and self.ctx.functions == COMPILED:
            return _Few(count)
        axis, wrappers = stacked
        name = self._jacobian_name()
        if name is None:
            return self.jacobian
        sums, sums_line = self._sums(element, rng)
        batched = jcode.batched_expression(element, sums, name, self.tf, wrappers)
        rank = jcode.batched_rank(element, self.ranks.rank(element.source), wrappers)
        if rows is not None:
            self.edits.statements.update(replace(sums_line, f"{rows} = {batched}"))
            self.edits.expressions[id(call)] = cst.parse_expression(jcode.stacked_along(rows, axis, self.tf, rank))
        else:
            before = self.edits.before.setdefault(id(stmt), [])
            if sums_line:
                before.append(ed.statement(sums_line))
            if axis == 0:
                self.edits.expressions[id(call)] = cst.parse_expression(batched)
            else:
                held = fresh(sums.replace("_sums", "_jacobian"), self.taken)
                before.append(ed.statement(f"{held} = {batched}"))
                self.edits.expressions[id(call)] = cst.parse_expression(jcode.stacked_along(held, axis, self.tf, rank))
        return (f"loop of {code(element_expr)} over {code(rng.stop)} indices -> one vectorized "
                f"{name}({sums}, {code(element.source)}): same shape and values",)

    def _sums(self, element, rng) -> Tuple[str, Optional[str]]:
        """(the ys each row of the Jacobian differentiates, the statement that names them; None: ``y`` itself)."""
        if self.ranks is None:
            self.ranks = StaticRanks(self.module, self.names)
        source = jcode.sums_expression(element, rng, self.tf, self.ranks.rank(element.base))
        if source.isidentifier():
            return source, None
        sums = fresh(jcode.sums_stem(element), self.taken)
        return sums, f"{sums} = {source}"

    def _count(self, rng) -> Optional[int]:
        """How many indices ``rng`` visits, where its bounds are int literals or module constants bound once."""
        if self.constants is None:
            counts = binding_counts(self.module.body)
            self.constants = {}
            for stmt in self.module.body:
                if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and \
                        isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1:
                    target, value = stmt.body[0].targets[0].target, stmt.body[0].value
                    pairs = zip(target.elements, value.elements) if isinstance(target, cst.Tuple) and isinstance(
                        value, cst.Tuple) and len(target.elements) == len(value.elements) else [(target, value)]
                    for name, number in pairs:
                        name = name.value if isinstance(name, cst.Element) else name
                        number = number.value if isinstance(number, cst.Element) else number
                        if isinstance(name, cst.Name) and counts.get(name.value) == 1 and int_literal(number) is not None:
                            self.constants[name.value] = int_literal(number)

        def static(node, default):
            if node is None:
                return default
            value = int_literal(node)
            return value if value is not None else self.constants.get(node.value) if isinstance(node, cst.Name) else None

        bounds = static(rng.start, 0), static(rng.stop, None), static(rng.step, 1)
        return None if None in bounds or bounds[2] == 0 else len(range(*bounds))

    def _jacobian_name(self) -> Optional[str]:
        if self.jacobian is None:
            self.jacobian = jac.jacobian_name(self.module, self.ctx, self.taken)
        return None if isinstance(self.jacobian, str) else self.jacobian[0]


class _Few:
    """A loop kept because it visits few indices and runs compiled."""

    def __init__(self, count: int) -> None:
        self.count = count


def _empty_list_target(stmt) -> Optional[str]:
    """``rows`` for ``rows = []``."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        assign = stmt.body[0]
        if (len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)
                and isinstance(assign.value, cst.List) and not assign.value.elements):
            return assign.targets[0].target.value
    return None


def _assigned_name(stmt, value) -> Optional[str]:
    found = plain_assignment(stmt)
    return found[0] if found is not None and found[1] is value else None


def _appended(body, rows: str):
    """(element, temporaries) of ``t = ...`` lines then ``rows.append(element)``; (None, []) otherwise."""
    def pick(small):
        call = small.value if isinstance(small, cst.Expr) else None
        if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append"
                and isinstance(call.func.value, cst.Name) and call.func.value.value == rows
                and len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star):
            return call.args[0].value
        return None

    return jac.element_of(body, pick)


def _stacking_call(rows: str, later, names) -> Union[Tuple[cst.Call, cst.BaseStatement], str]:
    """The tf.stack / tf.concat call that is the next use of the list ``rows``, and its statement."""
    for stmt in later:
        used = ed.loads(stmt, rows)
        if not used:
            if rows in writes(stmt):
                return f"`{rows}` is rebound before it is stacked"
            continue
        if len(used) != 1:
            return f"`{rows}` is used for more than tf.stack / tf.concat"
        found = []

        class _Find(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                if names.call_name(call) in ("tf.stack", "tf.concat"):
                    values = bind(call, ["values", "axis", "name"]) or {}
                    if values.get("values") is used[0]:
                        found.append(call)

        visit(stmt, _Find())
        if not found:
            return f"`{rows}` is used for more than tf.stack / tf.concat"
        return found[0], stmt
    return f"`{rows}` is never stacked"
