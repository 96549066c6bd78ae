"""``tf.map_fn`` of ``tf.gradients(y[i], x)[0]`` over ``tf.range(m)`` -> one vectorized ``jacobian``.

    J = tf.map_fn(lambda i: tf.gradients(y[i], x)[0], tf.range(m), dtype=tf.float32)

becomes (see :mod:`tf_migrate.rules._jacobian` for why the sum)::

    y_row_sums = tf.reduce_sum(y, axis=list(range(1, y.shape.rank)))[:m]
    J = jacobian(y_row_sums, x)

The function may be a lambda or a ``def`` used by nothing else (it is removed:
a tape cannot record a gradient inside a function). Mapping over y's *values*
(``tf.map_fn(grad_of_element, tf.squeeze(y))``) is a broken recipe: each
element map_fn hands over is a new tensor that x does not reach, and TF1 fails
at run time. It is left as it is, with a warning that names the rewrite.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

from tf_migrate.analysis.static_ranks import StaticRanks
from tf_migrate.analysis.symbols import reads
from tf_migrate.cst.arguments import bind
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import COMPAT, EAGER, Rule, RuleContext
from tf_migrate.rules import _edits as ed
from tf_migrate.rules import _jacobian as jac
from tf_migrate.rules import _jacobian_code as jcode
from tf_migrate.traversal import visit

RULE_ID = "jacobian-map-fn"
_MAP_FN_PARAMS = ["fn", "elems", "dtype", "parallel_iterations", "back_prop", "swap_memory", "infer_shape",
                  "name", "fn_output_signature"]


class JacobianMapFn(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.map_fn of tf.gradients(y[i], x)[0] over tf.range -> one vectorized parallel_for jacobian; "
                   "a map_fn over y's values (fails in TF1) is reported")
    ORDER = 6
    TRIGGERS = ("map_fn",)
    MODES = (EAGER, COMPAT)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        if not jac.gradient_calls(module, ctx.names):
            return module
        finder = _MapCalls(ctx)
        visit(module, finder)
        if not finder.calls:
            return module
        return _Rewrite(module, ctx, finder.functions).run(finder.calls)


class _MapCalls(cst.CSTVisitor):
    """tf.map_fn calls (with their statement), and the module's functions by name."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.calls: List[Tuple[cst.Call, cst.BaseStatement, bool]] = []
        self.functions: Dict[str, List[cst.FunctionDef]] = {}
        self._statements: List[cst.BaseStatement] = []
        self._lambdas = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseStatement):
            self._statements.append(node)
        if isinstance(node, cst.Lambda):
            self._lambdas += 1
        if isinstance(node, cst.FunctionDef):
            self.functions.setdefault(node.name.value, []).append(node)
        if isinstance(node, cst.Call) and self.ctx.names.call_name(node) == "tf.map_fn":
            self.calls.append((node, self._statements[-1], bool(self._lambdas)))
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        super().on_leave(original_node)
        if isinstance(original_node, cst.BaseStatement):
            self._statements.pop()
        if isinstance(original_node, cst.Lambda):
            self._lambdas -= 1


class _Rewrite:
    def __init__(self, module: cst.Module, ctx: RuleContext, functions) -> None:
        self.module, self.ctx, self.names, self.tf = module, ctx, ctx.names, ctx.tf
        self.ranks: Optional[StaticRanks] = None
        self.functions = functions
        self.layout = ed.Layout()
        visit(module, self.layout)
        self.kinds = jac.Kinds(module, ctx.names)
        self.taken = all_names(module)
        self.edits = ed.Edits()
        self.jacobian = None

    def run(self, calls) -> cst.Module:
        done = []
        for call, stmt, in_lambda in calls:
            mapped = self._mapped(call)
            if mapped is None:
                continue
            fn, var, element_expr, definition = mapped
            broken = self._broken(fn, var, call)
            if broken:
                self.ctx.report(call, RULE_ID, WARNING, broken)
                continue
            outcome = "the call sits inside a lambda" if in_lambda else self._vectorize(
                call, stmt, var, element_expr, definition)
            if isinstance(outcome, str):
                self.ctx.report(call, RULE_ID, INFO, f"tf.map_fn of per-element tf.gradients kept ({outcome}); "
                                                     f"{jac.SUGGESTION}")
            else:
                done.append((call, outcome[0]))
        if not self.edits:
            return self.module
        for call, message in done:
            self.ctx.report(call, RULE_ID, INFO, message)
        module = visit(self.module, self.edits)
        _, import_line = self.jacobian
        return jac.add_import(module, self.ctx, import_line) if import_line else module

    def _mapped(self, call: cst.Call):
        """(fn, its parameter, the element it returns, its def or None) when fn differentiates, else None."""
        bound = bind(call, _MAP_FN_PARAMS) or {}
        fn = bound.get("fn")
        if isinstance(fn, cst.Lambda):
            params = fn.params
            body, definition = fn.body, None
            if not jac.gradient_calls(fn, self.names):
                return None
        elif isinstance(fn, cst.Name) and len(self.functions.get(fn.value, [])) == 1:
            definition = self.functions[fn.value][0]
            params = definition.params
            if not jac.gradient_calls(definition, self.names):
                return None
            body = _returned(definition)
        else:
            return None
        if (len(params.params) != 1 or params.params[0].default is not None or params.star_arg
                not in (None, cst.MaybeSentinel.DEFAULT) or params.kwonly_params or params.star_kwarg
                or params.posonly_params):
            return None
        return fn, params.params[0].name.value, body, definition

    def _broken(self, fn, var: str, call: cst.Call) -> Optional[str]:
        """The warning for a map over y's values (each element is cut off from x), else None."""
        for grad in jac.gradient_calls(fn if isinstance(fn, cst.Lambda) else self.functions[fn.value][0],
                                       self.names):
            bound = bind(grad, jac.GRADIENT_PARAMS) or {}
            ys, xs = bound.get("ys"), bound.get("xs")
            if ys is None or var not in reads(ys) or _indexes_with(ys, var):
                continue
            elems_node = (bind(call, _MAP_FN_PARAMS) or {}).get("elems")
            elems = code(elems_node) if elems_node is not None else "y"
            x = code(xs) if xs is not None else "x"
            return (f"tf.map_fn differentiates each value of `{elems}`, but map_fn hands `{code(fn)}` new "
                    f"tensors that `{x}` does not reach: TF1 fails at run time (\"Could not write to "
                    f"TensorArray index ... because it has already been read\"). Map over indices instead: "
                    f"tf.map_fn(lambda i: tf.gradients({elems}[i], {x})[0], tf.range(n), dtype=...), which "
                    f"{RULE_ID} turns into jacobian({elems}, {x}) from {jac.PFOR_MODULE}; kept as it is")
        return None

    def _vectorize(self, call, stmt, var, element_expr, definition) -> Union[str, Tuple[str]]:
        if element_expr is None:
            return "the function does more than compute one gradient and return it"
        bound = bind(call, _MAP_FN_PARAMS) or {}
        elems = bound.get("elems")
        rng = jac.match_range(elems, self.names) if elems is not None else None
        if rng is None or self.names.call_name(elems) != "tf.range":
            return f"it maps over `{code(elems) if elems is not None else '?'}`, not tf.range(...)"
        element = jac.match_element(element_expr, var, self.names)
        if isinstance(element, str):
            return element
        function = self.layout.function_of(stmt) if id(stmt) in self.layout.where else None
        for part in (element.base, element.source):
            if not self.kinds.is_one_tensor(part, function):
                return f"cannot tell that `{code(part)}` is one tensor"
        if definition is not None and len(ed.loads(self.module, definition.name.value)) != 1:
            return f"`{definition.name.value}` is also used elsewhere"
        if self.jacobian is None:
            self.jacobian = jac.jacobian_name(self.module, self.ctx, self.taken)
        if isinstance(self.jacobian, str):
            return self.jacobian
        comments = []
        if definition is not None:
            comments = [line for line in definition.leading_lines if line.comment is not None]
            comments += ed.comment_lines([definition.body])
            self.edits.statements[id(definition)] = []
        if self.ranks is None:
            self.ranks = StaticRanks(self.module, self.names)
        sums = jcode.sums_expression(element, rng, self.tf, self.ranks.rank(element.base))
        if not sums.isidentifier():  # y itself where each row is one element
            source, sums = sums, fresh(jcode.sums_stem(element), self.taken)
            self.edits.before.setdefault(id(stmt), []).append(ed.statement(f"{sums} = {source}", comments))
        batched = jcode.batched_expression(element, sums, self.jacobian[0], self.tf)
        self.edits.expressions[id(call)] = cst.parse_expression(batched)
        return (f"tf.map_fn of {code(element_expr)} over {code(bound['elems'])} -> one vectorized "
                f"{self.jacobian[0]}({sums}, {code(element.source)}): same shape and values",)


def _returned(definition: cst.FunctionDef) -> Optional[cst.BaseExpression]:
    """The element a ``def`` returns, its ``t = ...`` lines inlined; None for anything else."""
    body = list(definition.body.body) if isinstance(definition.body, cst.IndentedBlock) else []
    if definition.decorators or not body:
        return None
    first = body[0]
    if (isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr)
            and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString))):
        body = body[1:]  # docstring
    element, _ = jac.element_of(body, lambda small: small.value if isinstance(small, cst.Return) else None)
    return element


def _indexes_with(expr: cst.BaseExpression, var: str) -> bool:
    """Whether ``var`` is used as a subscript index somewhere in ``expr`` (y[i]: a map over indices)."""
    found = []

    class _Find(cst.CSTVisitor):
        def visit_SubscriptElement(self, element: cst.SubscriptElement) -> None:
            if var in reads(element.slice):
                found.append(element)

    visit(expr, _Find())
    return bool(found)
