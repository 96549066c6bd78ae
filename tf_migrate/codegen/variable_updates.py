"""Runs that only update one variable (or fill or close one queue), written where the program runs them.

``sess.run(tf.assign(W, value))`` is a run of one op. Built like any other run it
becomes a function of its own, compiled, called where the run stood:

    @tf.function
    def run_set_W():
        set_W = W.assign([[1.0, 2.0], [3.0, 4.0]])
        return set_W

    print(to_numpy(call_compiled(run_set_W)))

A TF2 engineer writes the update where it happens: ``print(W.assign([[1.0, 2.0], [3.0,
4.0]]).numpy())``. Eager, the one op runs as it ran in the function (an update returns the
variable's new value in both), and a call of it costs less than a ``tf.function`` call. This
pass does that for the generated functions of one scope whose whole body is one update of a
variable (``assign``, ``assign_add``, ``assign_sub``) and which take no arguments: each call
becomes the update, ``.numpy()`` where the value is used, and the definition goes. A
function is kept where any use of its name is not such a call at the scope's own level (a
call inside a nested function or class, a reference passed around): names there could mean
other things. Comments of the function's body move to the first statement that calls it.

A run of one queue op (``sess.run(q.enqueue_many(...))``, which gave None) becomes a function whose whole body is
``fill = q.enqueue_many(...)`` and that returns nothing: its calls become the op the same way (it gives None eager,
so no ``.numpy()`` follows it).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.traversal import visit

UPDATES = ("assign", "assign_add", "assign_sub")
QUEUE_OPS = ("enqueue", "enqueue_many", "close")  # (a generated function's statement calls them on a queue only)


def _no_arguments(function: cst.FunctionDef) -> bool:
    return not (function.params.params or function.params.star_arg not in (cst.MaybeSentinel.DEFAULT, None)
                or function.params.kwonly_params or function.params.star_kwarg is not None)


def _bound_method_call(statement: cst.BaseStatement, methods) -> Optional[cst.Call]:
    """``m(...)`` of ``n = obj.m(...)``, the statement's one assignment, where ``m`` is one of ``methods``."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return None
    assign = statement.body[0]
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)):
        return None
    call = assign.value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
            and isinstance(call.func.value, cst.Name) and call.func.attr.value in methods):
        return None
    return None if any(arg.star for arg in call.args) else call


def single_queue_op(function: cst.FunctionDef) -> Optional[cst.Call]:
    """The queue op that is the whole of ``function`` (``fill = q.enqueue_many(...)``, nothing returned), or None."""
    body = function.body.body
    if not _no_arguments(function) or len(body) != 1:
        return None
    return _bound_method_call(body[0], QUEUE_OPS)


def single_update(function: cst.FunctionDef) -> Optional[cst.Call]:
    """The update call that is the whole of ``function`` (``n = v.assign(...)``, ``return n``), or None."""
    body = function.body.body
    if not _no_arguments(function) or len(body) != 2:
        return None
    call = _bound_method_call(body[0], UPDATES)
    ret = body[1].body[0] if isinstance(body[1], cst.SimpleStatementLine) and len(body[1].body) == 1 else None
    if call is None or not (isinstance(ret, cst.Return) and isinstance(ret.value, cst.Name)
                            and ret.value.value == body[0].body[0].targets[0].target.value):
        return None
    if any(arg.keyword is not None and arg.keyword.value == "read_value" for arg in call.args):
        return None
    return call


def inline_variable_updates(body: List[cst.BaseStatement], generated: Set[int], to_numpy: str,
                            call_compiled: str, keep_numpy: bool = False
                            ) -> Tuple[List[cst.BaseStatement], Set[int], List[str]]:
    """``body`` with the generated one-update functions written at their calls (see the module docstring),
    the ids of the generated definitions left, and the names of those inlined. ``keep_numpy``: a call whose
    value is dropped still gets ``.numpy()`` (a notebook cell shows its last expression)."""
    updates: Dict[str, cst.Call] = {}
    valueless: Set[str] = set()  # those that run a queue op: None, eager too
    for node in body:
        if id(node) in generated and isinstance(node, cst.FunctionDef):
            call = single_update(node)
            if call is None and single_queue_op(node) is not None:
                call = single_queue_op(node)
                valueless.add(node.name.value)
            if call is not None:
                updates[node.name.value] = call
    if not updates:
        return body, generated, []
    users = _Uses(set(updates), call_compiled)
    for node in body:
        if id(node) not in generated:
            visit(node, users)
    inlined = {name for name in updates if users.calls[name] and users.calls[name] == users.uses[name]}
    if not inlined:
        return body, generated, []
    comments = {node.name.value: _comments(node) for node in body
                if isinstance(node, cst.FunctionDef) and node.name.value in inlined}
    out: List[cst.BaseStatement] = []
    for node in body:
        if isinstance(node, cst.FunctionDef) and node.name.value in inlined and id(node) in generated:
            continue
        if id(node) not in generated:
            replacer = _Inline({name: updates[name] for name in inlined}, to_numpy, call_compiled, keep_numpy,
                               {id(updates[name]) for name in inlined & valueless})
            new = visit(node, replacer)
            lines = [line for name in replacer.replaced for line in comments.pop(name, [])]
            if lines:
                new = new.with_changes(leading_lines=list(new.leading_lines) + lines)
            node = new
        out.append(node)
    kept = {id(node) for node in out if id(node) in generated}
    return out, kept, sorted(inlined)


def _comments(function: cst.FunctionDef) -> List[cst.EmptyLine]:
    return [line.with_changes(indent=True) for st in function.body.body for line in st.leading_lines
            if line.comment is not None]


def _called_name(call: cst.Call, call_compiled: str) -> Optional[str]:
    """``f`` for ``f()`` and ``call_compiled(f)``."""
    if isinstance(call.func, cst.Name) and not call.args:
        return call.func.value
    if isinstance(call.func, cst.Name) and call.func.value == call_compiled and len(call.args) == 1 \
            and isinstance(call.args[0].value, cst.Name) and call.args[0].keyword is None:
        return call.args[0].value.value
    return None


class _Uses(cst.CSTVisitor):
    """Per name: how many times it is read, and how many of those are calls at the scope's own level."""

    def __init__(self, names: Set[str], call_compiled: str) -> None:
        self.names = names
        self.call_compiled = call_compiled
        self.uses: Dict[str, int] = {name: 0 for name in names}
        self.calls: Dict[str, int] = {name: 0 for name in names}
        self._depth = 0

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names:
            self.uses[node.value] += 1

    def visit_Call(self, node: cst.Call) -> None:
        name = _called_name(node, self.call_compiled)
        if self._depth == 0 and name in self.names:
            self.calls[name] += 1

    def visit_FunctionDef(self, node) -> None:
        self._depth += 1

    def leave_FunctionDef(self, node) -> None:
        self._depth -= 1

    visit_ClassDef, leave_ClassDef = visit_FunctionDef, leave_FunctionDef
    visit_Lambda, leave_Lambda = visit_FunctionDef, leave_FunctionDef


class _Inline(cst.CSTTransformer):
    def __init__(self, updates: Dict[str, cst.Call], to_numpy: str, call_compiled: str, keep_numpy: bool,
                 valueless: Set[int]) -> None:
        self.updates = updates
        self.valueless = valueless  # ids of the queue ops among the updates: no ``.numpy()`` after them
        self.to_numpy = to_numpy
        self.call_compiled = call_compiled
        self.keep_numpy = keep_numpy
        self.replaced: List[str] = []
        self._statement_value: Optional[cst.BaseExpression] = None

    def visit_Expr(self, node: cst.Expr) -> None:
        self._statement_value = node.value

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = _called_name(updated, self.call_compiled)
        if name in self.updates:
            self.replaced.append(name)
            return self.updates[name]
        if isinstance(updated.func, cst.Name) and updated.func.value == self.to_numpy and len(updated.args) == 1:
            inner = updated.args[0].value
            if any(inner is call for call in self.updates.values()):
                if original is self._statement_value and not self.keep_numpy:
                    return inner  # the value is dropped: the update alone
                if id(inner) in self.valueless:
                    return updated  # to_numpy(None) is None
                return cst.Call(cst.Attribute(inner, cst.Name("numpy")))
        return updated
