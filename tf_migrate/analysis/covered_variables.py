"""Variables appended to a list the trainable list already names: TF1 listed each variable once.

    Ws = []
    for M2 in sizes:
        W = tf.Variable(...)
        Ws.append(W)              # Ws: every iteration's variables
    W = tf.Variable(...)          # the output layer's
    Ws.append(W)                  # ... and this one

TF1's ``tf.trainable_variables()`` (and ``minimize`` without ``var_list``) held each of them once. The eager
variable lists name a loop's variables through its list (``*Ws``) and others by their names; the list holds the
last ``W`` too once the append has run, so ``[*Ws, W]`` trained it twice (two SGD steps a run: a silent wrong
rewrite, closed). A variable appended to such a list is marked ``covered_by`` it, and the lists leave it out.

That holds where every run comes after the append (a run before it read the list without the variable, where TF1's
list held it from its creation): otherwise the scope stays compat, with the reason at the append. Only the plain
forms are read: ``L.append(x)``, ``L.extend([x, y])`` and ``L += [x, y]`` as statements of the scope.
"""
from __future__ import annotations

from typing import Iterator, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import symbol_key



def mark_covered_variables(scope: "pm.Scope") -> None:
    first_run = min((st.index for st in scope.statements if st.run_sites), default=len(scope.statements))
    for st in scope.statements:
        for container, items in _additions(st.node):
            listed = scope.symbol_at(container, st.index)
            if listed is None or listed.kind != pm.VARIABLES or container not in scope.creation_order:
                continue
            for item in items:
                symbol = scope.symbol_at(item, st.index)
                if symbol is None or item not in scope.creation_order or symbol.covered_by or not _element_of(
                        symbol, listed):
                    continue
                if st.index > first_run:
                    scope.blockers.append((st.node, f"`{item}` is added to `{container}` after a run: TF1 listed "
                                                    "it from its creation, the eager list from the append"))
                    continue
                symbol.covered_by = container


def _element_of(symbol: "pm.Symbol", listed: "pm.Symbol") -> bool:
    """Whether ``symbol`` is what the list holds: a variable in a list of variables, an object holding variables in
    a list of such objects (analysis/held_objects; a Keras layer in a list of variables is neither)."""
    if listed.members:
        return symbol.kind == pm.LAYER and symbol.members == listed.members
    return symbol.kind == pm.VARIABLE


def filled_dict_item(node: cst.CSTNode, scope: "pm.Scope", index: int, names) -> bool:
    """``weights['recog'] = {'h1': tf.Variable(...), ...}`` (string keys, trainable variables made in the literal),
    where ``weights`` was last bound to an empty dict (``{}``, ``dict()``) or by such a line: the dict holds dicts of
    variables, in the order the lines made them (``*(v for inner in weights.values() for v in inner.values())``)."""
    target, value = _item_line(node)
    if target is None or not isinstance(value, cst.Dict):
        return False
    key = symbol_key(target.value)
    if key is None or not value.elements or not all(
            isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) and isinstance(e.value, cst.Call)
            and names.call_name(e.value) in api.VARIABLE_CONSTRUCTORS and not _untrainable(e.value)
            for e in value.elements):
        return False
    before = scope.symbol_at(key, index)
    if before is None or not 0 <= before.index < len(scope.statements):
        return False
    if before.nested:
        return True
    _, bound = single(scope.statements[before.index].node)
    return _empty_dict(bound)


def filled_variable_item(node: cst.CSTNode, scope: "pm.Scope", index: int, names) -> bool:
    """``weights['W1'] = tf.Variable(...)`` (a string key, one trainable variable), where ``weights`` was last bound to
    an empty dict or by such a line with another key (DarkTheCross's ``self.Q_Weights = {}`` then one line per
    weight): a dict of variables in the order the lines made them, listed by its values as a literal's."""
    target, value = _item_line(node)
    if target is None or not (isinstance(value, cst.Call) and names.call_name(value) in api.VARIABLE_CONSTRUCTORS
                              and not _untrainable(value)):
        return False
    key, item = symbol_key(target.value), target.slice[0].slice.value.evaluated_value
    before = scope.symbol_at(key, index) if key is not None else None
    while before is not None and 0 <= before.index < len(scope.statements) and before.filled:
        earlier, _ = _item_line(scope.statements[before.index].node)
        if earlier is None or earlier.slice[0].slice.value.evaluated_value == item:
            return False  # (a key given again: the dict would hold the second variable only, TF1 made both)
        before = scope.symbol_at(key, before.index)
    if before is None or not 0 <= before.index < len(scope.statements) or before.nested:
        return False
    _, bound = single(scope.statements[before.index].node)
    return _empty_dict(bound)


def _item_line(node: cst.CSTNode) -> Tuple[Optional[cst.Subscript], Optional[cst.BaseExpression]]:
    """(``d['k']``, value) of a line ``d['k'] = value`` with a string key, else (None, None)."""
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Assign)
            and len(node.body[0].targets) == 1):
        return None, None
    target = node.body[0].targets[0].target
    if not (isinstance(target, cst.Subscript) and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index)
            and isinstance(target.slice[0].slice.value, cst.SimpleString)):
        return None, None
    return target, node.body[0].value


def _empty_dict(bound: Optional[cst.BaseExpression]) -> bool:
    return (isinstance(bound, cst.Dict) and not bound.elements) or (
        isinstance(bound, cst.Call) and isinstance(bound.func, cst.Name) and bound.func.value == "dict"
        and not bound.args)


def _untrainable(call: cst.Call) -> bool:
    trainable = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "trainable"), None)
    return trainable is not None and not (isinstance(trainable, cst.Name) and trainable.value == "True")


def grows_in_place(node: cst.CSTNode, key: str) -> bool:
    """Whether ``node`` is a line that only adds to the list ``key`` in place (``key.append(x)``, ``key += [...]``):
    the list it binds is the one bound before, grown."""
    return isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and [
        container for container, _ in _additions(node)] == [key]


def appended_value(call: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """``x`` of a call ``L.append(x)`` whose list is a name or attribute (``self.layers.append(layer)``)."""
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" \
            and len(call.args) == 1 and not call.args[0].star and symbol_key(call.func.value) is not None:
        return call.args[0].value
    return None


def _additions(node: cst.CSTNode) -> Iterator[Tuple[str, List[str]]]:
    """(list key, keys added) for each ``L.append(x)`` / ``L.extend([x, ...])`` / ``L += [x, ...]`` of a line."""
    if not isinstance(node, cst.SimpleStatementLine):
        return
    for small in node.body:
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and isinstance(
                small.value.func, cst.Attribute) and len(small.value.args) == 1:
            call = small.value
            method, value = call.func.attr.value, call.args[0].value
            if appended_value(call) is not None:
                yield from _pair(call.func.value, [value])
            elif method == "extend" and isinstance(value, (cst.List, cst.Tuple)):
                yield from _pair(call.func.value, [e.value for e in value.elements])
        elif isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) and isinstance(
                small.value, (cst.List, cst.Tuple)):
            yield from _pair(small.target, [e.value for e in small.value.elements])


def _pair(container: cst.BaseExpression, values) -> Iterator[Tuple[str, List[str]]]:
    key = symbol_key(container)
    items = [symbol_key(v) for v in values]
    if key is not None:
        yield key, [item for item in items if item is not None]
