"""Module functions that build a training step, called once at build time -> their body at the call.

    def training(loss):                                   optimizer = tf.train.MomentumOptimizer(0.01, 0.9)
        optimizer = tf.train.MomentumOptimizer(0.01, 0.9)  train_step = optimizer.minimize(loss)
        train_step = optimizer.minimize(loss)    ->
        return train_step

    train_step = training(loss)

A generated run function that called the helper would make a new optimizer at every step; TF1
made one, when the call ran. With the body in place, the optimizer and its step convert as
written in the script (the optimizer is built once; the step becomes a tape in the run function).
Which helpers qualify is :mod:`tf_migrate.analysis.step_helpers`' rule. Eager mode only: a file
that stays compat keeps its helpers.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.main_guard import is_main_guard
from tf_migrate.analysis.step_helpers import outside_names, site_of, step_helpers
from tf_migrate.analysis.symbols import reads, symbol_key, target_keys, value_reads, writes
from tf_migrate.codegen.replace import rename_keys
from tf_migrate.cst.names import fresh
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext

RULE_ID = "inline-step-helpers"


class InlineStepHelpers(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "module functions that build an optimizer step, called at build time -> their body at the call"
    ORDER = 3  # before the rules that convert optimizers and their steps
    TRIGGERS = ("Optimizer", "optimizers", "minimize", "apply_gradients")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        helpers = step_helpers(module, ctx.names)
        if not helpers:
            return module
        taken = outside_names(module, helpers)
        inlined: Set[str] = set()

        def rewrite(block: List[cst.BaseStatement]) -> List[cst.BaseStatement]:
            out: List[cst.BaseStatement] = []
            for statement in block:
                found = site_of(statement, set(helpers))
                expanded = _expand(statement, helpers[found[0]], taken) if found is not None else None
                if expanded is None:
                    out.append(statement)
                    continue
                inlined.add(found[0])
                ctx.report(statement, RULE_ID, INFO,
                           f"`{found[0]}` builds an optimizer step, once: its body runs here, where TF1 called it")
                out.extend(expanded)
            return out

        body = []
        for node in rewrite(list(module.body)):
            if is_main_guard(node) and isinstance(node.body, cst.IndentedBlock):
                node = node.with_changes(body=node.body.with_changes(body=rewrite(list(node.body.body))))
            body.append(node)
        if not inlined:
            return module
        if any(name not in inlined for name in helpers):
            return module  # a helper with a call that did not bind: keep every helper as it was
        body = [node for node in body if not any(node is helpers[name] for name in inlined)]
        return module.with_changes(body=body)


def _expand(statement: cst.SimpleStatementLine, helper: cst.FunctionDef, taken: Set[str]
            ) -> Optional[List[cst.BaseStatement]]:
    """The statements that replace ``statement`` (a call of ``helper``), or None when its arguments do not
    bind. ``taken``: the names the module uses outside the helpers (the fresh names chosen join it)."""
    site = site_of(statement, {helper.name.value})[1]
    bound = _bind(site.call, helper)
    if bound is None:
        return None
    body = list(helper.body.body)
    returned = body.pop().body[0].value  # step_helpers: the last statement returns a value
    local = {key for key in writes(helper.body) if "." not in key}
    helper_reads = {key for line in body for key in value_reads(line) if "." not in key}
    mapping: Dict[str, str] = {}
    prologue: List[cst.BaseStatement] = []
    for param in [p.name.value for p in helper.params.params]:
        value = bound[param]
        if param not in local and isinstance(value, cst.Name) and value.value not in local:
            mapping[param] = value.value
            continue
        if param not in local and isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
            mapping[param] = value.value  # a literal reads best in place
            continue
        new = fresh(param, taken)
        mapping[param] = new
        prologue.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(new))], value)]))
    pairs = _returned_pairs(site.target.target, returned)
    # A returned local takes the name the call binds it to (``return loss, train`` into ``cost, step = ...``
    # binds ``cost`` and ``step`` where the helper bound its locals), unless the helper reads that name.
    as_target: Dict[str, str] = {}
    free_reads = (helper_reads | {key for key in value_reads(returned) if "." not in key}) - local
    for target, value in pairs:
        if isinstance(value, cst.Name) and value.value in local and value.value not in as_target \
                and isinstance(target, cst.Name) and target.value not in as_target.values() \
                and target.value not in free_reads | (local - {value.value}) | set(mapping.values()):
            as_target[value.value] = target.value
    for name in sorted(local - set(mapping)):
        mapping[name] = as_target.get(name) or fresh(name, taken)
    out = prologue + [rename_keys(line, mapping) for line in body]
    # step_helpers: the helper returns a value, the site binds it; a tuple into names, one line each (a run that
    # needs one of them then needs that line alone, not the step the others hold).
    bound = [(target, rename_keys(value, mapping)) for target, value in pairs]
    if len(bound) > 1 and _crossed(bound):
        bound = [(site.target.target, rename_keys(returned, mapping))]
    for target, value in bound:
        if not (isinstance(value, cst.Name) and isinstance(target, cst.Name) and value.value == target.value):
            out.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(target)], value)]))
    out[0] = out[0].with_changes(leading_lines=[*statement.leading_lines, *out[0].leading_lines])
    return out


def _returned_pairs(target: cst.BaseExpression, returned: cst.BaseExpression) -> List[Tuple[cst.BaseExpression,
                                                                                            cst.BaseExpression]]:
    """(target, value) of each element of ``a, b = f()`` for ``return x, y`` (names or attributes), else the
    whole target and value."""
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(returned, cst.Tuple) \
            and len(target.elements) == len(returned.elements) \
            and all(isinstance(e, cst.Element) for e in list(target.elements) + list(returned.elements)) \
            and all(symbol_key(e.value) is not None for e in target.elements):
        return [(t.value, v.value) for t, v in zip(target.elements, returned.elements)]
    return [(target, returned)]


def _crossed(bound) -> bool:
    """Whether an element's value reads what an earlier element binds (one line each would change what it reads;
    an element bound to itself makes no line)."""
    for position, (target, value) in enumerate(bound):
        if isinstance(value, cst.Name) and isinstance(target, cst.Name) and value.value == target.value:
            continue
        keys = set(target_keys(target))
        if any(keys & reads(later) for _, later in bound[position + 1:]):
            return True
    return False


def _bind(call: cst.Call, helper: cst.FunctionDef) -> Optional[Dict[str, cst.BaseExpression]]:
    """Each parameter's argument at ``call`` (a default where none is given); None if they do not bind."""
    params = [p.name.value for p in helper.params.params]
    bound: Dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(call.args):
        if arg.star:
            return None
        name = arg.keyword.value if arg.keyword is not None else (params[position] if position < len(params) else None)
        if name is None or name not in params or name in bound:
            return None
        bound[name] = arg.value
    for param in helper.params.params:
        if param.name.value not in bound:
            if param.default is None:
                return None
            bound[param.name.value] = param.default
    return bound
