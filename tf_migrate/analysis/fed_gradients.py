"""Gradients that TF1 took through a fed tensor.

Any tensor can be fed in TF1, not only a placeholder: DDPG's critic update feeds the actor's output ``a`` with
stored actions. The run's value of ``a`` is the fed one, but its *gradient graph* is still the one
``minimize`` built through ``a``: the gradient of the loss reaches the actor's variables, upstream of ``a``
(computed from the fed value where the backward ops read ``a``). The generated function takes ``a`` as a
parameter, so its tape sees no path from the loss to those variables, and an optimizer that trains them would
skip them: other numbers, silently.

The same holds for ``tf.gradients(y, x)`` with ``x`` upstream of a fed ``h``. So a run that feeds a computed
tensor and takes a gradient converts only where that gradient differentiates with respect to nothing upstream of
the tensor: DDPG's ``minimize(td_error, var_list=critic_params)``, a ``tf.gradients(q, a)`` with respect to the
fed tensor itself. A gradient whose sources the text does not settle counts as reaching everything. What each gradient
statement trains is recorded when it is classified (:func:`record_targets`), and the slice asks
:func:`gradient_through_feeds`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.optimizer_slots import trained_filter
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.analysis.derivatives import sources
from tf_migrate.tfnames import TFNames

_VARIABLE_KINDS = (pm.VARIABLE, pm.VARIABLES, pm.LAYER)
_COLLECTIONS = frozenset({"tf.GraphKeys.TRAINABLE_VARIABLES", "tf.GraphKeys.GLOBAL_VARIABLES"})


@dataclass(frozen=True)
class Targets:
    """What one gradient statement differentiates with respect to: the variables whose TF1 names match ``pattern``
    ("" for every trainable one), or the keys ``sources`` (``tf.gradients(ys, xs)``)."""

    pattern: Optional[str] = None
    sources: Optional[FrozenSet[str]] = None


def record_targets(st: "pm.Statement", calls: List[cst.Call], scope: "pm.Scope", names: TFNames) -> None:
    """Note what the gradient ``calls`` of ``st`` differentiate with respect to, where the text says (else the
    slice assumes anything)."""
    keys: Set[str] = set()
    for call in calls:
        qualname = names.call_name(call)
        if qualname not in api.GRADIENTS:  # an optimizer's minimize or compute_gradients: its var_list
            pattern = trained_filter(scope, names, st, call, _COLLECTIONS)
            if pattern is None or len(calls) > 1:
                return
            scope.gradient_targets[st.index] = Targets(pattern=pattern)
            return
        found = [symbol_key(source) for source in sources(call, qualname)]
        if not found or None in found or any(scope.kind(key) == pm.VARIABLES for key in found):
            return  # a list of variables: which ones, the slice does not ask
        keys.update(found)
    if keys:
        scope.gradient_targets[st.index] = Targets(sources=frozenset(keys))


def gradient_through_feeds(scope: "pm.Scope", chosen: List["pm.Statement"],
                           fed_symbols: Dict[str, "pm.Symbol"]) -> List[str]:
    """Why the run whose slice is ``chosen`` (feeding ``fed_symbols``) cannot be a tape: a gradient of it is taken
    with respect to a value upstream of a fed computed tensor (module doc)."""
    gradients = [st for st in chosen if st.gradient]
    if not gradients:
        return []
    conflicts = []
    for key, symbol in fed_symbols.items():
        if symbol.kind == pm.PLACEHOLDER or not 0 <= symbol.index < len(scope.statements) \
                or key in scope.branch_placeholders.get(symbol.index, ()):
            continue
        upstream = _upstream(scope, symbol.index)
        for st in gradients:
            reached = _trained(scope.gradient_targets.get(st.index), upstream)
            if reached is not None:
                conflicts.append(f"`{key}` is fed, and TF1's gradient of this run went through it to `{reached}` "
                                 "upstream of it; the tape of the generated function would not reach it")
                break
    return conflicts


def _upstream(scope: "pm.Scope", index: int) -> Dict[str, "pm.Symbol"]:
    """The values (variables, layers, placeholders, tensors) the value statement ``index`` binds is computed from."""
    found: Dict[str, "pm.Symbol"] = {}
    pending, seen = [index], set()
    while pending:
        at = pending.pop()
        if at in seen:
            continue
        seen.add(at)
        for key in scope.statements[at].reads:
            symbol = scope.symbol_at(key, at)
            if symbol is None or symbol.kind not in _VARIABLE_KINDS and symbol.kind not in pm.DEFERRED_KINDS:
                continue
            found.setdefault(key, symbol)
            if symbol.kind in pm.DEFERRED_KINDS and 0 <= symbol.index < len(scope.statements):
                pending.append(symbol.index)
    return found


def _trained(targets: Optional[Targets], upstream: Dict[str, "pm.Symbol"]) -> Optional[str]:
    """The first of ``upstream`` the gradient with ``targets`` may differentiate with respect to (None: none)."""
    for key, symbol in upstream.items():
        if targets is None or targets.sources is not None:
            if targets is None or key in targets.sources:
                return key
            continue
        if symbol.kind not in _VARIABLE_KINDS:
            continue
        if targets.pattern == "":
            if symbol.trainable:
                return key
            continue
        if not symbol.tf_name or re.match(targets.pattern, symbol.tf_name):
            return key
    return None
