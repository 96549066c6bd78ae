"""The calls that answer runs of a class's graph across modules (``analysis/imported_runs``).

The provider plans an asked run on the object :data:`~tf_migrate.tfnames.ANSWER_OBJECT` with the fed values named
:func:`~tf_migrate.tfnames.feed_value`, and answers with the call it would write there, its own helpers named by
markers (:func:`answer_template`):

    __to_numpy__(__object__.run_loss_train_op(x=__feed_0__, y=__feed_1__))

The importer writes it at the run with its object, its values and its own helpers (:func:`filled_answer`).
"""
from __future__ import annotations

from typing import Dict, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.codegen.replace import NameSubstitution
from tf_migrate.cst.names import all_names
from tf_migrate.cst.text import code
from tf_migrate.tfnames import (ANSWER_CALL_COMPILED, ANSWER_FEED, ANSWER_OBJECT, ANSWER_TF, ANSWER_TO_NUMPY,
                                feed_value)
from tf_migrate.traversal import visit



def answer_template(call: cst.BaseExpression, to_numpy: str, call_compiled: str, tf: str) -> str:
    """The provider's call for an asked run, its helper names ``to_numpy`` and ``call_compiled`` and its name of
    TF, ``tf`` (a feed converted at the call), as markers."""
    return code(visit(call, NameSubstitution({to_numpy: cst.Name(ANSWER_TO_NUMPY),
                                              call_compiled: cst.Name(ANSWER_CALL_COMPILED), tf: cst.Name(ANSWER_TF)})))


def filled_answer(template: str, instance: str, feed: Optional[cst.BaseExpression], values: Sequence[cst.BaseExpression],
                  to_numpy: str, call_compiled: str, tf: str) -> Tuple[cst.BaseExpression, Set[str]]:
    """The answer as the importer writes it at the run (``feed``: its feed dict, ``values``: the values of a
    literal one, ``tf``: its name of TF), and the helper markers it uses."""
    expression = cst.parse_expression(template)
    used = all_names(expression) & {ANSWER_TO_NUMPY, ANSWER_CALL_COMPILED}
    mapping: Dict[str, cst.BaseExpression] = {ANSWER_OBJECT: cst.parse_expression(instance), ANSWER_TO_NUMPY: cst.Name(to_numpy),
                                              ANSWER_CALL_COMPILED: cst.Name(call_compiled), ANSWER_TF: cst.Name(tf)}
    if feed is not None:
        mapping[ANSWER_FEED] = feed
    mapping.update((feed_value(index), value) for index, value in enumerate(values))
    return visit(expression, NameSubstitution(mapping)), used
