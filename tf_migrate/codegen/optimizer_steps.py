"""``opt.minimize`` / ``compute_gradients`` / ``apply_gradients`` -> a step on the function's tape.

TF1 applied only the gradients that exist (a variable the loss does not depend on gets
None and is skipped), and a Keras optimizer counts its own iterations, so ``global_step``
is advanced by hand. The optimizer objects themselves are converted by the optimizers rule.

TF1's optimizers summed the repeated rows of a sparse gradient (an embedding
lookup's, one row per id in the batch) before the update; Keras applies them
row by row, which for Adam squares each row apart (``v += g * g``). Where the
program gathers from variables and a Keras optimizer is not linear in the
gradient (``dense_gradients``), the gradients are made dense first, which sums
the rows as TF1 did. A ``tf.compat.v1.train`` optimizer is TF1's own: it gets
the sparse gradients, as TF1's did (dense ones would round its update otherwise).

A ``tf.compat.v1.train`` optimizer (kept for TF1's update rule: RMSProp, or TF1's rounding) updates
only ``tf.Variable``s; a Keras 3 layer's variable is a wrapper whose ``.value`` is the
``tf.Variable`` it stores its value in, so where the scope has Keras layers those are what it is
given (``keras_variables``): the layer sees each update.
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.cst.arguments import argument
from tf_migrate.cst.text import code


def lower_optimizer_call(call: cst.Call, target: Optional[str], keras: bool, default_var_list: str,
                         tape: str, fresh, dense_gradients: Optional[str] = None,
                         keras_variables: Optional[str] = None) -> List[str]:
    """Statements (source text) replacing ``target = opt.<method>(...)``.

    ``fresh(stem)`` returns an unused local name. ``dense_gradients``: the module's TF
    alias when sparse gradients must be summed into dense ones first (see above; Keras
    optimizers only). ``keras_variables``: the module's TF alias when a TF1 optimizer may be
    given Keras layers' variables (see above).
    """
    optimizer = code(call.func.value)
    method = call.func.attr.value
    if method == "minimize":
        loss = code(argument(call, "loss", 0))
        global_step = argument(call, "global_step", 1)
        var_list = argument(call, "var_list", 2)
        variables = code(var_list) if var_list is not None else default_var_list
        grads = fresh("gradients")
        lines = []
        if _computed(var_list, variables):
            held = fresh("variables")
            lines.append(f"{held} = {variables}")
            variables = held
        lines.append(f"{grads} = {tape}.gradient({loss}, {variables})")
        if dense_gradients:
            lines.append(f"{grads} = {_densified(grads, dense_gradients)}")
        lines += _apply(optimizer, f"zip({grads}, {variables})", global_step, keras, keras_variables)
        return lines
    if method == "compute_gradients":
        loss = code(argument(call, "loss", 0))
        var_list = argument(call, "var_list", 1)
        variables = code(var_list) if var_list is not None else default_var_list
        lines = []
        if _computed(var_list, variables):
            held = fresh("variables")
            lines.append(f"{held} = {variables}")
            variables = held
        gradients = f"{tape}.gradient({loss}, {variables})"
        if dense_gradients:
            gradients = _densified(gradients, dense_gradients)
        return lines + [f"{target} = list(zip({gradients}, {variables}))"]
    if method == "apply_gradients":
        pairs = code(argument(call, "grads_and_vars", 0))
        return _apply(optimizer, pairs, argument(call, "global_step", 1), keras, keras_variables)
    raise ValueError(method)


def _computed(var_list: Optional[cst.BaseExpression], text: str) -> bool:
    """Whether the variable list is computed (a call, a comprehension, layers' variables unpacked): it is
    then bound once to a local, not written out for the gradient and again for the update."""
    if var_list is None:
        return "*" in text or "(" in text
    return not isinstance(var_list, (cst.List, cst.Tuple, cst.Name)) or "*" in text or "(" in text


def _densified(gradients: str, tf: str) -> str:
    return f"[None if grad is None else {tf}.convert_to_tensor(grad) for grad in {gradients}]"


def _apply(optimizer: str, pairs: str, global_step: Optional[cst.BaseExpression], keras: bool,
           keras_variables: Optional[str] = None) -> List[str]:
    if not keras:
        # TF1 skips variables whose gradient is None.
        var = f"var.value if isinstance(var, {keras_variables}.keras.Variable) else var" if keras_variables else "var"
        pairs = f"[(grad, {var}) for grad, var in {pairs} if grad is not None]"
        step = f", global_step={code(global_step)}" if global_step is not None else ""
        return [f"{optimizer}.apply_gradients({pairs}{step})"]
    # A Keras optimizer skips None gradients itself (with a warning), after it has built its slots
    # for every variable it was given: filtering first would build it for this step's variables
    # only, and a later step with other gradients (a second minimize) would fail on unknown variables.
    lines = [f"{optimizer}.apply_gradients({pairs})"]
    if global_step is not None and not (isinstance(global_step, cst.Name) and global_step.value == "None"):
        lines.append(f"{code(global_step)}.assign_add(1)")
    return lines
