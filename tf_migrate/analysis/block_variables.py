"""What each name holds after a loop or branch that makes variables.

    weights = []
    for pow_i in range(1, 5):                      pow_i: a Python value (the loop's target)
        W = tf.Variable(tf.random_normal([1]))     W: one variable, the last iteration's
        weights.append(W)                          weights: every iteration's variables, in order

TF1 made a variable at each iteration; a name bound to one holds the last
iteration's only, and the list the loop appends them to holds them all. Only
the lists reach every variable the loop made: they are what a default
variable list or a collection names (``*weights``), never the loop's own name
(``*W`` would iterate over the last variable's rows). A loop that makes
variables no list keeps leaves them out of reach: the eager program could not
train or list them as TF1 did.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls, reads, symbol_key, target_keys, writes
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

_LOOPS = (cst.For, cst.While)


@dataclass
class BlockVariables:
    """The names a block binds, by what they hold after it."""

    single: List[str] = field(default_factory=list)  # one variable (in a loop: the last iteration's)
    lists: List[str] = field(default_factory=list)  # lists the block appends its variables to, in order
    unkept: List[str] = field(default_factory=list)  # names bound to variables in a loop that no list keeps
    trainable_lists: List[str] = field(default_factory=list)  # the lists, less those an earlier one covers
    loop: bool = False


_STATIC = ("shape", "get_shape", "dtype")
_MADE = "<a variable made in place>"


def constructor_reads(block: cst.CSTNode, names: TFNames) -> Set[str]:
    """The keys the variable constructors in ``block`` read for their values (their initial values' inputs)."""
    found: Set[str] = set()
    for call in all_calls(block):
        if names.call_name(call) in api.VARIABLE_CONSTRUCTORS:
            found |= {key for arg in call.args for key in computed_reads(arg.value)}
    return found


def computed_reads(node: cst.CSTNode) -> Set[str]:
    """The symbol keys ``node`` reads for their value (not ``x.shape``, ``x.get_shape()``, ``x.dtype``)."""
    return reads(visit(node, _StaticReadsDropped()))


class _StaticReadsDropped(cst.CSTTransformer):
    """``x.get_shape()``, ``x.shape`` and ``x.dtype`` -> a name that reads nothing of ``x``."""

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get_shape" and not original.args:
            return cst.Name("static_shape")
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if original.attr.value in _STATIC:
            return cst.Name("static_shape")
        return updated


def block_variables(block: cst.BaseCompoundStatement, names: TFNames) -> BlockVariables:
    """What ``block`` (a loop, a branch) binds to the variables it makes."""
    finder = _Finder(names)
    visit(block, finder)
    found = BlockVariables(loop=isinstance(block, _LOOPS))
    bound = set(writes(block))
    found.single = [key for key in dict.fromkeys(finder.made) if key in bound and key not in finder.other]
    found.lists = [key for key in dict.fromkeys(finder.appended)
                   if finder.appended[key] & (set(found.single) | {_MADE})]
    covered: Set[str] = set()
    for key in found.lists:  # a variable appended to two lists (`encoder.append(W)`, `Ws.append(W)`) is one
        values = finder.appended[key] & (set(found.single) | {_MADE})
        if _MADE in values or not values <= covered:
            found.trainable_lists.append(key)
        covered |= values
    if found.loop:
        kept = {value for key in found.lists for value in finder.appended[key]}
        found.unkept = [key for key in found.single if key not in kept]
    return found


class _Finder(cst.CSTVisitor):
    def __init__(self, names: TFNames) -> None:
        self.names = names
        self.made: List[str] = []  # keys assigned a variable constructor's result
        self.other: Set[str] = set()  # keys also assigned something else
        self.appended: Dict[str, Set[str]] = {}  # list key -> the keys appended to it

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        makes = isinstance(value, cst.Call) and self.names.call_name(value) in api.VARIABLE_CONSTRUCTORS
        for target in node.targets:
            key = symbol_key(target.target)
            if key is None:
                continue
            if makes:
                self.made.append(key)
            else:
                self.other.add(key)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "append" and len(node.args) == 1:
            owner, value = symbol_key(func.value), node.args[0].value
            item = _MADE if isinstance(value, cst.Call) and self.names.call_name(value) in api.VARIABLE_CONSTRUCTORS \
                else symbol_key(value)
            if owner is not None and item is not None:
                self.appended.setdefault(owner, set()).add(item)


def classify_variable_block(classifier, st: "pm.Statement") -> None:
    """Give a loop or branch that makes variables (``st``) its role and its names their kinds, or block.

    ``classifier`` is the scope's :class:`~tf_migrate.analysis.classify.Classifier`: the kinds it knows are
    those of the bindings before the block."""
    scope, names = classifier.scope, classifier.names
    st.role = pm.KEEP
    per_run = {k for k in computed_reads(st.node) if scope.deferred(k)}
    created_from_per_run = {k for k in constructor_reads(st.node, names) if scope.deferred(k)}
    classifier.define(st, pm.VARIABLES)  # what else it binds: check_build_blocks says why a loop computing stays
    found = block_variables(st.node, names)
    targets = target_keys(st.node.target) if isinstance(st.node, cst.For) else []
    for key in targets:
        scope.bind(pm.Symbol(key, pm.PYTHON, st.index))
    for key in found.single:
        scope.bind(pm.Symbol(key, pm.VARIABLE, st.index))
    for key in found.lists:
        scope.bind(pm.Symbol(key, pm.VARIABLES, st.index))
    scope.add_trainable(found.trainable_lists + ([] if found.loop else found.single))
    if found.unkept and not per_run:  # else check_build_blocks says why the loop stays: it computes per run
        classifier.block(st.node, f"variables made in a loop and bound to `{found.unkept[0]}`, which no list "
                                  "keeps: TF1 trained and listed every iteration's, the eager program reaches "
                                  "the last only")
    if created_from_per_run:
        classifier.block(st.node, "variables created from per-run tensors")
