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
tensor arguments and runs the rest. The body is sliced as a tree: a ``for`` or
``if`` that holds both kinds of statements is kept in both methods, each with
its own statements. A variable made in a layer loop (``for i, n in
enumerate(sizes)`` or ``for i in range(n)``, the variable made at the top of the
loop's body; a plain ``for n in sizes`` is numbered so first) becomes a list, ``self.W.append(...)`` in ``__init__`` and
``W = self.W[i]`` in ``__call__``. Functions defined in the helper (``def
weight_variable(shape)``) go with the method that calls them.

Variables whose shape TF1 read from the input (``in_dim = x.get_shape()[1]``)
are made at the first call, as a Keras layer builds: ``__init__`` keeps the
Python arguments and ``self.built = False``, ``build(self, x)`` runs the
statements the variables need, and ``__call__`` calls it first when the module
is not built. Only the input's static shape may be read there (``x.shape``,
``x.get_shape()``), which the first call's input has as TF1's placeholder had
it; the caller says whether waiting keeps TF1's creation order
(``lazy_refused``). The split is refused, with the reason, when a variable's
initial value depends on a tensor argument's value or on what the forward
computes, when variables are made in another kind of block, or when both
methods would need the same inner function.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import all_calls, callee_name, reads
from tf_migrate.rules._body_slices import SliceRefused as SplitRefused  # the helper has no faithful tf.Module form
from tf_migrate.rules._body_slices import (Leaf, backward_slice, blocks_by_id, decompose, header_reads, jumps,
                                          leaves, loop_index, reads_after, rebuild)
from tf_migrate.cst.names import fresh
from tf_migrate.cst.statements import plain_assignment
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import all_nodes, contains, visit

# tf.Module's own attributes: a helper's argument of that name is stored under another one.
_MODULE_ATTRIBUTES = {"name", "name_scope", "variables", "trainable_variables", "non_trainable_variables",
                      "submodules", "with_name_scope"}


def class_name(function: str, taken: Set[str]) -> str:
    """``add_layer`` -> ``AddLayer``, ``build_CNN_classifier`` -> ``BuildCNNClassifier`` (not in ``taken``)."""
    return fresh("".join(part[:1].upper() + part[1:] for part in function.split("_") if part) or "Helper", taken)


def local_attribute(name: str) -> str:
    """The attribute of the class that keeps the helper's local (or argument) ``name``."""
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
    return any(names.call_name(c) in api.VARIABLE_CONSTRUCTORS or api.is_keras_layer_with_variables(names.call_name(c))
               or (callee_name(c) in variable_functions) for c in all_calls(node))


_BUILD_DOC = "The variables, made at the first call from the input's static shape (TF1 made them where the helper ran)."
_SHAPE_READS = ("shape", "get_shape")


def _static_shape_reads(node: cst.CSTNode, name: str) -> bool:
    """Whether ``node`` reads the tensor ``name`` only for its static shape (``x.get_shape()[1]``, ``x.shape[-1]``)."""
    class _Reads(cst.CSTVisitor):
        def __init__(self) -> None:
            self.all = self.shape = 0

        def visit_Name(self, inner: cst.Name) -> None:
            self.all += inner.value == name

        def visit_Attribute(self, inner: cst.Attribute) -> None:
            self.shape += isinstance(inner.value, cst.Name) and inner.value.value == name \
                and inner.attr.value in _SHAPE_READS

    counter = _Reads()
    visit(node, counter)
    return counter.all == counter.shape


def _assigned_name(line: cst.BaseStatement) -> Optional[str]:
    """``name = value``: name (None for anything else)."""
    found = plain_assignment(line)
    return found[0] if found is not None else None


def _check_shape(func: cst.FunctionDef) -> None:
    params = func.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg is not None or params.kwonly_params \
            or params.posonly_params:
        raise SplitRefused("it takes *args, **kwargs or keyword-only arguments")
    if func.decorators:
        raise SplitRefused("it is decorated")
    for kind in (cst.Global, cst.Nonlocal, cst.Yield, cst.ClassDef, cst.Lambda):
        if contains(func.body, kind):
            raise SplitRefused(f"its body has a {kind.__name__.lower()}")
    for line in func.body.body:
        inner = line.body if isinstance(line, cst.FunctionDef) else line
        if contains(inner, cst.FunctionDef):
            raise SplitRefused("its body has a functiondef inside a block or another function")


def split(func: cst.FunctionDef, tensor_params: Sequence[str], cls: str, tf: str, names: TFNames,
          variable_functions: Set[str], lazy_refused: Optional[str] = "") -> cst.ClassDef:
    """The ``tf.Module`` class of ``func`` whose ``__call__`` takes ``tensor_params``; raises SplitRefused.
    ``lazy_refused``: why variables read from the input's static shape may not be made at the first call
    (None: they may; see the module doc)."""
    _check_shape(func)
    params = [p.name.value for p in func.params.params]
    python_params = [p for p in params if p not in tensor_params]
    lines = list(func.body.body)
    docstring = lines.pop(0) if lines and _is_docstring(lines[0]) else None
    maker_functions = set(variable_functions)
    for line in lines:
        if isinstance(line, cst.FunctionDef) and _creates_variables(line.body, names, maker_functions):
            maker_functions.add(line.name.value)
    lines = _numbered_loops(lines, lambda node: _creates_variables(node, names, maker_functions), func)

    def makes(node: cst.CSTNode) -> bool:
        if isinstance(node, cst.FunctionDef):
            return False
        return _creates_variables(node, names, maker_functions)

    def scoped(block: cst.With) -> bool:  # only name scopes: they name ops, which either side may make
        return all(isinstance(item.item, cst.Call) and names.call_name(item.item) == "tf.name_scope"
                   for item in block.items)

    decomposed = decompose(lines, makes, scoped)
    all_leaves = leaves(lines, decomposed, makes)
    blocks = blocks_by_id(lines, decomposed)
    makers = [leaf for leaf in all_leaves if leaf.maker]
    for leaf in makers:
        if _assigned_name(leaf.node) is None:
            raise SplitRefused("it makes variables inside a block or an expression (only `w = tf.Variable(...)` "
                               "statements of its body are split out)")
        blocks_around = [b for b in leaf.parents if not isinstance(blocks[b], cst.With)]
        if blocks_around and (leaf.loop is None or blocks_around != [id(leaf.loop)]):
            raise SplitRefused(f"it makes variables inside a block: `{_assigned_name(leaf.node)}` in an `if` or a "
                               "nested loop")
        if leaf.loop is not None and (loop_index(leaf.loop) is None or jumps(leaf.loop)):
            raise SplitRefused(f"it makes `{_assigned_name(leaf.node)}` in a loop other than "
                               "`for i, x in enumerate(xs)` or `for i in range(n)` without break or continue")
    init, needed = backward_slice(all_leaves, makers, blocks)  # __init__: the variables and what they need
    init_leaves = [leaf for leaf in all_leaves if id(leaf.node) in init]
    forward_leaves = [leaf for leaf in all_leaves if id(leaf.node) not in init]
    forward_writes = set().union(*(leaf.writes for leaf in forward_leaves)) if forward_leaves else set()
    tensors = sorted(needed & set(tensor_params))
    if tensors:
        culprit = next((_assigned_name(leaf.node) or getattr(getattr(leaf.node, "name", None), "value", None)
                        or "a statement" for leaf in init_leaves if tensors[0] in leaf.reads), None)
        value_read = next((t for t in tensors if not all(_static_shape_reads(leaf.node, t) for leaf in init_leaves)),
                          None)
        if value_read is not None:
            raise SplitRefused(f"its variables depend on the value of the tensor argument `{value_read}` through "
                               f"`{culprit}` (an initial value read from the input)")
        if lazy_refused is not None:
            raise SplitRefused(f"its variables depend on the tensor argument `{tensors[0]}` through `{culprit}` "
                               f"(a shape read from the input){': ' + lazy_refused if lazy_refused else ''}")
    unknown = sorted(needed & forward_writes)
    if unknown:
        raise SplitRefused(f"its variables depend on `{unknown[0]}`, which the helper computes apart from "
                           "its variables")
    loop_makers = {_assigned_name(leaf.node): leaf for leaf in makers if leaf.loop is not None}
    top_state = [leaf for leaf in init_leaves if all(isinstance(blocks[b], cst.With) for b in leaf.parents)]
    state_names = [name for leaf in top_state for name in [_assigned_name(leaf.node)] if name is not None]
    forward_reads = set().union(*(reads(leaf.node) for leaf in forward_leaves)) if forward_leaves else set()
    forward_reads |= set().union(*(header_reads(blocks[b]) for leaf in forward_leaves for b in leaf.parents)) \
        if forward_leaves else set()
    init_only = set().union(*(leaf.writes for leaf in init_leaves)) - set(state_names) - set(loop_makers)
    shared = sorted(forward_reads & init_only - forward_writes)
    if shared:
        raise SplitRefused(f"both methods would need `{shared[0]}`, which the variables need too")
    all_writes = [name for leaf in all_leaves for name in leaf.writes]
    rebound = {name for name in set(state_names) | set(loop_makers) | set(python_params)
               if name in forward_writes or all_writes.count(name) > 1} | (set(state_names) & set(params))
    if rebound:
        raise SplitRefused(f"`{sorted(rebound)[0]}` is bound more than once (a parameter or a value the variables "
                           "need, rebound)")
    for name, leaf in loop_makers.items():
        after = reads_after(all_leaves, leaf.loop, forward_leaves)
        if name in after:
            raise SplitRefused(f"`{name}` is read after the loop that makes it")
    init_reads = set().union(*(reads(leaf.node) for leaf in init_leaves)) if init_leaves else set()
    init_reads |= set().union(*(header_reads(blocks[b]) for leaf in init_leaves for b in leaf.parents)) \
        if init_leaves else set()
    stored_params = [p for p in python_params if p in forward_reads or (tensors and p in init_reads)]
    renamed = {n: local_attribute(n) for n in state_names + stored_params}
    lists = {n: local_attribute(n) for n in loop_makers}
    init_body: List[cst.BaseStatement] = [cst.parse_statement("super().__init__()")]
    init_body += [cst.parse_statement(f"self.{renamed[p]} = {p}") for p in stored_params]
    to_self = _ToSelf({n: renamed[n] for n in state_names + (stored_params if tensors else [])})
    made = rebuild(lines, {id(leaf.node): leaf for leaf in init_leaves}, decomposed,
                         form=lambda leaf: _init_form(leaf, loop_makers, lists, to_self),
                         before_loop=lambda loop: [cst.parse_statement(f"self.{lists[n]} = []")
                                                   for n, leaf in loop_makers.items() if leaf.loop is loop],
                         headers=to_self)
    built = fresh("built", set(renamed.values()) | set(lists.values()))
    if tensors:  # made at the first call, from the input's static shape, as TF1 made them where the helper ran
        init_body.append(cst.parse_statement(f"self.{built} = False"))
        build = _method("build", _params(func, tensors), _blank_before_defs(
            [cst.parse_statement(f'"""{_BUILD_DOC}"""'), *made, cst.parse_statement(f"self.{built} = True")]))
    else:
        init_body += made
    to_self_forward = _ToSelf(renamed)
    call_body = rebuild(lines, {id(leaf.node): leaf for leaf in forward_leaves + list(loop_makers.values())},
                        decomposed, form=lambda leaf: _forward_form(leaf, loop_makers, lists, to_self_forward),
                        before_loop=lambda loop: [], headers=to_self_forward) or [cst.parse_statement("return None")]
    if tensors:
        call_body = [cst.parse_statement(f"if not self.{built}:\n    self.build({', '.join(tensors)})\n"),
                     *call_body]
    init = _method("__init__", _params(func, python_params), _blank_before_defs(init_body))
    call = _method("__call__", _params(func, list(tensor_params)), call_body)
    call = call.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
    methods = [init, build.with_changes(leading_lines=[cst.EmptyLine(indent=False)]), call] if tensors else [init, call]
    body: List[cst.BaseStatement] = ([docstring] if docstring is not None else []) + methods
    return cst.ClassDef(
        name=cst.Name(cls), body=cst.IndentedBlock(body=body),
        bases=[cst.Arg(cst.parse_expression(f"{tf}.Module"))], leading_lines=func.leading_lines,
        lpar=cst.LeftParen(), rpar=cst.RightParen())


def _numbered_loops(lines: List[cst.BaseStatement], makes, func: cst.FunctionDef) -> List[cst.BaseStatement]:
    """``lines`` with each top-level ``for x in xs:`` whose body makes variables numbered (``for i, x in
    enumerate(xs):``): the forward method takes the iteration's variable from the list by that number. The loop
    runs as before (``enumerate`` adds the count, nothing else)."""
    taken = {node.value for node in all_nodes(func) if isinstance(node, cst.Name)}
    out = []
    for line in lines:
        if isinstance(line, cst.For) and loop_index(line) is None and makes(line.body) and line.asynchronous is None:
            index = fresh("i", taken)
            taken.add(index)
            target = cst.Tuple([cst.Element(cst.Name(index)), cst.Element(line.target)], lpar=[], rpar=[])
            line = line.with_changes(target=target, iter=cst.Call(cst.Name("enumerate"), [cst.Arg(line.iter)]))
        out.append(line)
    return out


def _init_form(leaf: Leaf, loop_makers, lists, to_self) -> cst.BaseStatement:
    name = _assigned_name(leaf.node)
    if name in loop_makers and loop_makers[name] is leaf:
        value = leaf.node.body[0].value
        append = cst.parse_expression(f"self.{lists[name]}.append(x)")
        return leaf.node.with_changes(body=[cst.Expr(append.with_changes(args=[cst.Arg(value)]))])
    return _renamed(leaf, to_self)


def _renamed(leaf: Leaf, to_self: "_ToSelf") -> cst.BaseStatement:
    """``leaf`` with the helper's state read through ``self`` (an inner function: only what it reads from outside)."""
    if isinstance(leaf.node, cst.FunctionDef):
        outer = {key: value for key, value in to_self.renamed.items() if key in leaf.reads}
        return visit(leaf.node, _ToSelf(outer)) if outer else leaf.node
    return visit(leaf.node, to_self)


def _forward_form(leaf: Leaf, loop_makers, lists, to_self) -> cst.BaseStatement:
    name = _assigned_name(leaf.node)
    if name in loop_makers and loop_makers[name] is leaf:
        index = loop_index(leaf.loop)
        return leaf.node.with_changes(body=[cst.parse_statement(f"{name} = self.{lists[name]}[{index}]").body[0]])
    return _renamed(leaf, to_self)


def _blank_before_defs(body: List[cst.BaseStatement]) -> List[cst.BaseStatement]:
    """An inner ``def`` after other statements gets the blank line PEP 8 asks for."""
    out = list(body)
    for i in range(1, len(out)):
        line = out[i]
        if isinstance(line, cst.FunctionDef) and not isinstance(out[i - 1], cst.FunctionDef) and not any(
                empty.comment is None for empty in line.leading_lines):
            out[i] = line.with_changes(leading_lines=[cst.EmptyLine(indent=False), *line.leading_lines])
    return out


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

