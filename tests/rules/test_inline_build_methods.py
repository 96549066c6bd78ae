"""inline-build-methods: a private method that __init__ calls once to build the graph runs where the call stands."""
from pathlib import Path

import libcst as cst
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules import EAGER, RuleContext
from tf_migrate.rules.inline_build_methods import InlineBuildMethods
from tf_migrate.tfnames import TFNames
from tests.twins import assert_same_output, run_legacy, run_migrated

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "class_build_methods_from_init.py"
AGENT = GOLDEN.read_text().partition("# output\n")[0]  # the golden case's input: two build methods


def test_build_methods_move_into_init_and_the_class_converts():
    result = migrate_source(AGENT, "agent.py")
    assert result.outcome == "eager", result.findings
    code = result.new_source
    assert "_build_net" not in code and "_build_loss" not in code
    assert "placeholder" not in code and "Session" not in code
    assert sum("its body moves into __init__" in f.message for f in result.findings) == 2
    assert_same_output(run_legacy(AGENT), run_migrated(code))


@pytest.mark.parametrize("change, method, why", [
    (("        self._build_net()\n", "        self._build_net()\n        self._build_net()\n"), "_build_net",
     "called twice"),
    (("def _build_net(self):", "def _build_net(self, scale=1.0):"), "_build_net", "a parameter"),
    (("_build_net", "build_net"), "build_net", "a public name"),
    (("class Agent(object):", "class Agent(Base):"), "_build_net", "a base class"),
    (("        w = tf.Variable", "        lr = 1\n        w = tf.Variable"), "_build_net", "a local __init__ has too"),
    (("        return tf.reduce_mean(squared)\n", "        if squared is None:\n            return None\n"
                                                 "        return tf.reduce_mean(squared)\n"), "_build_loss",
     "an early return"),
])
def test_methods_that_are_not_a_straight_inline_stay(change, method, why):
    source = AGENT.replace(*change)
    if "Base" in source:
        source = source.replace("class Agent(Base):", "class Base(object):\n    pass\n\n\nclass Agent(Base):")
    assert f"def {method}(self" in _rule_alone(source), why
    assert migrate_source(source, "agent.py").outcome == "compat", why


def test_the_rule_alone_moves_both_bodies():
    code = _rule_alone(AGENT)
    assert "def _build_net" not in code and "def _build_loss" not in code
    assert ("        self.q = tf.matmul(self.s, w)\n        squared = tf.square(self.target - self.q)\n"
            "        self.loss = tf.reduce_mean(squared)\n") in code


def _rule_alone(source: str) -> str:
    module = cst.parse_module(source)
    ctx = RuleContext(path="agent.py", names=TFNames.scan(module), mode=EAGER)
    return InlineBuildMethods().apply(module, ctx).code
