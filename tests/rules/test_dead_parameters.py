"""dead-parameters: a `reuse` parameter the rewrite left unused goes, with its argument at every call."""
import libcst as cst
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules import EAGER, RuleContext
from tf_migrate.rules.dead_parameters import DeadParameters
from tf_migrate.tfnames import TFNames

RULES = {"dead-parameters"}


@pytest.mark.parametrize("before, after", [
    pytest.param("import tensorflow as tf\ndef f(x, reuse=False):\n    with tf.name_scope('f'):\n"
                 "        print(reuse)\n        return x\n", None, id="noop still read"),
    pytest.param("import tensorflow as tf\ndef f(x, reuse=False):\n    return x\ny = f(1, reuse=True)\n", None,
                 id="noop unused in the input too"),
])
def test_noop(before, after):
    assert migrate_source(before, "case.py", select=RULES).new_source == (after or before)


def _drop(before: str) -> str:
    """The rule alone, on a module whose input read `reuse` (as a variable scope would)."""
    read = cst.parse_module("def f(x, reuse=False, *, training=False):\n    return reuse\n"
                            "def g(a, reuse=None):\n    return reuse\n")
    module = cst.parse_module(before)
    ctx = RuleContext(path="case.py", names=TFNames.scan(module), mode=EAGER, original_module=read)
    return DeadParameters().apply(module, ctx).code


@pytest.mark.parametrize("before, after", [
    pytest.param("def f(x, reuse=False, *, training=False):\n    return x\ny = f(1) + f(2, True) + f(3, reuse=True, training=1)\n",
                 "def f(x, *, training=False):\n    return x\ny = f(1) + f(2) + f(3, training=1)\n",
                 id="positional and keyword arguments"),
    pytest.param("def g(a, reuse=None):\n    return a\nh = g\n", "def g(a, reuse=None):\n    return a\nh = g\n",
                 id="function passed as a value keeps it"),
    pytest.param("def g(a, reuse=None):\n    return a\nb = g(1, reuse=flag())\n",
                 "def g(a, reuse=None):\n    return a\nb = g(1, reuse=flag())\n", id="argument with an effect keeps it"),
    pytest.param("def g(a, reuse=None):\n    return a\nb = g(*args)\n", "def g(a, reuse=None):\n    return a\nb = g(*args)\n",
                 id="starred call keeps it"),
])
def test_drop(before, after):
    assert _drop(before) == after
