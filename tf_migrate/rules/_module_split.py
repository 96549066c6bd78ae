"""A helper that makes variables and computes with them, split into a ``tf.Module`` class.

    def add_layer(inputs, in_size, out_size, activation_function=None):
        Weights = tf.Variable(tf.random_normal([in_size, out_size]))
        return activation_function(tf.matmul(inputs, Weights))
becomes
    class AddLayer(tf.Module):
        def __init__(self, in_size, out_size, activation_function=None):
            super().__init__()
            self.activation_function = activation_function
            self.Weights = tf.Variable(tf.random_normal([in_size, out_size]))

        def __call__(self, inputs):
            return self.activation_function(tf.matmul(inputs, self.Weights))

``__init__`` takes the Python arguments and runs the statements the variables
need, in their order (so TF1's creation order is kept); ``__call__`` takes the
tensor arguments and runs the rest. The split is refused, with the reason,
when a variable's shape or initial value depends on a tensor argument or on
what the forward computes, or when variables are made inside a block.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, reads, value_reads, writes
from tf_migrate.cst.names import fresh
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

# tf.Module's own attributes: a helper's argument of that name is stored under another one.
_MODULE_ATTRIBUTES = {"name", "name_scope", "variables", "trainable_variables", "non_trainable_variables",
                      "submodules", "with_name_scope"}


class SplitRefused(Exception):
    """The helper has no faithful ``tf.Module`` form (the message says why)."""


def class_name(function: str, taken: Set[str]) -> str:
    """``add_layer`` -> ``AddLayer``, ``build_CNN_classifier`` -> ``BuildCNNClassifier`` (not in ``taken``)."""
    return fresh("".join(part[:1].upper() + part[1:] for part in function.split("_") if part) or "Helper", taken)


def _attribute(name: str) -> str:
    return f"{name}_" if name in _MODULE_ATTRIBUTES or name.startswith("_") else name


class _ToSelf(cst.CSTTransformer):
    """Names of the helper's state (its variables, the values they need, its Python arguments) -> ``self.x``."""

    def __init__(self, renamed: Dict[str, str]) -> None:
        self.renamed = renamed

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg):
        return updated.with_changes(keyword=original.keyword)

    def leave_Name(self, original: cst.Name, updated: cst.Name):
        if original.value in self.renamed:
            return cst.Attribute(cst.Name("self"), cst.Name(self.renamed[original.value]))
        return updated


def _creates_variables(node: cst.CSTNode, names: TFNames, variable_functions: Set[str]) -> bool:
    return any(names.call_name(c) in api.VARIABLE_CONSTRUCTORS or (
        isinstance(c.func, cst.Name) and c.func.value in variable_functions) for c in all_calls(node))


def _assigned_name(line: cst.BaseStatement) -> Optional[str]:
    """``name = value``: name (None for anything else)."""
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign):
        targets = line.body[0].targets
        if len(targets) == 1 and isinstance(targets[0].target, cst.Name):
            return targets[0].target.value
    return None


def _check_shape(func: cst.FunctionDef) -> None:
    params = func.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg is not None or params.kwonly_params \
            or params.posonly_params:
        raise SplitRefused("it takes *args, **kwargs or keyword-only arguments")
    if func.decorators:
        raise SplitRefused("it is decorated")
    for kind in (cst.Global, cst.Nonlocal, cst.Yield, cst.FunctionDef, cst.ClassDef, cst.Lambda):
        if _contains(func.body, kind):
            raise SplitRefused(f"its body has a {kind.__name__.lower()}")


def _contains(node: cst.CSTNode, kind: type) -> bool:
    found = []

    class _Find(cst.CSTVisitor):
        def on_visit(self, inner: cst.CSTNode) -> bool:
            if isinstance(inner, kind):
                found.append(inner)
            return not found

    visit(node, _Find())
    return bool(found)


def split(func: cst.FunctionDef, tensor_params: Sequence[str], cls: str, tf: str, names: TFNames,
          variable_functions: Set[str]) -> cst.ClassDef:
    """The ``tf.Module`` class of ``func`` whose ``__call__`` takes ``tensor_params``; raises SplitRefused."""
    _check_shape(func)
    params = [p.name.value for p in func.params.params]
    python_params = [p for p in params if p not in tensor_params]
    lines = list(func.body.body)
    docstring = lines.pop(0) if lines and _is_docstring(lines[0]) else None
    makers = [i for i, line in enumerate(lines) if _creates_variables(line, names, variable_functions)]
    for i in makers:
        if _assigned_name(lines[i]) is None:
            raise SplitRefused("it makes variables inside a block or an expression (only `w = tf.Variable(...)` "
                               "statements of its body are split out)")
    # __init__: the statements that make variables and those they read, in their order.
    state: Set[int] = set(makers)
    needed: Set[str] = set()
    for i in range(max(makers, default=-1), -1, -1):
        name = _assigned_name(lines[i])
        if i not in state and name is not None and name in needed:
            state.add(i)
        if i in state:
            needed |= value_reads(lines[i])
    built = [lines[i] for i in sorted(state)]
    forward = [line for i, line in enumerate(lines) if i not in state]
    state_names = [_assigned_name(line) for line in built]
    for line, name in zip(built, state_names):
        tensors = sorted(value_reads(line) & set(tensor_params))
        if tensors:
            raise SplitRefused(f"its variables depend on the tensor argument `{tensors[0]}` through `{name}` "
                               "(a shape or initial value read from the input)")
    local = set(writes(func.body)) | set(params)
    for line, name in zip(built, state_names):
        unknown = sorted(value_reads(line) & local - set(state_names) - set(python_params))
        if unknown:
            raise SplitRefused(f"its variable `{name}` depends on `{unknown[0]}`, which the helper computes "
                               "apart from its variables")
    rebound = {key for line in forward for key in writes(line)} & (set(state_names) | set(python_params))
    rebound |= {n for n in state_names if state_names.count(n) > 1} | (set(state_names) & set(params))
    if rebound:
        raise SplitRefused(f"`{sorted(rebound)[0]}` is bound more than once (a parameter or a value the variables "
                           "need, rebound)")
    forward_reads = set().union(*(reads(line) for line in forward)) if forward else set()
    stored_params = [p for p in python_params if p in forward_reads]
    renamed = {n: _attribute(n) for n in state_names + stored_params}
    init_body: List[cst.BaseStatement] = [cst.parse_statement("super().__init__()")]
    init_body += [cst.parse_statement(f"self.{renamed[p]} = {p}") for p in stored_params]
    to_self = _ToSelf({n: renamed[n] for n in state_names})
    init_body += [visit(line, to_self) for line in built]
    call_body = [visit(line, _ToSelf(renamed)) for line in forward] or [cst.parse_statement("return None")]
    init = _method("__init__", _params(func, python_params), init_body)
    call = _method("__call__", _params(func, list(tensor_params)), call_body)
    call = call.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
    body: List[cst.BaseStatement] = ([docstring] if docstring is not None else []) + [init, call]
    return cst.ClassDef(
        name=cst.Name(cls), body=cst.IndentedBlock(body=body),
        bases=[cst.Arg(cst.parse_expression(f"{tf}.Module"))], leading_lines=func.leading_lines,
        lpar=cst.LeftParen(), rpar=cst.RightParen())


def _is_docstring(line: cst.BaseStatement) -> bool:
    return isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Expr) and isinstance(
        line.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _params(func: cst.FunctionDef, keep: List[str]) -> cst.Parameters:
    chosen = [p for p in func.params.params if p.name.value in keep]
    chosen = [p.with_changes(comma=cst.MaybeSentinel.DEFAULT) for p in chosen]
    return cst.Parameters(params=[cst.Param(cst.Name("self"))] + chosen)


def _method(name: str, params: cst.Parameters, body: List[cst.BaseStatement]) -> cst.FunctionDef:
    body = [line.with_changes(leading_lines=[]) if i == 0 else line for i, line in enumerate(body)]
    return cst.FunctionDef(name=cst.Name(name), params=params, body=cst.IndentedBlock(body=body))

