"""Where an rnn built in a class's ``__init__`` may stay a tuple (rnn-to-keras).

A converted LSTM's state is the plain tuple ``(c, h)``; TF1's was an ``LSTMStateTuple``. Inside ``__init__`` the
rule rewrites ``state.c`` / ``.h`` to indices, but a state kept on the object (``self.final_state = state``) or
returned reaches code the rule does not rewrite, which reads ``.c`` or prints the tuple: such a class stays compat.
The layers are built in ``__init__`` itself, where its parameters are bound (``init_widths``).
"""
from __future__ import annotations

from typing import List, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import writes
from tf_migrate.rules._rnn_statements import Widths, call_arguments
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit


def init_widths(init: cst.FunctionDef, call: Optional[cst.Call], module_widths: Widths, names: TFNames) -> Widths:
    """The widths known in ``__init__``: the module's numbers; its parameters, Python numbers wherever a shape
    uses them; and where ``call`` is the one construction of the class, the literal numbers it (or a default)
    gives them (``Model(n_layers=2)``: ``range(n_layers)`` stacks two cells)."""
    widths = Widths(names)
    widths.constants, widths.python = dict(module_widths.constants), set(module_widths.python)
    params = init.params.params[1:]  # (after self)
    widths.python |= {param.name.value for param in params}
    if call is not None:
        given = call_arguments(init.with_changes(params=init.params.with_changes(params=params)), call)
        for param in params:
            value = given.get(param.name.value, param.default)
            number = module_widths.int_value(value) if value is not None else None
            if number is not None:
                widths.constants[param.name.value] = number
    return widths


def lstm_state_escape(body: List[cst.BaseStatement], lstm_states: Set[str]) -> Optional[cst.CSTNode]:
    """The first statement of ``body`` that stores an LSTM state structure (a name in ``lstm_states``, a copy, an
    element of it, or a tuple holding one) on an object or returns it; None where none does. A field of it
    (``state.h``) or a tensor computed from it is a tensor, which may go anywhere."""
    reached = set(lstm_states)
    escapes: List[cst.CSTNode] = []

    def carries(value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.Name):
            return value.value in reached
        if isinstance(value, cst.Subscript):
            return carries(value.value)
        if isinstance(value, (cst.Tuple, cst.List)):
            return any(carries(element.value) for element in value.elements)
        return False

    class _Flows(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if carries(node.value):
                if any(not isinstance(target.target, (cst.Name, cst.Tuple)) for target in node.targets):
                    escapes.append(node)
                reached.update(writes(node))

        def visit_Return(self, node: cst.Return) -> None:
            if node.value is not None and carries(node.value):
                escapes.append(node)

    visit(cst.Module(body=body), _Flows())
    return escapes[0] if escapes else None
