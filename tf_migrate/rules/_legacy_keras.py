"""Compat output that uses Keras 2 APIs selects legacy Keras (tf-keras) itself.

On TF >= 2.16 ``tf.compat.v1.layers``, ``tf.compat.v1.nn.rnn_cell`` and
``tf.compat.v1.keras`` are routed to Keras 3 unless ``TF_USE_LEGACY_KERAS`` is
set, and Keras 3 has none of the first two (``AttributeError: `dense` is not
available with Keras 3``) and does not support TF1 graph mode (``Sequential.fit``
and ``backend.get_session`` fail). Measured on TF 2.21 + tf-keras 2.21:

* each of these APIs is a lazy module that reads the variable when it is first
  used, so the switch works if it runs before the first use;
* ``from tensorflow.keras... import`` and ``import tensorflow.keras`` are routed
  when TensorFlow itself is imported, so the switch must run before that;
* ``tf.keras.datasets`` only downloads and loads numpy arrays: either Keras works.

So the output sets the variable (``setdefault``: a value the user chose wins)
before its first import that could import TensorFlow: TensorFlow itself, or a
module that is neither in the standard library nor a well-known package that
never imports TF.
"""
from __future__ import annotations

from typing import List, Optional

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.report import WARNING
from tf_migrate.rules import RuleContext
from tf_migrate.cst.text import code, module_code
from tf_migrate.rules._edits import Edits, statement
from tf_migrate.rules._tf_references import Reference, references
from tf_migrate.tfnames import TFNames, dotted_name
from tf_migrate.traversal import visit

SWITCH = "TF_USE_LEGACY_KERAS"
KERAS2_APIS = ("tf.layers", "tf.nn.rnn_cell", "tf.keras")
_KERAS3_IS_FINE = ("tf.keras.datasets",)
_COMMENT = "# TF1 Keras APIs need Keras 2: pip install tf-keras"


def is_keras2(qualname: str) -> bool:
    def under(prefix: str) -> bool:
        return qualname == prefix or qualname.startswith(prefix + ".")

    return any(map(under, KERAS2_APIS)) and not any(map(under, _KERAS3_IS_FINE))


def select_legacy_keras(module: cst.Module, ctx: RuleContext, compat_spelled_only: bool = False,
                        rule: str = "compat-mode") -> cst.Module:
    """Sets TF_USE_LEGACY_KERAS before TensorFlow is imported when the module uses Keras 2; reports it.

    ``compat_spelled_only``: only references spelled ``tf.compat.v1.`` count (eager output, where
    ``tf.keras`` is the TF2 Keras and works with Keras 3)."""
    refs = [r for r in references(module, TFNames.scan(module)) if is_keras2(r.qualname)
            and (not compat_spelled_only or ".compat.v1." in code(r.node))]
    if not refs:
        return module
    body = list(module.body)
    position = _first_risky_import(body)
    message = (f"`{refs[0].qualname}` needs Keras 2, the `tf-keras` package (pip install tf-keras): TF >= 2.16 "
               "routes these APIs to Keras 3, which lacks tf.compat.v1.layers and rnn cells and does not run TF1 "
               f"graph code, so the output sets {SWITCH}=1 before TensorFlow is imported")
    if position is not None and not _is_tensorflow_import(body[position]):
        message += f"; the switch goes before `{_first_line(body[position])}`, which may import TensorFlow"
    if any(isinstance(r.node, (cst.Import, cst.ImportFrom)) and _is_under_keras(r) for r in refs):
        message += (". `tensorflow.keras` imported as a module is routed when TensorFlow is first imported: if "
                    f"another module imports TensorFlow before this file, set {SWITCH}=1 in the environment")
    ctx.report(refs[0].node, rule, WARNING, message)
    if position is None or _sets_switch(module):
        return module
    lines = [f'os.environ.setdefault("{SWITCH}", "1")  {_COMMENT}']
    if not _imports_os(body[:position]):
        lines.insert(0, "import os")
    edits = Edits()
    edits.before[id(body[position])] = [statement(line) for line in lines]
    return visit(module, edits)


def _is_under_keras(ref: Reference) -> bool:
    return ref.qualname == "tf.keras" or ref.qualname.startswith("tf.keras.")


def _first_risky_import(body: List[cst.BaseStatement]) -> Optional[int]:
    """Index of the first top-level statement holding an import that could import TensorFlow."""
    for index, stmt in enumerate(body):
        if any(not _never_imports_tf(node) for node in _imports_in(stmt)):
            return index
    return None


def _imports_in(stmt: cst.CSTNode) -> List[cst.CSTNode]:
    found: List[cst.CSTNode] = []

    class _Imports(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> bool:
            found.append(node)
            return False

        def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
            found.append(node)
            return False

    visit(stmt, _Imports())
    return found


def _never_imports_tf(node) -> bool:
    if isinstance(node, cst.ImportFrom):
        return not node.relative and node.module is not None and _top(node.module) in api.HOST_MODULES
    return all(_top(alias.name) in api.HOST_MODULES for alias in node.names)


def _top(name: cst.BaseExpression) -> str:
    return (dotted_name(name) or "").split(".")[0]


def _is_tensorflow_import(stmt: cst.BaseStatement) -> bool:
    for node in _imports_in(stmt):
        heads = [_top(node.module)] if isinstance(node, cst.ImportFrom) and node.module is not None else (
            [] if isinstance(node, cst.ImportFrom) else [_top(a.name) for a in node.names])
        if "tensorflow" in heads:
            return True
    return False


def _first_line(stmt: cst.BaseStatement) -> str:
    return code(stmt.with_changes(leading_lines=[])).strip().splitlines()[0]


def _imports_os(body: List[cst.BaseStatement]) -> bool:
    return any(isinstance(small, cst.Import) and any(dotted_name(a.name) == "os" and a.asname is None
                                                     for a in small.names)
               for stmt in body if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body)


def _sets_switch(module: cst.Module) -> bool:
    """The file already chooses its Keras (a run of tf-migrate put the switch there, or the user did)."""
    if SWITCH not in module_code(module):
        return False
    found = []

    class _Strings(cst.CSTVisitor):
        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            if SWITCH in node.value:
                found.append(node)

    visit(module, _Strings())
    return bool(found)
