"""The output self-check: a fault the rewrite introduces sends eager output to compat mode, names the rule."""
from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest

from tests import fuzz_grammar as fg
from tf_migrate import engine, report, selfcheck
from tf_migrate.call_check import bad_calls
from tf_migrate.notebook import migrate_notebook

ROOT = Path(__file__).resolve().parent.parent

LEGACY = """\
import tensorflow as tf

x = tf.placeholder(tf.float32, [3])
w = tf.Variable([1.0, 2.0, 3.0])
y = x * w
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: [1.0, 2.0, 3.0]}))
print("done")
"""
DONE_LINE = 9


class _Transform(cst.CSTTransformer):
    def __init__(self, leave_call=None, leave_function=None) -> None:
        super().__init__()
        self._call, self._function = leave_call, leave_function

    def leave_Call(self, original, updated):
        return self._call(updated) if self._call else updated

    def leave_FunctionDef(self, original, updated):
        return self._function(updated) if self._function else updated


class _InjectedRule:
    """A rule with a bug, added to the engine's rules (not a Rule subclass: those register for every test)."""

    TRIGGERS = ()
    TREE_WORK = False

    def __init__(self, rule_id, order, modes, transform) -> None:
        self.RULE_ID, self.ORDER, self.MODES, self._transform = rule_id, order, modes, transform

    def apply(self, module, ctx):
        return module.visit(self._transform)


def _inject(monkeypatch, rule) -> None:
    real = engine.all_rules
    monkeypatch.setattr(engine, "all_rules", lambda: sorted([*real(), rule], key=lambda r: (r.ORDER, r.RULE_ID)))


def _printed_name(call):  # print("done") -> print(done_message): a name nothing binds
    if isinstance(call.func, cst.Name) and call.func.value == "print" and isinstance(call.args[0].value, cst.SimpleString):
        return call.with_changes(args=[cst.Arg(cst.Name("done_message"))])
    return call


def _self_check(result):
    return [f for f in result.findings if f.rule == selfcheck.RULE_ID]


def test_undefined_name_sends_eager_output_to_compat_and_names_the_rule(monkeypatch):
    # order 450: a local rule, so the session rule and later ones run after it; the replay must still
    # blame the first rule whose output has the fault, not the last one that ran
    _inject(monkeypatch, _InjectedRule("test-undefined-name", 450, (engine.EAGER,), _Transform(_printed_name)))
    result = engine.migrate_source(LEGACY, "prog.py")
    assert result.outcome == report.COMPAT
    assert "tensorflow.compat.v1" in result.new_source and "done_message" not in result.new_source
    assert result.compat_reason == "the eager rewrite failed the output self-check"
    [finding] = _self_check(result)
    assert finding.severity == report.ERROR and finding.line == DONE_LINE
    assert "undefined name 'done_message'" in finding.message
    assert "rule `test-undefined-name`" in finding.message and "kept in compat mode" in finding.message


def test_a_fault_in_forced_eager_mode_leaves_the_file_unchanged(monkeypatch):
    _inject(monkeypatch, _InjectedRule("test-undefined-name", 450, (engine.EAGER,), _Transform(_printed_name)))
    result = engine.migrate_source(LEGACY, "prog.py", mode=engine.EAGER)
    assert result.outcome == report.FAILED and result.new_source == LEGACY
    assert "rule `test-undefined-name`" in _self_check(result)[0].message


def test_a_fault_in_compat_output_leaves_the_file_unchanged(monkeypatch):
    _inject(monkeypatch, _InjectedRule("test-undefined-name", 450, (engine.COMPAT,), _Transform(_printed_name)))
    result = engine.migrate_source(LEGACY, "prog.py", mode=engine.COMPAT)
    assert result.outcome == report.FAILED and result.new_source == LEGACY
    [finding] = _self_check(result)
    assert finding.line == DONE_LINE and "rule `test-undefined-name`" in finding.message
    assert finding.message.endswith("file left unchanged")


def _renamed_feed(call):  # call_compiled(run_y, x=...) -> (run_y, x_value=...): run_y has no such parameter
    if isinstance(call.func, cst.Name) and call.func.value.startswith(("run_", "call_compiled")):
        return call.with_changes(args=[a.with_changes(keyword=cst.Name("x_value")) if a.keyword else a
                                       for a in call.args])
    return call


def test_generated_function_called_with_unknown_argument(monkeypatch):
    _inject(monkeypatch, _InjectedRule("test-call-arity", 990, (engine.EAGER,), _Transform(_renamed_feed)))
    result = engine.migrate_source(LEGACY, "prog.py")
    assert result.outcome == report.COMPAT
    messages = sorted(f.message for f in _self_check(result))
    assert len(messages) == 2 and all("rule `test-call-arity`" in m for m in messages)
    assert {f.line for f in _self_check(result)} == {8}  # the sess.run line the call replaced
    assert messages[0].startswith("run_y() got an unexpected keyword argument 'x_value'")
    assert messages[1].startswith("run_y() missing required argument 'x'")


def _cast_global(function):  # w = tf.cast(w, ...) in a generated function: w is local there, read unbound
    if not function.name.value.startswith("run_"):
        return function
    cast = cst.parse_statement("w = tf.cast(w, tf.float32)\n")
    return function.with_changes(body=function.body.with_changes(body=[cast, *function.body.body]))


def test_name_read_before_the_function_binds_it(monkeypatch):
    _inject(monkeypatch, _InjectedRule("test-read-before-bind", 990, (engine.EAGER,),
                                       _Transform(leave_function=_cast_global)))
    result = engine.migrate_source(LEGACY, "prog.py")
    assert result.outcome == report.COMPAT
    [finding] = _self_check(result)
    assert "local variable 'w'" in finding.message and "referenced before assignment" in finding.message
    assert "rule `test-read-before-bind`" in finding.message


@pytest.mark.parametrize("mode, outcome", [("auto", report.COMPAT), ("eager", report.FAILED)])
def test_the_fuzzer_counts_a_caught_fault_apart(monkeypatch, tmp_path, mode, outcome):
    _inject(monkeypatch, _InjectedRule("test-undefined-name", 450, (engine.EAGER,), _Transform(_printed_name)))
    verdict = fg.check(tmp_path, LEGACY, mode=mode)
    assert (verdict.category, verdict.outcome) == (fg.SELF_CHECK, outcome) and not verdict.bad
    assert "rule `test-undefined-name`" in verdict.detail


def test_a_fault_the_input_already_has_is_not_blamed_on_the_rewrite():
    legacy = LEGACY.replace("print(sess.run(y, {x: [1.0, 2.0, 3.0]}))",
                            "print(postprocess(sess.run(y, {x: [1.0, 2.0, 3.0]})))")
    result = engine.migrate_source(legacy, "prog.py")
    assert result.outcome == report.EAGER and "print(postprocess(" in result.new_source
    assert not _self_check(result)


def test_the_common_path_checks_the_output_only(monkeypatch):
    checked = []
    real = selfcheck.faults
    monkeypatch.setattr(selfcheck, "faults", lambda source: checked.append(source) or real(source))
    result = engine.migrate_source(LEGACY, "prog.py")
    assert result.outcome == report.EAGER and checked == [result.new_source]


SAMPLES = sorted((ROOT / "samples").glob("*.py")) + sorted((ROOT / "samples").glob("*.ipynb"))
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.py"))


@pytest.mark.parametrize("path", SAMPLES + GOLDEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_samples_and_golden_inputs_pass_the_check(path):
    text = path.read_text().partition("# output\n")[0]
    result = (migrate_notebook if path.suffix == ".ipynb" else engine.migrate_source)(text, path.name)
    assert not _self_check(result), [f.format() for f in _self_check(result)]


CALLS = [
    pytest.param("def f(a, b=1, *, c):\n    pass\nf(1, 2, c=3)\nf(a=1, c=2)\n", [], id="fine"),
    pytest.param("def f(a):\n    pass\nf(1, 2)\n", ["f: takes 1 positional arguments but 2 were given"],
                 id="too many positionals"),
    pytest.param("def f(a):\n    pass\nf(1, k=2)\n", ["f: got an unexpected keyword argument 'k'"],
                 id="unknown keyword"),
    pytest.param("def f(a, *, c):\n    pass\nf(*args)\n", ["f: missing required argument 'c'"],
                 id="*args hides positionals, not keyword-only ones"),
    pytest.param("def f(a, **kw):\n    pass\nf(1, k=2)\nf(**kw)\n", [], id="**kwargs take anything"),
    pytest.param("def f(a):\n    pass\nf(1, a=2)\n", ["f: got multiple values for argument 'a'"],
                 id="multiple values"),
    pytest.param("def f(a):\n    pass\nf = g\nf(1, 2)\n", [], id="rebound name is not resolved"),
    pytest.param("def f(a):\n    pass\ndef g(f):\n    f(1, 2)\n", [], id="parameter shadows the function"),
    pytest.param("def main():\n    def run(x):\n        pass\n    run(y=2)\n",
                 ["run: got an unexpected keyword argument 'y'", "run: missing required argument 'x'"],
                 id="nested function"),
    pytest.param("class A:\n    def go(self):\n        self.m(1, 2)\n    def m(self, x):\n        pass\n",
                 ["A.m: takes 1 positional arguments but 2 were given"], id="method through self"),
    pytest.param("class A:\n    def go(self):\n        self.m(1, 2)\n    def m(self, x):\n        pass\n"
                 "class B(A):\n    def m(self, x, y):\n        pass\n", [], id="method overridden in a subclass"),
    pytest.param("class A:\n    def f(a):\n        pass\n    def go(self):\n        f(1, 2)\n", [],
                 id="class body names are not visible in methods"),
    pytest.param("@functools.lru_cache\ndef f(a):\n    pass\nf(1, 2)\n", [], id="unknown decorator"),
]


@pytest.mark.parametrize("source, expected", CALLS)
def test_bad_calls(source, expected):
    assert [f"{c.function}: {c.problem}" for c in bad_calls(ast.parse(source))] == expected


def test_a_device_function_is_graph_only():
    # Probe 21: `with tf.device(tf.train.replica_device_setter(cluster=...))` kept in eager output raised
    # "tf.device does not support functions" (a graph-mode placement function).
    from tf_migrate.selfcheck import graph_only_call
    found = graph_only_call("with tf.device(tf.compat.v1.train.replica_device_setter(cluster=spec)):\n    pass\n",
                            ["tf"])
    assert found is not None and found.group(0) == "compat.v1.train.replica_device_setter"
