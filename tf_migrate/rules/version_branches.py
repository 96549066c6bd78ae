"""``if`` tests on TensorFlow's version that every TF 1.x and 2.x release answers alike -> the branch taken.

    if int((tf.__version__).split('.')[1]) < 12 and int((tf.__version__).split('.')[0]) < 1:
        writer = tf.train.SummaryWriter('logs/', sess.graph)      # TF < 0.12
    else:
        writer = tf.summary.FileWriter('logs/', sess.graph)
becomes
    writer = tf.summary.FileWriter('logs/', sess.graph)

Tutorials written across TF's early releases carry such tests (MorvanZhou's tensorflowTUT has
one in most files). The test is evaluated, without importing TensorFlow, for every release
1.0 to 1.15 and 2.0 to 2.30 (``__version__`` strings such as ``"1.15.0"``); when all answer
alike, the program runs that branch on any TF it can run on, so the other is dead code, and the
rules after this one see the branch as straight-line code. A test that reads anything else
(another name, a call other than ``int`` / ``float`` / ``str`` / ``len`` / ``tuple`` /
``list`` / ``map``, ``LooseVersion``), or that releases answer differently (``startswith('2')``),
is left as it is.
"""
from __future__ import annotations

import ast
from typing import Optional, Sequence, Tuple

import libcst as cst

from tf_migrate.analysis.static_eval import evaluate, parse_test
from tf_migrate.cst.text import code
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._decided_branches import DecidedBranches
from tf_migrate.traversal import visit

RULE_ID = "version-branches"
RELEASES = tuple(f"1.{minor}.0" for minor in range(16)) + tuple(f"2.{minor}.0" for minor in range(31))
_FUNCTIONS = {"int": int, "float": float, "str": str, "len": len, "tuple": tuple, "list": list, "map": map}
_METHODS = {"split", "startswith", "endswith", "strip", "lstrip", "rstrip", "partition", "rpartition"}
_NODES = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Compare, ast.Eq, ast.NotEq,
          ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Call, ast.Attribute, ast.Subscript, ast.Slice,
          ast.Constant, ast.Name, ast.Load, ast.Tuple, ast.List, ast.USub)


class VersionBranches(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "if-tests on tf.__version__ that every TF 1.x and 2.x release answers alike -> the branch taken"
    ORDER = 1  # before every rule that reads the branches' TF1 code as straight-line code
    TRIGGERS = ("__version__",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        modules = {alias for alias, target in ctx.names.aliases.items() if target == "tensorflow"}
        if not modules:
            return module
        decide = lambda test: _decided_for_releases(test, sorted(modules))  # noqa: E731
        return visit(module, DecidedBranches(ctx, RULE_ID, decide))


def _decided_for_releases(test: cst.BaseExpression, modules: Sequence[str]) -> Optional[Tuple[bool, str]]:
    taken = branch_taken(test, modules)
    return None if taken is None else (taken, f"`{code(test).strip()}` is {taken} for every TF 1.x and 2.x release")


def branch_taken(test: cst.BaseExpression, modules: Sequence[str]) -> Optional[bool]:
    """What ``test`` answers for every release (None: it reads more than the version, or releases differ)."""
    tree = parse_test(test, lambda node: isinstance(node, _NODES))
    if tree is None or not _reads_only_the_version(tree, modules):
        return None
    answers = set()
    for release in RELEASES:
        answer = evaluate(tree, {**_FUNCTIONS, **{name: _Module(release) for name in modules}})
        if answer is None:
            return None  # a test that fails for a release is not one this rule decides
        answers.add(answer)
    return answers.pop() if len(answers) == 1 else None


class _Module:
    def __init__(self, version: str) -> None:
        self.__version__ = version


def _reads_only_the_version(tree: ast.AST, modules: Sequence[str]) -> bool:
    reads_version = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in _FUNCTIONS and node.id not in modules:
            return False
        if isinstance(node, ast.Name) and node.id in modules:
            continue  # checked through its attribute below
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in modules:
                if node.attr != "__version__":
                    return False
                reads_version = True
            elif node.attr not in _METHODS:
                return False
        if isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
                or isinstance(node.func, ast.Attribute) and node.func.attr in _METHODS):
            return False
    names = [node for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in modules]
    attributes = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    return reads_version and all(id(name) in attributes for name in names)
