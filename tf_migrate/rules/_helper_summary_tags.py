"""The tags TF1 gave a layer helper's summaries at one call (helper-summaries): its scopes and summary names
evaluated from the call's literal arguments (``'layer%s' % n_layer``), under TF1's unique names."""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis.static_eval import parse_test, value_of
from tf_migrate.rules._summary_helpers import NameScopes, clean_tag

# What a tag or scope name may be made of: literals, the call's arguments, `+`, `%` and f-strings.
_EXPRESSION_NODES = (ast.Expression, ast.BinOp, ast.Add, ast.Mod, ast.Constant, ast.Name, ast.Load, ast.JoinedStr,
                     ast.FormattedValue, ast.Tuple)


def call_tags(events, names: List[cst.BaseExpression],
              bound: Dict[str, cst.BaseExpression]) -> Optional[Tuple[List[str], List[str]]]:
    """(the tag of each summary relative to the call, the top-level scope names the call opens), for a helper's
    ``events`` in the order a call runs them (``("push", scope name expression)``, ``("pop", None)``, ``("op", op
    name)``, ``("bind", assignment)``, ``("summary", index into names)``), its summaries' ``names`` (expressions)
    and the call's arguments ``bound`` to its parameters. None where a name is not known."""
    values: Dict[str, object] = {}
    for key, expr in bound.items():
        literal = _evaluate(expr, {})
        if literal is not None:
            values[key] = literal
    scopes, tags, top, depth = NameScopes(), [], [], 0
    for event, item in events:
        if event == "push":
            name = _evaluate(item, values)
            if not isinstance(name, str) or not name:
                return None
            if depth == 0:
                top.append(name)
            scopes.push(name)
            depth += 1
        elif event == "pop":
            scopes.pop()
            depth -= 1
        elif event == "op":
            scopes.unique(item)
        elif event == "bind":
            for target in item.targets:
                if isinstance(target.target, cst.Name):
                    values.pop(target.target.value, None)
                    value = _evaluate(item.value, values)
                    if value is not None:
                        values[target.target.value] = value
        else:
            name = _evaluate(names[item], values)
            if not isinstance(name, str) or not name:
                return None
            tags.append(scopes.unique(clean_tag(name)))
    return tags, top


def _evaluate(expr: cst.BaseExpression, values: Dict[str, object]) -> Optional[object]:
    tree = parse_test(expr, lambda node: isinstance(node, _EXPRESSION_NODES))
    if tree is None:
        return None
    value = value_of(tree, values)
    return value if isinstance(value, (str, int, float)) and not isinstance(value, bool) else None
