"""One rule applied alone to a parsed module, in eager mode, as the engine would apply it: the rule tests' view of
what a rule writes before any other rule runs."""
from __future__ import annotations

import libcst as cst

from tf_migrate.rules import EAGER, Rule, RuleContext
from tf_migrate.tfnames import TFNames


def apply_alone(rule: Rule, source: str, path: str = "case.py", **names_fields) -> str:
    """The code ``rule`` makes of ``source`` (a file at ``path``); ``names_fields`` set what the engine would have
    told the rule about the module (``single_instances={"DQN"}``)."""
    module = cst.parse_module(source)
    names = TFNames.scan(module)
    for field_name, value in names_fields.items():
        setattr(names, field_name, value)
    return rule.apply(module, RuleContext(path=path, names=names, mode=EAGER)).code
