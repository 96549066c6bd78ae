"""A function that builds a graph around its own placeholders, called once, runs where it is called.

    def autoencoder(n):                            def test_mnist():
        x = tf.placeholder(tf.float32, [None, n])      x = tf.placeholder(tf.float32, [None, 784])
        ...                                    ->      ...
        return {'x': x, 'cost': cost}                  train = tf.train.AdamOptimizer(0.01).minimize(cost)
                                                       ...
    def test_mnist():                                  sess.run(train, feed_dict={x: batch})
        ae = autoencoder(784)
        train = tf.train.AdamOptimizer(0.01).minimize(ae['cost'])
        ...
        sess.run(train, feed_dict={ae['x']: batch})

The graph then stands in the scope that runs it, which the session rule converts as any graph
built and run in one function. Which calls qualify, and when a returned dict is taken apart, is
:mod:`tf_migrate.analysis.build_functions`; the body is put in place by
:mod:`tf_migrate.codegen.inline_calls` (parameters bound to the call's arguments, locals renamed
where the caller's code already uses their names). Eager mode only: a file that stays compat
keeps its functions.
"""
from __future__ import annotations

from typing import Dict, List, Set

import libcst as cst

from tf_migrate.analysis.build_functions import build_function_calls
from tf_migrate.analysis.build_methods import BuildCall, tail_return
from tf_migrate.analysis.symbols import writes
from tf_migrate.codegen.inline_calls import NotInlinable, inline_call
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import visit

RULE_ID = "inline-build-functions"
_MAX_LEVELS = 8  # functions calling functions that build: inlined one level per round


class InlineBuildFunctions(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("functions that build a graph around their own placeholders, called once -> their body at the "
                   "call (a returned dict of tensors taken apart)")
    ORDER = 2  # with inline-build-methods: before every rule that converts the graph
    TRIGGERS = ("placeholder", "input_producer", "Reader", "get_collection", "trainable_variables(", "global_variables(")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        for _ in range(_MAX_LEVELS):
            new = self._inline_level(module, ctx)
            if new is module:
                break
            module = new
        return module

    def _inline_level(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        """One level: the calls whose function calls no other function inlined now (``inputs()`` calling
        ``read_and_decode()``: the inner one first, then ``inputs`` with what it became), and of a caller's calls
        the first (the next one's locals are renamed where the first's are the caller's names now)."""
        calls = build_function_calls(module, ctx.names)
        callers = {id(call.caller) for call in calls}
        calls = [call for call in calls if id(call.site.method) not in callers]
        if any(call.caller is not None for call in calls):  # one call a function: the next sees what it bound
            firsts: Dict[int, object] = {}
            calls = [call for call in calls if call.caller is None or firsts.setdefault(id(call.caller), call) is call]
        if not calls:
            return module
        module_names = all_names(module)
        original_names = set(module_names)
        expanded: Dict[int, List[cst.BaseStatement]] = {}
        renamed: Dict = {}  # (caller id or None, name, key): name['key'] read in that scope -> the local it is now
        inlined: Set[int] = set()
        for call in calls:
            taken = (_names_but(module, call.site.method) | (module_names - original_names) if call.caller is None
                     else all_names(call.caller) | set(writes(module)))
            site = _without_docstring(call.site)
            unpack_to: Dict[str, str] = {}
            if call.unpacked:  # `return {'x': x, ...}` into `ae`: x is bound where it was, ae['x'] reads it
                locals_ = list(call.unpacked.values())
                unpack_to = {local: fresh(local, taken) for local in locals_}
                site = _returning_tuple(site, locals_, [unpack_to[local] for local in locals_])
            try:
                expanded[id(site.statement)] = inline_call(site, taken)
            except NotInlinable as why:
                ctx.report(site.method, RULE_ID, INFO, f"`{site.method.name.value}` left as it is: {why}")
                continue
            module_names |= taken
            inlined.add(id(call.site.method))
            if call.unpacked:
                target = call.site.target.value
                scope = id(call.caller) if isinstance(call.caller, cst.FunctionDef) else None
                renamed.update({(scope, target, key): unpack_to[local] for key, local in call.unpacked.items()})
            ctx.report(call.site.method, RULE_ID, INFO,
                       f"`{site.method.name.value}` builds the graph its caller runs: its body moves to the call"
                       + (f", and `{call.site.target.value}[...]` reads its tensors by name" if call.unpacked else ""))
        if not expanded:
            return module
        return visit(module, _Apply(expanded, inlined, renamed))


def _names_but(module: cst.Module, function: cst.FunctionDef) -> Set[str]:
    """The names the module uses outside ``function`` (its own locals move with its body: they take no name)."""
    return all_names(module.with_changes(body=[s for s in module.body if s is not function]))


def _without_docstring(site: BuildCall) -> BuildCall:
    """The function's docstring describes a function that is gone: it does not move to the call."""
    method = site.method
    first = method.body.body[0] if method.body.body else None
    if (isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr)
            and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)) and len(method.body.body) > 1):
        rest = list(method.body.body[1:])
        rest[0] = rest[0].with_changes(leading_lines=[*first.leading_lines, *rest[0].leading_lines])
        method = method.with_changes(body=method.body.with_changes(body=rest))
    return BuildCall(site.statement, site.target, method, site.arguments)


def _returning_tuple(site: BuildCall, locals_: List[str], targets: List[str]) -> BuildCall:
    """The site with the function returning its dict's locals as a tuple, into new names of the caller."""
    returned = tail_return(list(site.method.body.body))
    as_tuple = cst.Tuple([cst.Element(cst.Name(local)) for local in locals_])
    method = site.method.visit(_ReplaceNode(returned, returned.with_changes(value=as_tuple)))
    target = cst.Tuple([cst.Element(cst.Name(name)) for name in targets])
    return BuildCall(site.statement, target, method, site.arguments)


class _ReplaceNode(cst.CSTTransformer):
    def __init__(self, old: cst.CSTNode, new: cst.CSTNode) -> None:
        self.old, self.new = old, new

    def on_leave(self, original, updated):
        return self.new if original is self.old else updated


class _Apply(cst.CSTTransformer):
    def __init__(self, expanded, inlined: Set[int], renamed: Dict) -> None:
        self.expanded, self.inlined, self.renamed = expanded, inlined, renamed
        self.functions: List[int] = []  # the module-level function being visited (its id), if any

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(id(node))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef):
        self.functions.pop()
        return cst.RemoveFromParent() if id(original) in self.inlined else updated

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if id(original) in self.expanded:
            return cst.FlattenSentinel(self.expanded[id(original)])
        return updated

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript):
        if isinstance(original.value, cst.Name) and len(original.slice) == 1:
            index = original.slice[0].slice
            if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                scope = self.functions[0] if self.functions else None
                key = (original.value.value, index.value.evaluated_value)
                local = self.renamed.get((scope, *key)) or self.renamed.get((None, *key))
                if local is not None:
                    return cst.Name(local)
        return updated
