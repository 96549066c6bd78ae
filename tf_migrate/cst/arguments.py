"""A call's arguments read against an API signature, and keyword arguments written PEP 8's way."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import libcst as cst

_TIGHT = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


def keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    """``name=value`` written the PEP 8 way."""
    return cst.Arg(value, keyword=cst.Name(name), equal=_TIGHT)


def find_argument(call: cst.Call, name: str, position: Optional[int] = None) -> Optional[cst.Arg]:
    """The argument passed as ``name=`` or, when ``position`` is given, as that positional argument."""
    for index, arg in enumerate(call.args):
        if (arg.keyword is not None and arg.keyword.value == name) or (arg.keyword is None and index == position):
            return arg
    return None


def argument(call: cst.Call, name: str, position: Optional[int] = None) -> Optional[cst.BaseExpression]:
    """The value of :func:`find_argument`, or None."""
    arg = find_argument(call, name, position)
    return arg.value if arg is not None else None


def bind(call: cst.Call, params: Sequence[str]) -> Optional[Dict[str, cst.BaseExpression]]:
    """Arguments of ``call`` by parameter name; None for ``*args`` / ``**kwargs`` or unknown keywords."""
    bound: Dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(call.args):
        if arg.star:
            return None
        name = arg.keyword.value if arg.keyword is not None else (
            params[position] if position < len(params) else None)
        if name is None or name not in params:
            return None
        bound[name] = arg.value
    return bound


def bind_with_defaults(call: cst.Call, params: Sequence[cst.Param]) -> Optional[Dict[str, cst.BaseExpression]]:
    """:func:`bind` of ``call`` to ``params``, each parameter it does not give bound to its default; None when
    one has no default, or for ``*args`` / ``**kwargs`` and unknown keywords."""
    bound = bind(call, [p.name.value for p in params])
    if bound is None:
        return None
    for param in params:
        if param.name.value not in bound:
            if param.default is None:
                return None
            bound[param.name.value] = param.default
    return bound


def bind_known(call: cst.Call, positional: Sequence[str]) -> Dict[str, cst.BaseExpression]:
    """Arguments of ``call`` by name, keywords as written; positions past ``positional`` are left out."""
    bound: Dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(call.args):
        if arg.keyword is not None:
            bound[arg.keyword.value] = arg.value
        elif position < len(positional):
            bound[positional[position]] = arg.value
    return bound


def parameters(params: cst.Parameters, stars: bool = True) -> List[cst.Param]:
    """Every parameter a function declares, in order (positional-only, plain, keyword-only), then ``*args`` and
    ``**kwargs`` unless ``stars`` is False."""
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    if stars:
        found += [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    return found


def parameter_names(params: cst.Parameters, stars: bool = True) -> List[str]:
    """The names :func:`parameters` binds."""
    return [param.name.value for param in parameters(params, stars)]
