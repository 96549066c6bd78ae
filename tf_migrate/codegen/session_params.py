"""Drop session parameters nothing uses any more, and the arguments that fed them.

``class Actor: def __init__(self, sess, lr)`` + ``Actor(sess, 0.01)``: once
the runs are gone the session is unused, and in eager code there is no
session to pass, so both the parameter and the argument go.
"""
from __future__ import annotations

from typing import Dict, List, Mapping, Set, Tuple

import libcst as cst

from tf_migrate.analysis.run_sites import session_named
from tf_migrate.analysis.symbols import reads
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit


def _session_param(params: cst.Parameters, sessions: Set[str], skip_self: bool):
    plist = list(params.params)
    for index, param in enumerate(plist):
        if skip_self and index == 0:
            continue
        name = param.name.value
        if name in sessions or session_named(name):
            return index - (1 if skip_self else 0), name
    return None, None


def drop_session_params(body: List[cst.BaseStatement], sessions: Set[str],
                        imported: Mapping[str, Tuple[int, str]] = None) -> Tuple[List[cst.BaseStatement], Dict]:
    """Remove unused session parameters of defs/classes and the matching call arguments, in every scope.

    A helper defined inside ``main()`` and called there (``def evaluate(sess)`` + ``evaluate(sess)``)
    is handled in ``main``'s body, as module-level ones are in the module's. ``imported``: classes and functions
    of other modules of the tree whose eager form no longer takes a session (local name -> (position, name)):
    their calls lose the argument too. Returns the body and the module's own classes and functions whose
    parameter went, which its importers may be told.
    """
    imported = dict(imported or {})
    # (the module's pass drops the imported ones' arguments everywhere, in functions too: a function's pass that
    # dropped them as well took a second argument away, `dqn.DQN(sess, 4, 2)` -> `dqn.DQN(2)`)
    body = [visit(stmt, _NestedScopes(sessions, {})) for stmt in body]
    return _drop_in_scope(body, sessions, imported)


class _NestedScopes(cst.CSTTransformer):
    """Runs the drop on the body of every function, innermost first."""

    def __init__(self, sessions: Set[str], imported: Dict[str, Tuple[int, str]]) -> None:
        self.sessions = sessions
        self.imported = imported

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not isinstance(updated.body, cst.IndentedBlock):
            return updated
        new_body, _ = _drop_in_scope(list(updated.body.body), self.sessions, self.imported)
        return updated.with_changes(body=updated.body.with_changes(body=new_body))


def _drop_in_scope(body: List[cst.BaseStatement], sessions: Set[str],
                   imported: Dict[str, Tuple[int, str]]) -> Tuple[List[cst.BaseStatement], Dict]:
    dropped: Dict[str, tuple] = {}  # callable name -> (position, keyword)
    methods: Dict[str, tuple] = {}  # method name -> (position, keyword), for calls on objects passing a session
    new_body = []
    for stmt in body:
        target = stmt
        if isinstance(stmt, cst.ClassDef):
            own: Dict[str, tuple] = {}
            stmt = target = _without_method_sessions(stmt, sessions, own)
            methods.update(own)
            dropped.update((f"{stmt.name.value}#{method}", found) for method, found in own.items())  # for importers
            init = next((s for s in stmt.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"),
                        None)
            if init is not None:
                position, name = _session_param(init.params, sessions, skip_self=True)
                if name is not None and name not in reads(init.body):
                    new_init = init.with_changes(params=_without(init.params, name))
                    target = stmt.with_changes(body=stmt.body.with_changes(
                        body=[new_init if s is init else s for s in stmt.body.body]))
                    dropped[stmt.name.value] = (position, name)
        elif isinstance(stmt, cst.FunctionDef):
            position, name = _session_param(stmt.params, sessions, skip_self=False)
            if name is not None and name not in reads(stmt.body):
                target = stmt.with_changes(params=_without(stmt.params, name))
                dropped[stmt.name.value] = (position, name)
        new_body.append(target)
    calls = {**imported, **dropped}  # a local definition hides an imported name
    methods.update((key.split("#")[1], found) for key, found in imported.items() if "#" in key)  # Model#train
    if not calls and not methods:
        return new_body, dropped
    return [visit(stmt, _DropArguments(calls, methods, sessions)) for stmt in new_body], dropped


def _without_method_sessions(cls: cst.ClassDef, sessions: Set[str], methods: Dict[str, tuple]) -> cst.ClassDef:
    """``cls`` without the session parameters its methods other than ``__init__`` no longer read (``def
    train_on_batch(self, sess, x)`` whose runs became generated methods), and without the arguments its own calls
    passed them (``self.train_on_batch(sess, x)`` in ``run_epoch``, whose parameter then goes in turn); ``methods``
    gets each one dropped."""
    while True:
        found = len(methods)
        members = []
        for member in cls.body.body:
            if isinstance(member, cst.FunctionDef) and member.name.value not in ("__init__", *methods) \
                    and member.params.params and member.params.params[0].name.value == "self" \
                    and not member.decorators:
                position, name = _session_param(member.params, sessions, skip_self=True)
                if name is not None and name not in reads(member.body):
                    member = member.with_changes(params=_without(member.params, name))
                    methods[member.name.value] = (position, name)
            members.append(member)
        if len(methods) == found:
            return cls
        cls = visit(cls.with_changes(body=cls.body.with_changes(body=members)), _DropArguments({}, methods, sessions))


def _without(params: cst.Parameters, name: str) -> cst.Parameters:
    """``params`` without the parameter ``name``; a new last parameter takes the dropped one's comma (none, or the
    trailing comma the def had)."""
    plist = list(params.params)
    index = next(i for i, p in enumerate(plist) if p.name.value == name)
    dropped = plist.pop(index)
    if plist and index == len(plist) and not (isinstance(params.star_arg, (cst.Param, cst.ParamStar))
                                               or params.kwonly_params or params.star_kwarg is not None):
        plist[-1] = plist[-1].with_changes(comma=dropped.comma)
    return params.with_changes(params=plist)


class _DropArguments(cst.CSTTransformer):
    def __init__(self, dropped, methods=None, sessions=frozenset()) -> None:
        self.dropped = dropped
        self.methods = methods or {}  # method name -> (position, keyword): calls on objects that pass a session
        self.sessions = sessions

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        callee = dotted_name(original.func)  # ``module.Agent`` for a class of a module of the tree imported whole
        if callee not in self.dropped:
            return self._method_call(original, updated)
        position, name = self.dropped[callee]
        return _without_argument(updated, position, name)

    def _method_call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """``model.train_on_batch(sess, x)`` of a method whose session parameter went, given a session there."""
        func = original.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in self.methods):
            return updated
        position, name = self.methods[func.attr.value]
        given = [arg.value for index, arg in enumerate(original.args) if (
            arg.keyword is None and not arg.star and index == position) or (
            arg.keyword is not None and arg.keyword.value == name)]
        if len(given) != 1 or not (isinstance(given[0], cst.Name) and (
                given[0].value in self.sessions or session_named(given[0].value))):
            return updated
        return _without_argument(updated, position, name)


def _without_argument(updated: cst.Call, position: int, name: str) -> cst.Call:
    args = []
    for index, arg in enumerate(updated.args):
        if (arg.keyword is None and not arg.star and index == position) or (
                arg.keyword is not None and arg.keyword.value == name):
            continue
        args.append(arg)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return updated.with_changes(args=args)
