"""Where a run function's gradient tapes start and what they watch.

A generated run function computes its statements in program order; its gradient statements (``tf.gradients``,
an optimizer's ``minimize`` / ``compute_gradients``) need a ``tf.GradientTape`` that recorded the values they
differentiate. :class:`Tapes` answers the questions :class:`~tf_migrate.codegen.function_builder.FunctionBuilder`
and :mod:`~tf_migrate.codegen.nested_tapes` ask of the statements: how many derivatives a statement takes,
whether one tape opened before the first gradient serves them all, which statements must run while a tape
records, and what each tape watches (or stops) and where.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.derivatives import bind_derivative, source_keys
from tf_migrate.analysis.slicing import RunPlan
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.codegen import gradients as grads
from tf_migrate.tfnames import TFNames


class Tapes:
    def __init__(self, scope: "pm.Scope", names: TFNames, kind_of: Callable) -> None:
        self.scope, self.names, self.kind_of = scope, names, kind_of

    def gradient_count(self, st: "pm.Statement") -> int:
        return len(grads.gradient_calls(st.node, self.names)) + (
            1 if optimizer_call(st, self.kind_of) is not None and st.gradient else 0)

    def is_clean(self, statements: List["pm.Statement"]) -> bool:
        """Whether every gradient differentiates values computed before the first gradient statement, with
        nothing its tape must record while it runs (see ``in_context``)."""
        first = next(i for i, s in enumerate(statements) if s.gradient)
        later_defs: Set[str] = set()
        for st in statements[first:]:
            if st.gradient and (st.reads & later_defs or self.in_context(st)):
                return False
            later_defs |= set(st.defines)
        return True

    def in_context(self, st: "pm.Statement") -> bool:
        """Whether a gradient statement needs its tape recording while it runs: ys computed in the call
        (``y[:, i]``), a loss computed in ``minimize``, hessians, or gradients in a loop or block."""
        if not isinstance(st.node, cst.SimpleStatementLine):
            return True
        call = optimizer_call(st, self.kind_of)
        if call is not None and symbol_key(loss_of(call)) is None:
            return True
        for call in grads.gradient_calls(st.node, self.names):
            qualname = self.names.call_name(call)
            if qualname in grads.IN_CONTEXT:
                return True
            ys = bind_derivative(call, qualname).get("ys")
            elements = [e.value for e in ys.elements] if isinstance(ys, (cst.List, cst.Tuple)) else [ys]
            if any(symbol_key(e) is None for e in elements):
                return True
        return False

    def differentiated_keys(self, st: "pm.Statement") -> Set[str]:
        """The keys a gradient statement differentiates or differentiates against: its tape must have recorded
        where they were computed (ys, the optimizer's loss) or watched them (xs)."""
        keys: Set[str] = set()
        call = optimizer_call(st, self.kind_of)
        if call is not None and symbol_key(loss_of(call)) is not None:
            keys.add(symbol_key(loss_of(call)))
        for call in grads.gradient_calls(st.node, self.names):
            qualname = self.names.call_name(call)
            ys = bind_derivative(call, qualname).get("ys")
            elements = [e.value for e in ys.elements] if isinstance(ys, (cst.List, cst.Tuple)) else [ys]
            keys.update(key for key in map(symbol_key, elements) if key is not None)
            keys.update(source_keys(call, qualname))
        return keys

    def watches(self, statements: List["pm.Statement"], plan: RunPlan, only: Optional["pm.Statement"] = None):
        """What the tape watches (or stops) at its start and after the statements that define it; ``only``:
        for the gradient calls of that statement (one of nested tapes)."""
        at_start: List[str] = []
        after: dict = {}
        stopped_after: dict = {}
        definitions: dict = {}  # key -> the indices of the statements that bind it, in order
        for st in statements:
            for k in st.defines:
                definitions.setdefault(k, []).append(st.index)
        # Variable lists built in the run (a collection of layer variables): a tape watches variables itself.
        variable_lists = {k for st in statements for k in st.defines
                          if any(id(c) in self.scope.lazy_collections for c in all_calls(st.node))}
        for st in statements if only is None else [only]:
            # The binding each name has where the gradient is taken (`a = a + 1` after it is another tensor).
            defined_at = {k: max(i for i in indices if i < st.index) for k, indices in definitions.items()
                          if any(i < st.index for i in indices)}
            for call in grads.gradient_calls(st.node, self.names):
                for key in source_keys(call, self.names.call_name(call)):
                    kind = self.scope.kind(key)
                    symbol = self.scope.symbols.get(key)
                    watch_later = after.setdefault(defined_at[key], []) if key in defined_at else at_start
                    wanted = key not in variable_lists and (
                        key in defined_at or kind in (pm.PLACEHOLDER, pm.TENSOR, pm.STRUCT, pm.TENSORS) or (
                            kind == pm.VARIABLE and symbol is not None and not symbol.trainable))
                    if wanted and key not in watch_later:
                        watch_later.append(key)
                for key in grads.stopped_keys(call) or []:
                    if key in defined_at:
                        stopped_after.setdefault(defined_at[key], []).append(key)
                    else:
                        at_start.append(("stop", key))
        return at_start, after, stopped_after


def loss_of(call: cst.Call) -> Optional[cst.BaseExpression]:
    """The loss an optimizer's ``minimize``/``compute_gradients`` call differentiates."""
    return call.args[0].value if call.args and call.args[0].keyword is None else next(
        (a.value for a in call.args if a.keyword is not None and a.keyword.value == "loss"), None)


def optimizer_call(st: "pm.Statement", kind_of) -> Optional[cst.Call]:
    _, value = single(st.node)
    if (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
            and value.func.attr.value in ("minimize", "compute_gradients", "apply_gradients")
            and kind_of(value.func.value) == "optimizer"):
        return value
    return None
