"""Turn a ``sess.run`` fetch structure into the value eager code returns.

TF1 gives numpy values in the structure of the fetches (lists, tuples,
dicts, namedtuples, nested), and None for operations. The generated
function returns the same: ``[None, loss.numpy()]`` for ``[train_op, loss]``.
"""
from __future__ import annotations

from typing import Callable, List, Optional

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import all_calls, symbol_key
from tf_migrate.cst.text import code

_NONE = cst.Name("None")
def _method(expr: cst.BaseExpression, name: str) -> cst.Call:
    if not isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        expr = expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Call(cst.Attribute(expr, cst.Name(name)))


def _parse(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


def to_numpy(expr: cst.BaseExpression, scope: "pm.Scope", kind_of: Callable[[cst.BaseExpression], Optional[str]],
             tf: str, run_ops: bool = False) -> cst.BaseExpression:
    """The expression eager code evaluates to get what ``sess.run(expr)`` returned. ``run_ops``: the fetch is
    computed where the run stands, so an op built in it (``tf.group(tf.assign_add(v, 1.0))``) stays, to run
    there (eager ``tf.group`` gives None, as TF1's run did); otherwise the function computing the fetch runs
    it (``op_calls``) and the value is None."""
    if id(expr) in scope.replacements:  # a variable collection, now the list of its variables
        return _parse(f"{tf}.nest.map_structure(lambda value: value.numpy(), {code(scope.replacements[id(expr)])})")
    if isinstance(expr, (cst.List, cst.Tuple)):
        elements = [el.with_changes(value=to_numpy(el.value, scope, kind_of, tf, run_ops)) for el in expr.elements]
        return expr.with_changes(elements=elements)
    if isinstance(expr, cst.Dict):
        elements = [el.with_changes(value=to_numpy(el.value, scope, kind_of, tf, run_ops))
                    if isinstance(el, cst.DictElement) else el for el in expr.elements]
        return expr.with_changes(elements=elements)
    if run_ops and _builds_op(expr, kind_of):
        return expr
    key = symbol_key(expr)
    if key is not None:
        kind = scope.kind(key)
        source = code(expr)
        if kind in (pm.OP, pm.INIT):
            return _NONE
        if kind == pm.TENSORS:
            return _parse(f"[value.numpy() for value in {source}]")
        if kind == pm.GRADS_AND_VARS:
            return _parse(f"[(grad.numpy(), var.numpy()) for grad, var in {source}]")
        if kind in (pm.STRUCT, pm.VARIABLES) or kind in (pm.EAGER, pm.TENSOR) and not _one_tensor(scope, key, kind_of):
            return _parse(f"{tf}.nest.map_structure(lambda value: value.numpy(), {source})")
        return _method(expr, "numpy")
    if isinstance(expr, cst.Call) and kind_of(expr) is None:
        # A namedtuple or other container built around fetches.
        args = [arg.with_changes(value=to_numpy(arg.value, scope, kind_of, tf, run_ops)) for arg in expr.args]
        return expr.with_changes(args=args)
    if kind_of(expr) in ("op", "init"):
        return _NONE
    if kind_of(expr) == "structure":  # tf.linalg.eigh(d), tf.nn.moments(x, [0]): a tuple of tensors
        return _parse(f"{tf}.nest.map_structure(lambda value: value.numpy(), {code(expr)})")
    return _method(expr, "numpy")


def one_tensor_fetch(expr: cst.BaseExpression, scope: "pm.Scope",
                     kind_of: Callable[[cst.BaseExpression], Optional[str]]) -> bool:
    """Whether the fetch ``expr`` names one graph tensor (so a function returning it gives one tensor, read
    with ``.numpy()``), not an op, a variable or a structure of values."""
    key = symbol_key(expr)
    return key is not None and scope.kind(key) == pm.TENSOR and _one_tensor(scope, key, kind_of)


def _one_tensor(scope: "pm.Scope", key: str, kind_of: Callable[[cst.BaseExpression], Optional[str]]) -> bool:
    """Whether the value computed where it stands that ``key`` names is one tensor, not a list of them
    (``fetch = [a, b]``, ``parts = tf.unstack(a)``, ``buf = []`` a loop fills)."""
    symbol = scope.symbols.get(key)
    if symbol is None or symbol.index >= len(scope.statements):
        return False
    node = scope.statements[symbol.index].node
    if any(isinstance(call.func, cst.Attribute) and call.func.attr.value in ("append", "extend", "insert")
           and symbol_key(call.func.value) == key for call in all_calls(node)):
        return False  # a list a loop fills
    target, value = single(node)
    if _nested_result(value):
        return False  # tf.while_loop(cond, body, (0, (1, 2))): the loop variables' structure, or an element of it
    if target is None or symbol_key(target) != key:
        return True  # an element of an unpacked value (`vals, vecs = tf.linalg.eigh(x)`), or bound by a loop
    return value is not None and not isinstance(value, (cst.List, cst.Tuple, cst.Dict, cst.ListComp, cst.DictComp)) \
        and kind_of(value) != "structure"


# Control flow whose result has the structure of the program's own loop variables or branch results (or a Python
# function's ``Tout``): one tensor, or tensors nested in tuples and lists (matched by the called name: a function
# of the program named so is read the same careful way).
_NESTED_RESULT_CALLS = api.FUNCTION_TAKING_OPS | api.PYTHON_FUNCTION_OPS  # (a Python function's Tout a list: a list)


def _nested_result(value: Optional[cst.BaseExpression]) -> bool:
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    return name in _NESTED_RESULT_CALLS


def to_tensors(expr: cst.BaseExpression, scope: "pm.Scope",
               kind_of: Callable[[cst.BaseExpression], Optional[str]]) -> cst.BaseExpression:
    """What a compiled function returns for the fetch ``expr``: its tensors in the fetch structure, None for ops."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return expr.with_changes(elements=[el.with_changes(value=to_tensors(el.value, scope, kind_of))
                                           for el in expr.elements])
    if isinstance(expr, cst.Dict):
        return expr.with_changes(elements=[el.with_changes(value=to_tensors(el.value, scope, kind_of))
                                           if isinstance(el, cst.DictElement) else el for el in expr.elements])
    key = symbol_key(expr)
    kind = scope.kind(key) if key is not None else kind_of(expr)
    if kind in (pm.OP, pm.INIT, "op", "init"):
        return _NONE
    if key is None and isinstance(expr, cst.Call) and kind is None:
        return expr.with_changes(args=[arg.with_changes(value=to_tensors(arg.value, scope, kind_of))
                                       for arg in expr.args])
    return expr


def computed_to_numpy(expr: cst.BaseExpression, kind_of: Callable[[cst.BaseExpression], Optional[str]], tf: str,
                      returned: Callable[[cst.BaseExpression], Optional[cst.BaseExpression]]) -> cst.BaseExpression:
    """What ``sess.run(expr)`` returned, for a fetch eager code computes where the run stands (not one of the
    graph's values: analysis/method_local_runs): ``.numpy()`` of a tensor, element by element in a literal list,
    tuple or dict, and through ``tf.nest`` where the structure is not known. ``returned``: the expression a call
    of a method of the class returns (None where it is not one)."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return expr.with_changes(elements=[el.with_changes(value=computed_to_numpy(el.value, kind_of, tf, returned))
                                           for el in expr.elements])
    if isinstance(expr, cst.Dict):
        return expr.with_changes(elements=[el.with_changes(value=computed_to_numpy(el.value, kind_of, tf, returned))
                                           if isinstance(el, cst.DictElement) else el for el in expr.elements])
    inner = returned(expr)
    kind = kind_of(inner if inner is not None else expr)
    if _builds_op(expr, kind_of, kind):
        return expr  # it runs where it stands (eager `tf.group` gives None, as TF1's run did)
    if kind in ("op", "init"):
        return _NONE
    if kind is None or kind == "structure":
        return _parse(f"{tf}.nest.map_structure(lambda value: value.numpy(), {code(expr)})")
    return _method(expr, "numpy")


def op_calls(expr: cst.BaseExpression, kind_of: Callable[[cst.BaseExpression], Optional[str]]) -> List[cst.Call]:
    """The ops a fetch builds in place (``sess.run([tf.group(tf.assign_add(v, 1.0)), loss])``), which the function
    computing the fetch must run: its value for them is None."""
    if isinstance(expr, (cst.List, cst.Tuple)):
        return [call for el in expr.elements for call in op_calls(el.value, kind_of)]
    if isinstance(expr, cst.Dict):
        return [call for el in expr.elements if isinstance(el, cst.DictElement) for call in op_calls(el.value, kind_of)]
    return [expr] if _builds_op(expr, kind_of) else []


def _builds_op(expr: cst.BaseExpression, kind_of: Callable[[cst.BaseExpression], Optional[str]],
               kind: Optional[str] = None) -> bool:
    """An op built in the fetch that does something when run: not a group of initializers (the session rule drops
    initializer runs; eager variables start initialized)."""
    if not (isinstance(expr, cst.Call) and (kind or kind_of(expr)) == "op"):
        return False
    inner = [arg.value for arg in expr.args]
    inner = [el.value for node in inner for el in (node.elements if isinstance(node, (cst.List, cst.Tuple))
                                                    else [cst.Element(node)])]
    return not inner or not all(isinstance(node, cst.Call) and kind_of(node) == "init" for node in inner)
