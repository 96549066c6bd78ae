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
from tf_migrate.rules._layer_variable_markers import marker, tf1_layer_names


def layer_saver_variables(module: cst.Module, ctx: RuleContext, saver: cst.Call
                          ) -> Tuple[Optional[List[Variable]], Dict[str, Variable], Dict[int, str]]:
    """(the layer variables made before ``saver``, {a marker's code: its variable}, the names TF1 gave the layers
    of the calls that give none: :func:`tf1_layer_names`, which the rule writes in so that layers-to-keras knows
    each layer by its TF1 name); (None, {}, {}) where the program makes variables otherwise, or the text does not
    give every name."""
    hidden = [c for c in all_calls(module) if (ctx.names.call_name(c) or "").startswith(HIDDEN_VARIABLES)]
    if not hidden or any(not ctx.names.call_name(c).startswith("tf.layers.") for c in hidden):
        return None, {}, {}
    made = layer_variables(module, ctx.names, first_calls(module))
    at = next((i for i, s in enumerate(module.body) if any(c is saver for c in all_calls(s))), None)
    if made is None or at is None:
        return None, {}, {}
    variables, by_marker = [], {}
    order = {id(call): i for i, call in enumerate(all_calls(module.body[at]))}  # source order in the saver's
    for variable in made:  # statement (a `with g.as_default():` block that builds the layers and then the Saver)
        if variable.made_at == at and id(variable.call) not in order:
            return None, {}, {}  # made by a function the statement calls: before or after the Saver, not known here
        if variable.made_at > at or variable.made_at == at and order[id(variable.call)] > order[id(saver)]:
            continue
        written = code(marker(variable.layer, variable.attribute))
        entry = Variable(f"{written}.value", f"{variable.layer}/{variable.attribute}", variable.trainable)
        variables.append(entry)
        by_marker[written] = entry
    if not variables:
        return None, {}, {}  # a Saver made before every variable: TF1 refused it too ("No variables to save")
    return variables, by_marker, tf1_layer_names(made)

