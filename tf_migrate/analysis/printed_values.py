"""Tensors formatted into text outside any run.

    node1 = tf.constant(3.0)
    print("node1: {}".format(node1))            # TF1: node1: Tensor("Const:0", shape=(), dtype=float32)
    print(f"node1: {node1}")                    # eager TF2: node1: 3.0

TF1 wrote a graph tensor's description wherever it became text; an eager tensor printed or made a string
(``print(node1)``, ``str(node1)``, ``"%s" % node1``) writes its description with its value
(``tf.Tensor(3.0, shape=(), dtype=float32)``), which the verifier pairs with TF1's by dtype and shape
(``verify/output_compare``), but formatted (``"{}".format(node1)``, an f-string field, ``format(node1)``) it writes
its value alone. Per-run tensors are read from their run function's trace (``check_escapes``); the tensors eager
code computes where they stand (constants and what is computed from them) have no such trace, so a statement that
formats one by name keeps the scope compat, with the reason there (ChengBinJin's tutorial notebook printed
``node1: 3.0`` where TF1 printed the description). Variables format as their description in both.
"""
from __future__ import annotations

from typing import Iterator

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.text import code
from tf_migrate.traversal import visit


def check_printed_values(c) -> None:
    """Block each statement of the classifier's scope that formats such a tensor (see the module doc)."""
    for st in c.scope.statements:
        if st.role not in (pm.KEEP, pm.RUN) or isinstance(st.node, (cst.FunctionDef, cst.ClassDef)):
            continue
        skip = {id(site.call) for site in st.run_sites}
        view = c.scope.at(st.index)
        for expr in _texts(st.node, skip):
            if view.kind(symbol_key(expr) or "") == pm.EAGER:
                c.block(expr, f"`{code(expr)}`, a tensor, is formatted outside sess.run: TF1 wrote its graph "
                              "description (`Tensor(\"Const:0\", shape=(), dtype=float32)`), an eager tensor formats "
                              "as its value alone")
                break


def _texts(node: cst.CSTNode, skip) -> Iterator[cst.BaseExpression]:
    """The expressions ``node`` formats: arguments of ``"...".format`` and ``format``, f-string fields without a
    ``!s``/``!r`` conversion (outside the calls in ``skip``, the runs, and nested definitions)."""
    found = []

    class _Texts(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> bool:
            if id(call) in skip:
                return False
            func = call.func
            if isinstance(func, cst.Name) and func.value == "format" or (
                    isinstance(func, cst.Attribute) and func.attr.value == "format"
                    and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString))):
                found.extend(arg.value for arg in call.args if not arg.star)
            return True

        def visit_FormattedStringExpression(self, field: cst.FormattedStringExpression) -> None:
            if field.conversion is None:
                found.append(field.expression)

        def visit_FunctionDef(self, definition) -> bool:
            return False

        visit_Lambda = visit_ClassDef = visit_FunctionDef

    visit(node, _Texts())
    return iter(found)
