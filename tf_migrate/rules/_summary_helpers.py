"""What the summaries rule reads: TF1 summary calls, the tags TF1 gave them, and summary helpers.

Tags: TF1 named a summary after the name scope it opened for it, and a graph
gives each name once (``Graph.unique_name``): a second ``tf.name_scope("w")``
at the same level is ``w_1``, and ``tf.summary.histogram("weights", w)`` next
to a variable named ``weights`` is tagged ``weights_1``; names are compared
lower-cased, so ``tf.summary.scalar("mean", tf.reduce_mean(v))`` is ``mean_1``
(the op ``Mean`` came first). :class:`NameScopes` replays that for the scopes,
summaries and TF calls of module code and summary helpers, each call under its
``name=`` or its default name (the function's, ``reduce_`` dropped); calls of
user functions and Python operators (``sub``, ``add``) are not modelled.

Summary helpers: a function that only computes tensors and registers summaries
(TF's documentation's ``variable_summaries(var)``) and is called as a statement
at module level. Its summaries are registered at each call, under the caller's
name scope. The rule makes it return them (a dict keyed by
the summary names it gives) and folds each call into the merged summary.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.symbols import reads
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

KINDS = {"tf.summary.scalar": "scalar", "tf.summary.histogram": "histogram", "tf.summary.image": "image",
         "tf.summary.text": "text"}
_EXTRA = {"image": ["max_outputs"]}  # keyword arguments TF2 keeps
SCOPES = ("tf.name_scope", "tf.variable_scope")
_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")


class Unsupported(Exception):
    """A summary the rule cannot trace to its writes: the file keeps TF1's summaries."""


@dataclass
class SummaryCall:
    kind: str
    name: str  # as TF1 cleaned it, before the scope and uniquification
    value: cst.BaseExpression
    extra: List[cst.Arg]
    collections: Optional[Tuple[str, ...]] = None  # the keys of ``collections=`` (None: TF1's default, summaries)


SUMMARIES_KEY = "summaries"  # tf.GraphKeys.SUMMARIES


def collection_key(node: cst.BaseExpression, names: TFNames) -> Optional[str]:
    """The key a literal string or ``tf.GraphKeys.SUMMARIES`` names (None: another expression)."""
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    return SUMMARIES_KEY if names.qualname(node) == "tf.GraphKeys.SUMMARIES" else None


def merged_key(call: cst.Call, names: TFNames) -> str:
    """The collection ``tf.summary.merge_all(key=...)`` merges (TF1's default: the summaries)."""
    given = next((a.value for a in call.args if a.keyword is None or a.keyword.value == "key"), None)
    if given is None:
        return SUMMARIES_KEY
    key = collection_key(given, names)
    if key is None or any(a.keyword is not None and a.keyword.value != "key" for a in call.args):
        raise Unsupported("merge_all of a collection other than a literal key")
    return key


def summary_arguments(call: cst.Call, kind: str) -> Tuple[List[cst.Arg], Dict[str, cst.Arg]]:
    """A summary call's positional arguments and its keyword ones by name; an image summary's third positional one
    is its ``max_outputs`` (TF's `mnist_with_summaries`: ``tf.summary.image('input', x, 10)``)."""
    positional = [a for a in call.args if a.keyword is None]
    keywords = {a.keyword.value: a for a in call.args if a.keyword is not None}
    if kind == "image" and len(positional) == 3 and not positional[2].star and "max_outputs" not in keywords:
        keywords["max_outputs"] = positional[2].with_changes(
            keyword=cst.Name("max_outputs"), equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
        positional = positional[:2]
    return positional, keywords


def named_value(positional: List[cst.Arg], keywords: Dict[str, cst.Arg]) \
        -> Tuple[Optional[cst.BaseExpression], Optional[cst.Arg]]:
    """A summary call's name (the expression) and the argument holding what it summarizes, from
    :func:`summary_arguments`."""
    name = positional[0].value if positional else getattr(keywords.get("name"), "value", None)
    return name, positional[1] if len(positional) > 1 else keywords.get("tensor", keywords.get("values"))


def clean_tag(name: str) -> str:
    """The name as TF1 cleaned a summary's (characters it does not allow become ``_``, no leading ``/``)."""
    return _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")


def summary_call(call: cst.Call, names: TFNames) -> Optional[SummaryCall]:
    """The TF1 summary ``call`` registers (None: not a summary call)."""
    kind = KINDS.get(names.call_name(call) or "")
    if kind is None:
        return None
    positional, keywords = summary_arguments(call, kind)
    if set(keywords) - {"name", "tensor", "values", "max_outputs", "collections"} or len(positional) > 2:
        raise Unsupported("summary arguments other than name, tensor, max_outputs and collections (family=, ...)")
    collections = None
    if "collections" in keywords:
        listed = keywords["collections"].value
        keys = [collection_key(e.value, names) for e in listed.elements] \
            if isinstance(listed, (cst.List, cst.Tuple)) else [None]
        if None in keys:
            raise Unsupported("summary collections= other than a literal list of keys")
        collections = tuple(keys)
    name, summarized = named_value(positional, keywords)
    value = summarized.value if summarized is not None else None
    if not isinstance(name, cst.SimpleString) or value is None:
        raise Unsupported("a summary whose name is not a string literal")
    cleaned = clean_tag(name.evaluated_value)
    return SummaryCall(kind, cleaned, value, [keywords[k] for k in _EXTRA.get(kind, []) if k in keywords], collections)


def scope_name(call: cst.BaseExpression, names: TFNames) -> Optional[str]:
    """The literal name a ``tf.name_scope`` / ``tf.variable_scope`` call opens ("" for any other scope)."""
    if not (isinstance(call, cst.Call) and names.call_name(call) in SCOPES):
        return None
    first = call.args[0].value if call.args and call.args[0].keyword is None else None
    return first.evaluated_value if isinstance(first, cst.SimpleString) else ""


class NameScopes:
    """TF1's name scopes and ``Graph.unique_name``, for the names the program text gives."""

    def __init__(self) -> None:
        self.stack: List[str] = []
        self.in_use: Dict[str, int] = {}
        self.unnamed: List[bool] = []  # per open scope: a scope call whose name the text does not give

    @property
    def known(self) -> bool:
        """Whether every open scope's name is known (``with tf.name_scope(name):`` of a variable is not)."""
        return not any(self.unnamed)

    def unique(self, name: str) -> str:
        """The full name TF1 gave ``name`` in the current scope, marked as used."""
        full = "/".join([s for s in self.stack[-1:] if s] + [name])
        key = full.lower()
        count = self.in_use.get(key, 0)
        self.in_use[key] = count + 1
        if count == 0:
            return full
        while f"{key}_{count}" in self.in_use:
            count += 1
        self.in_use[f"{key}_{count}"] = 1
        return f"{full}_{count}"

    def push(self, name: Optional[str]) -> None:
        """Enter ``with tf.name_scope(name)``; None (no scope) or "" (a scope the text does not name) keeps the
        current one, "" marked unknown."""
        self.unnamed.append(name == "")
        self.stack.append(self.unique(name) if name else (self.stack[-1] if self.stack else ""))

    def pop(self) -> None:
        self.stack.pop()
        self.unnamed.pop()


_DEFAULT_NAMES = {"constant": "Const", "get_variable": "", "convert_to_tensor": "", "no_op": "NoOp"}


def op_names(node: cst.CSTNode, names: TFNames, skip: Tuple[cst.Call, ...] = ()) -> List[str]:
    """The names TF1 gave the ops the TF calls in ``node`` create, in the order it created them (arguments
    first); summary and scope calls, and those in ``skip``, are left to their callers."""
    finder = _Calls()
    visit(node, finder)
    found = []
    for call in finder.post_order:
        qualname = names.call_name(call) or ""
        if not qualname.startswith("tf.") or qualname in KINDS or qualname in SCOPES or \
                any(call is c for c in skip) or qualname.startswith(("tf.summary.", "tf.train.", "tf.layers.")):
            continue
        given = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "name"), None)
        last = qualname.rsplit(".", 1)[-1]
        name = given.evaluated_value if isinstance(given, cst.SimpleString) else _DEFAULT_NAMES.get(
            last, last[len("reduce_"):] if last.startswith("reduce_") else last)
        if name:
            found.append(name)
    return found


@dataclass
class Helper:
    """A summary helper: its summaries keyed by the tag they get relative to a call, and what to replay."""

    summaries: Dict[str, SummaryCall] = field(default_factory=dict)
    # ("push", scope name) / ("pop", "") / ("op", op name) / ("summary", key), in the order a call runs them
    events: List[Tuple[str, str]] = field(default_factory=list)
    lines: set = field(default_factory=set)  # ids of its summary statements (folded into its return)


def find_helpers(module: cst.Module, names: TFNames) -> Dict[str, Helper]:
    """The module's top-level functions that only compute tensors and register summaries."""
    helpers = {}
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) and _registers_summaries(statement, names):
            helper, assigned = Helper(), []
            if _read_block(statement.body.body, names, helper, assigned) and helper.summaries \
                    and not _rebinds_after(helper, assigned):
                helpers[statement.name.value] = helper
    return helpers


def replay(helper: Helper, scopes: NameScopes) -> List[Tuple[str, str]]:
    """(key in the helper's return, the full tag TF1 gave it) for a call of ``helper`` under ``scopes``."""
    tags = []
    for event, value in helper.events:
        if event == "push":
            scopes.push(value)
        elif event == "pop":
            scopes.pop()
        elif event == "op":
            scopes.unique(value)
        elif not scopes.known:  # (a scope of the helper named by a variable: TF1 prefixed the tag with its value)
            raise Unsupported("a summary helper's summary under a name scope whose name the text does not give")
        else:
            tags.append((value, scopes.unique(helper.summaries[value].name)))
    return tags


def _registers_summaries(function: cst.FunctionDef, names: TFNames) -> bool:
    finder = _Calls()
    visit(function, finder)
    return any(names.call_name(c) in KINDS for c in finder.calls)


def _read_block(statements, names: TFNames, helper: Helper, assigned: List[Tuple[str, int]]) -> bool:
    """Reads a helper's statements into ``helper``; False where they do more than compute and summarize."""
    for statement in statements:
        if isinstance(statement, cst.With):
            scopes = [scope_name(item.item, names) for item in statement.items]
            if any(s is None for s in scopes) or any(item.asname for item in statement.items):
                return False
            helper.events += [("push", s) for s in scopes]
            if not _read_block(statement.body.body, names, helper, assigned):
                return False
            helper.events += [("pop", "")] * len(scopes)
        elif isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            if not _read_line(statement, names, helper, assigned):
                return False
        else:
            return False
    return True


def _read_line(line: cst.SimpleStatementLine, names: TFNames, helper: Helper, assigned) -> bool:
    small = line.body[0]
    if isinstance(small, cst.Pass) or isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
        return True
    if isinstance(small, cst.Assign):
        targets = [t.target for t in small.targets]
        if not (all(isinstance(t, cst.Name) for t in targets) and _pure_tf(small.value, names)):
            return False
        helper.events += [("op", name) for name in op_names(small.value, names)]
        assigned += [(t.value, len(helper.events)) for t in targets]
        return True
    value = small.value if isinstance(small, cst.Expr) else None
    summary = summary_call(value, names) if isinstance(value, cst.Call) else None
    if summary is None or summary.name in helper.summaries or not _pure_tf(summary.value, names) \
            or summary.collections is not None:
        return False  # a bare op (its effect is lost), two summaries named alike, a value with effects, or kept
        # in collections of its own (merged by key)
    helper.events += [("op", name) for name in op_names(summary.value, names)]
    helper.summaries[summary.name] = summary
    helper.events.append(("summary", summary.name))
    helper.lines.add(id(line))
    return True


def _rebinds_after(helper: Helper, assigned: List[Tuple[str, int]]) -> bool:
    """Whether a name a summary reads is bound again after it: the helper returns the values at its end."""
    for position, (event, key) in enumerate(helper.events):
        if event == "summary":
            read = set(reads(helper.summaries[key].value))
            if any(name in read and at > position for name, at in assigned):
                return True
    return False


def _pure_tf(expression: cst.BaseExpression, names: TFNames) -> bool:
    """Every call in ``expression`` is a TF op that creates no variable and registers no collection."""
    finder = _Calls()
    visit(expression, finder)
    for call in finder.calls:
        qualname = names.call_name(call) or ""
        if not qualname.startswith("tf.") or qualname in api.VARIABLE_CONSTRUCTORS or api.is_compat_only(qualname) \
                or qualname.startswith(("tf.assign", "tf.layers.", "tf.keras.", "tf.train.", "tf.summary.")):
            return False
    return True


class _Calls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.calls: List[cst.Call] = []
        self.post_order: List[cst.Call] = []  # a call after its arguments' calls, as TF1 built the ops

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def leave_Call(self, node: cst.Call) -> None:
        self.post_order.append(node)
