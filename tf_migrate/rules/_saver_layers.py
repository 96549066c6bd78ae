"""The variables of a program's ``tf.layers`` calls, for a Saver: keyed by the names TF1 gave them.

``analysis/layer_names`` works the names out (``generator/dense_1/kernel``); each variable is written as the
marker layers-to-keras resolves to its Keras layer's attribute (``rules/_layer_variable_markers``), with
``.value``: the ``tf.Variable`` a Keras 3 variable holds, which a ``tf.compat.v1.train.Saver`` keys by the name it
is given (the Keras variable itself would be saved under ``kernelVARIABLE_VALUE``). Only for programs whose
every variable is a ``tf.layers`` call's.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis.layer_names import layer_variables
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.analysis.variable_names import HIDDEN_VARIABLES, Variable
from tf_migrate.cst.text import code
from tf_migrate.rules import RuleContext
from tf_migrate.rules._hoisting import first_calls
from tf_migrate.rules._layer_variable_markers import marker


def layer_saver_variables(module: cst.Module, ctx: RuleContext, saver: cst.Call
                          ) -> Tuple[Optional[List[Variable]], Dict[str, Variable]]:
    """(the layer variables made before the statement that builds ``saver``, {a marker's code: its variable});
    (None, {}) where the program makes variables otherwise, or the text does not give every name."""
    hidden = [c for c in all_calls(module) if (ctx.names.call_name(c) or "").startswith(HIDDEN_VARIABLES)]
    if not hidden or any(not ctx.names.call_name(c).startswith("tf.layers.") for c in hidden):
        return None, {}
    made = layer_variables(module, ctx.names, first_calls(module))
    at = next((i for i, s in enumerate(module.body) if any(c is saver for c in all_calls(s))), None)
    if made is None or at is None:
        return None, {}
    variables, by_marker = [], {}
    for variable in made:
        if variable.made_at >= at:
            continue
        written = code(marker(variable.layer, variable.attribute))
        entry = Variable(f"{written}.value", f"{variable.layer}/{variable.attribute}", variable.trainable)
        variables.append(entry)
        by_marker[written] = entry
    return variables, by_marker

