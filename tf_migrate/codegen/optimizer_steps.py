"""``opt.minimize`` / ``compute_gradients`` / ``apply_gradients`` -> a step on the function's tape.

TF1 applied only the gradients that exist (a variable the loss does not depend on gets
None and is skipped), and a Keras optimizer counts its own iterations, so ``global_step``
is advanced by hand. The optimizer objects themselves are converted by the optimizers rule.
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst


def _kw(call: cst.Call, name: str, position: int) -> Optional[cst.BaseExpression]:
    for index, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
        if arg.keyword is None and index == position:
            return arg.value
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def lower_optimizer_call(call: cst.Call, target: Optional[str], keras: bool, default_var_list: str,
                         tape: str, fresh) -> List[str]:
    """Statements (source text) replacing ``target = opt.<method>(...)``.

    ``fresh(stem)`` returns an unused local name.
    """
    optimizer = _code(call.func.value)
    method = call.func.attr.value
    if method == "minimize":
        loss = _code(_kw(call, "loss", 0))
        global_step = _kw(call, "global_step", 1)
        var_list = _kw(call, "var_list", 2)
        variables = _code(var_list) if var_list is not None else default_var_list
        grads = fresh("gradients")
        lines = []
        if var_list is not None and not isinstance(var_list, (cst.List, cst.Tuple, cst.Name)):
            held = fresh("variables")
            lines.append(f"{held} = {variables}")
            variables = held
        lines.append(f"{grads} = {tape}.gradient({loss}, {variables})")
        lines += _apply(optimizer, f"zip({grads}, {variables})", global_step, keras)
        return lines
    if method == "compute_gradients":
        loss = _code(_kw(call, "loss", 0))
        var_list = _kw(call, "var_list", 1)
        variables = _code(var_list) if var_list is not None else default_var_list
        return [f"{target} = list(zip({tape}.gradient({loss}, {variables}), {variables}))"]
    if method == "apply_gradients":
        pairs = _code(_kw(call, "grads_and_vars", 0))
        return _apply(optimizer, pairs, _kw(call, "global_step", 1), keras)
    raise ValueError(method)


def _apply(optimizer: str, pairs: str, global_step: Optional[cst.BaseExpression], keras: bool) -> List[str]:
    # TF1 skips variables whose gradient is None; Keras 3 would raise.
    pairs = f"[(grad, var) for grad, var in {pairs} if grad is not None]"
    if not keras:
        step = f", global_step={_code(global_step)}" if global_step is not None else ""
        return [f"{optimizer}.apply_gradients({pairs}{step})"]
    lines = [f"{optimizer}.apply_gradients({pairs})"]
    if global_step is not None and not (isinstance(global_step, cst.Name) and global_step.value == "None"):
        lines.append(f"{_code(global_step)}.assign_add(1)")
    return lines
