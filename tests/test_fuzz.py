"""Property tests: generated TF1 programs and mutated samples keep every invariant.

The grammar, the mutations and the invariants are in ``tests/fuzz_grammar.py``
(see its docstring), the runnable programs in the shapes of real code in
``tests/fuzz_shapes.py``. Here Hypothesis draws a few dozen of them, derandomized
so CI sees the same programs every time; ``benchmarks/fuzz_run.py N`` runs
as many as asked and writes ``benchmarks/results_fuzz.md``.
"""
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import fuzz_grammar as fg
from tests import fuzz_shapes as fs
from tf_migrate import InputError, migrate_source

def ci(max_examples):
    """Same programs every run (CI), no example database, no deadline: a migration takes ~0.3 s."""
    return settings(max_examples=max_examples, derandomize=True, database=None, deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def assert_invariants(source, kind="py", mode="auto"):
    with tempfile.TemporaryDirectory() as folder:
        verdict = fg.check(Path(folder), source, kind, mode)
    assert not verdict.bad or verdict.known_issue, f"{verdict.category}: {verdict.detail}\n--- input ---\n{source}"
    return verdict


@ci(30)
@given(rng=st.randoms(use_true_random=False), mode=st.sampled_from(["auto", "auto", "eager", "compat"]))
def test_generated_programs(rng, mode):
    assert_invariants(fg.program(rng), "py", mode)


@ci(20)
@given(rng=st.randoms(use_true_random=False), sample=st.sampled_from(fg.SAMPLES))
def test_mutated_samples(rng, sample):
    assert_invariants(fg.mutate(fg.sample_source(sample), rng), "py", "auto")


@ci(6)
@given(rng=st.randoms(use_true_random=False))
def test_generated_notebooks(rng):
    source = fg.program(rng)
    assert_invariants(fg.as_notebook(source, rng), "ipynb", "auto")


_NOISE = list("tf.()[]{}:=,\n #'\"\\x0123") + ["import tensorflow as tf\n", "sess.run(", "with ", "    ",
                                                 "tf.placeholder(", "tf.Session()", "lambda", "\t", "\r\n"]


@ci(5)
@given(rng=st.randoms(use_true_random=False))
def test_plain_runnable_programs_go_eager_with_the_same_numbers(rng):
    """Programs TF1 runs, without the shapes of real code: every value is knowable, so eager, printing the same."""
    program = fs.shaped_program(rng, shapes=())
    assert program.expected_mode == "eager" and not program.features, program.features
    verdict = fg.check_semantics(program)
    assert verdict.category == fg.OK, f"{verdict.category}: {verdict.detail}\n--- input ---\n{program.source}"


# Each shape of real code (tests/fuzz_shapes.py), mixed with the plain statements: the mode the program calls
# for and the same numbers. Where today's rewriter fails one, a strict xfail names the minimal reproducers
# (tests/test_fuzz_reproducers.py) of what goes wrong in those programs, so a fix shows up as XPASS.
_SHAPE_BUGS = {
    ("fed-tensor",): "R1: fed-tensor-that-is-not-a-placeholder, fed-through-a-second-name, "
                     "fed-scalar-fetched-back-is-a-0d-array",
    ("fed-tensor", "int-feed"): "R1: int-list-fed-to-a-float-tensor, int-list-fed-to-placeholder-with-default",
    ("injected-callable",): "R3: injected-activation, injected-optimizer-class (eager where compat is expected)",
    ("class-graph",): "objects of a class built on a graph value passed to its constructor, runs mixing an "
                      "object's own op (its train step) with other values, and two objects whose placeholders share "
                      "a name in one run stay compat; other mixes convert since analysis/object_members",
}
SHAPES = [(feature,) for feature in fs.FEATURES] + [("graph-after-session",), ("rebind", "graph-after-session"),
                                                   ("unpack", "trainable-variables")] + [
    shapes for shapes in _SHAPE_BUGS if len(shapes) > 1] + [("var-helper", "trainable-variables", "in-main")]


@pytest.mark.parametrize("shapes", [
    pytest.param(shapes, id="+".join(shapes),
                 marks=[pytest.mark.xfail(strict=True, reason=_SHAPE_BUGS[shapes])] if shapes in _SHAPE_BUGS else [])
    for shapes in SHAPES])
def test_shapes_of_real_code_migrate_in_the_expected_mode_with_the_same_numbers(shapes):
    failures = []
    for seed in range(4):
        program = fs.shaped_program(random.Random(seed), shapes=shapes, force=shapes)
        assert set(shapes) <= program.features, program.features
        verdict = fg.check_semantics(program)
        if verdict.category != fg.OK:
            failures.append(f"seed {seed}: {verdict.category}: {verdict.detail}\n{program.source}")
    assert not failures, "\n".join(failures)


@ci(100)
@given(text=st.lists(st.sampled_from(_NOISE), max_size=40).map("".join))
def test_noise_raises_only_input_error(text):
    """Near-Python noise: the API returns or raises InputError, nothing else, and what it returns parses."""
    try:
        result = migrate_source(text, "noise.py")
    except InputError:
        return
    assert result.new_source == text or fg._parse_problem(result.new_source, "py") == ""


def test_the_checker_catches_each_violation(tmp_path, monkeypatch):
    """The invariants are real: a broken engine trips each of them."""
    from tf_migrate import engine
    from tf_migrate.engine import MigrationResult

    real = engine.migrate_source
    legacy = next(source for source in (fg.program(random.Random(seed)) for seed in range(100))
                  if real(source).outcome == "eager")

    def returning(new):
        def fake(source, path="<string>", **options):
            result = real(source, path, **options)
            return MigrationResult(path, source, new(source, result), "eager", result.findings)
        return fake

    cases = {
        fg.UNPARSEABLE: lambda source, result: result.new_source + "\ndef broken(:\n",
        fg.NOT_IDEMPOTENT: lambda source, result: result.new_source + "\n# again",
        fg.EAGER_LEFTOVER: lambda source, result: result.new_source + "\ns = tf.compat.v1.Session()\n",
    }
    for category, new in cases.items():
        monkeypatch.setattr(engine, "migrate_source", returning(new))
        verdict = fg.check(tmp_path, legacy)
        assert verdict.category == category, (category, verdict)

    def crash(source, path="<string>", **options):
        raise KeyError("boom")

    monkeypatch.setattr(engine, "migrate_source", crash)
    assert fg.check(tmp_path, legacy).category == fg.CRASH


def test_compat_v1_in_eager_output_needs_a_finding_that_names_it():
    from tf_migrate.report import Finding

    code = "import tensorflow as tf\nFLAGS = tf.compat.v1.flags.FLAGS\nopt = tf.compat.v1.train.RMSPropOptimizer(0.1)\n"

    def said(*messages):
        return [Finding("p.py", 1, 0, "rule", "warning", m) for m in messages]

    assert fg._eager_leftover(code, "py", said())[0] == "compat.v1.flags.FLAGS kept without a finding saying so"
    owned = said("kept tf.compat.v1.flags: flags are never parsed", "tf.compat.v1.train.RMSPropOptimizer (runs eagerly)")
    assert fg._eager_leftover(code, "py", owned) == ("", ["compat.v1.flags.FLAGS", "compat.v1.train.RMSPropOptimizer"])
    sibling = said("tf.compat.v1.flags", "tf.compat.v1.train.Saver")  # another name in the same module owns nothing
    assert fg._eager_leftover(code, "py", sibling)[0].startswith("compat.v1.train.RMSPropOptimizer kept")


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_cases_are_reproducible(seed):
    assert fg.case(seed) == fg.case(seed)
    compile(fg.program(random.Random(seed)), "<generated>", "exec")  # the grammar makes valid Python


# Known issues: the open reproducers are strict xfails in tests/test_fuzz_reproducers.py, so a fix shows up.

# Bugs the fuzzer found, fixed since: their minimal reproducers, kept as regression tests.

def test_summaries_second_run_keeps_the_writes(tmp_path):
    source = (fg.ROOT / "samples" / "28_summary_file_writer.py").read_text()
    verdict = fg.check(tmp_path, source)
    assert verdict.category == fg.OK, verdict.detail


def test_summaries_merge_all_of_nothing_fetched_stays_compat(tmp_path):
    """merge_all() with no summary before it is None in TF1, which sess.run rejects: TF1 semantics kept, with a
    warning. It once crashed the summaries rule (KeyError)."""
    source = ("import tensorflow as tf\nmerged = tf.summary.merge_all()\nwith tf.Session() as sess:\n"
              "    writer = tf.summary.FileWriter('/tmp/logs', sess.graph)\n    summary = sess.run(merged)\n"
              "    writer.add_summary(summary, 0)\n")
    verdict = fg.check(tmp_path, source)
    assert verdict.category == fg.OK, verdict.detail
    result = migrate_source(source, "merge.py")
    assert result.outcome == "compat"
    assert any(f.rule == "summaries" and "merge_all()" in f.message for f in result.findings), result.findings


def test_summaries_merge_all_of_nothing_never_fetched_is_none():
    source = ("import tensorflow as tf\nmerged = tf.summary.merge_all()\nx = tf.placeholder(tf.float32, [None])\n"
              "y = tf.reduce_sum(x * 2.0)\nwith tf.Session() as sess:\n    print(sess.run(y, {x: [1.0]}), merged)\n")
    result = migrate_source(source, "merge.py")
    assert result.outcome == "eager", result.findings
    assert "merged = None\n" in result.new_source, result.new_source


def test_flag_definition_without_app_run_is_kept():
    """It was dropped as an op no sess.run runs: tf.flags.DEFINE_* is absl's, now written so (numbers: the twin in
    tests/rules/test_absl_wrappers.py)."""
    source = ("import tensorflow as tf\ntf.flags.DEFINE_integer('steps', 3, 'training steps')\n"
              "FLAGS = tf.flags.FLAGS\nx = tf.placeholder(tf.float32, [None])\ny = tf.reduce_sum(x * 2.0)\n"
              "with tf.Session() as sess:\n    print(sess.run(y, {x: [1.0] * FLAGS.steps}))\n")
    result = migrate_source(source, "flags.py")
    assert "DEFINE_integer" in result.new_source, result.new_source


def test_saver_in_eager_output_is_owned_up_to(tmp_path):
    source = ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\ny = tf.reduce_sum(x * 2.0)\n"
              "saver = tf.train.Saver()\nwith tf.Session() as sess:\n    print(sess.run(y, {x: [1.0]}))\n")
    verdict = fg.check(tmp_path, source)
    assert verdict.category == fg.OK, verdict


@pytest.mark.parametrize("source, line", [
    ("import tensorflow as tf\ntry:\n    pass\nexcept ValueError, e:\n    pass\n", 4),
    ("import tensorflow as tf\nx = tf.constant(1.0)\nreturn x\n", 3),
    ("import tensorflow as tf\nfor i in range(2):\n    pass\nbreak\n", 4),
], ids=["py2-except", "return-outside-function", "break-outside-loop"])
def test_input_python_rejects_is_an_input_error_at_its_line(source, line):
    """LibCST parses these; Python does not. They once failed as 'internal error' at line 1."""
    with pytest.raises(InputError) as caught:
        migrate_source(source, "bad.py")
    assert caught.value.line == line


# Wrong rewrites found by running generated programs both ways (legacy under TF1 graph semantics, the
# migration eagerly): the migration raised or printed other numbers. Fixed since, each in the mode it calls
# for: eager, or compat where the feed's keys come out of a comprehension (only known when it runs) or a
# second session resets trained variables (scope_passes.check_reinitialization); compat output runs as TF1.
_HEAD = "import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\ny = tf.reduce_sum(x * 2.0)\n"
WRONG_REWRITES = [
    pytest.param(_HEAD + "with tf.Session() as sess:\n    print(sess.run(y, {p: v for p, v in zip([x], [[1.0, 2.0]])}))\n",
                 "compat", id="comprehension-feed-keys-name-removed-placeholders"),
    pytest.param(_HEAD + "with tf.Session() as sess:\n    print(sess.run(tf.constant(3.0) * 2.0, feed_dict=None))\n",
                 "eager", id="feed-dict-None-becomes-star-star-None"),
    pytest.param(_HEAD + "def evaluate(session, values):\n    return session.run(y, feed_dict={x: values})\n\n\n"
                 "with tf.Session() as sess:\n    print(evaluate(sess, [1.0, 2.0]))\n",
                 "eager", id="session-passed-to-a-function-is-removed-but-still-passed"),
    pytest.param("import tensorflow as tf\nw = tf.Variable(1.0)\ninc = tf.assign_add(w, 1.0)\n"
                 "with tf.Session() as s1:\n    s1.run(tf.global_variables_initializer())\n    s1.run(inc)\n"
                 "    print(s1.run(w))\nwith tf.Session() as s2:\n    s2.run(tf.global_variables_initializer())\n"
                 "    print(s2.run(w))\n", "compat", id="second-session-initializer-no-longer-resets-variables"),
    pytest.param("import tensorflow as tf\nw = tf.Variable([1.0, 2.0])\ny = w * 3.0\n"
                 "train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(y))\n"
                 "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                 "    sess.run(train)\n    print(sess.run(w))\n", "eager", id="minimize-inline-loss-outside-the-tape"),
]


@pytest.mark.parametrize("source, mode", WRONG_REWRITES)
def test_once_wrong_rewrites(source, mode):
    from tests.twins import assert_same_output, run_compat, run_legacy, run_migrated

    result = migrate_source(source, "wrong.py")
    assert result.outcome == mode, [f.format() for f in result.findings]
    assert_same_output(run_legacy(source), (run_migrated if mode == "eager" else run_compat)(result.new_source))


def test_summaries_the_rule_cannot_convert_keep_the_file_compat(tmp_path):
    # Fuzz seed 7762 (10,000-program run): a summary fetched with no FileWriter went eager with TF1's
    # tf.summary.scalar left in (TF2's returns a bool), and the second run then converted it.
    source = ('import numpy as np\n'
              'import tensorflow.compat.v1 as tf\n'
              'tf.disable_v2_behavior()\n'
              '\n'
              'data = np.ones((4, 3), np.float32)\n'
              'batch = np.arange(12.0).reshape(4, 3)\n'
              "feat = tf.summary.scalar('feat', tf.reduce_mean(tf.constant(1.0)))\n"
              't = tf.reduce_sum(feat, axis=-1) * 0.5 * feat * 3 * 0.5\n'
              'feat2 = tf.cond(t > 0, lambda: t * 2.0, lambda: t)\n'
              'z = tf.reduce_mean(feat - tf.reduce_max(t))\n'
              'sess = tf.InteractiveSession()\n'
              'tf.global_variables_initializer().run()\n'
              'result = sess.run([z])\n'
              'print(feat.eval())\n'
              'print(sess.run(feat, feed_dict={feat: np.arange(6.0).reshape(2, 3)}))\n'
              'result2 = sess.run(feat)\n'
              "print('done')\n")
    result = migrate_source(source, "summary_fetched.py")
    assert result.outcome != "eager" and any(f.rule == "eager-blocker" for f in result.findings), result.findings
    verdict = fg.check(tmp_path, source)
    assert verdict.category == fg.OK, verdict.detail


def test_tf_used_without_its_import_never_goes_eager_with_placeholders(tmp_path):
    # Fuzz seeds 4012/4227/9371: a mutation dropped `import tensorflow as tf` but kept a from-import;
    # the unresolved tf.placeholder stayed in "eager" output. The value model now does not know what `x`
    # is (tf is unresolved), so the run is blocked before the engine's safety net (tf.<graph-only>) is needed.
    source = ("from tensorflow.python.ops.parallel_for.gradients import jacobian\n"
              "x = tf.placeholder(tf.float32, [3])\ny = tf.tanh(x)\nj = jacobian(y, x)\n"
              "with tf.Session() as sess:\n    print(sess.run(j, {x: [1.0, 2.0, 3.0]}))\n")
    result = migrate_source(source, "no_tf_import.py")
    assert result.outcome == "compat" and "`x` is not a placeholder" in result.compat_reason, result
    verdict = fg.check(tmp_path, source, mode="eager")
    assert verdict.category in (fg.OK, fg.REFUSED), verdict.detail


def test_graph_only_names_in_comments_and_strings_do_not_block():
    source = ('"""Uses tf.Session() and tf.placeholder, as TF1 tutorials did."""\nimport tensorflow as tf\n'
              "x = tf.placeholder(tf.float32, [None])  # was fed through tf.Session()\ny = tf.reduce_sum(x)\n"
              "with tf.Session() as sess:\n    print('tf.InteractiveSession', sess.run(y, {x: [1.0]}))\n")
    result = migrate_source(source, "comments.py")
    assert result.outcome == "eager", result.findings



def test_summary_under_graph_as_default_is_a_tf1_summary(tmp_path):
    # Fuzz seed 5215 (second 10,000 run): the summaries rule took `with graph.as_default():` for a TF2
    # writer's as_default(), ignored the summary, and the second run then kept the file compat.
    source = ('import numpy as np\n'
              'import tensorflow.compat.v1 as tf\n'
              'tf.disable_v2_behavior()\n'
              '\n'
              'data = np.ones((4, 3), np.float32)\n'
              'batch = np.arange(12.0).reshape(4, 3)\n'
              'graph = tf.Graph()\n'
              'with graph.as_default():\n'
              '    x = tf.placeholder(tf.float32, None)\n'
              "    h = tf.summary.scalar('h', tf.reduce_mean(x))\n"
              '    feat = tf.reduce_sum(x, axis=1) * 0.5\n'
              '\n'
              '    out = tf.reduce_max(tf.exp(h))\n'
              'with tf.Session(graph=graph) as sess:\n'
              '    pass\n'
              '    total = 0.0\n'
              '    total += float(np.sum(sess.run(out, feed_dict={x: [[1.0, 2.0, 3.0]]})))\n')
    verdict = fg.check(tmp_path, source)
    assert verdict.category == fg.OK, verdict.detail


def test_a_placeholder_fed_twice_in_one_dict_keeps_the_last_value(tmp_path):
    # Fuzz seed 7468: {x: a, x: b} generated run_y(x, x), which does not parse (the engine kept the input).
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\n"
              "y = tf.reduce_sum(x)\nwith tf.Session() as sess:\n"
              "    print(sess.run(y, {x: np.ones(2), x: np.zeros(3)}))\n")
    result = migrate_source(source, "twice.py")
    assert result.outcome == "eager" and "run_y(x=np.zeros(3))" in result.new_source, result.new_source
    assert fg.check(tmp_path, source).category == fg.OK


def test_import_added_for_generated_code_comes_before_it(tmp_path):
    # Fuzz seed 10882 (at 68d398e): a notebook whose first cell runs what a later cell imports. The run
    # function lands above `import numpy as np`, and eager-imports put `import tensorflow as tf` after that
    # last import, below `@tf.function`: the self-check kept the file compat; a second run, finding the
    # compat switch's import next to the from-import, went eager and emptied cell 1.
    import nbformat

    cells = ["# numeric\ng = gradients(y, x)",
             "from tensorflow import placeholder, gradients, Session, float32, reduce_sum\n\n"
             "x = placeholder(float32, [2])\ny = reduce_sum(x ** 3)\nimport numpy as np",
             "with Session() as sess:\n    print(sess.run(g, {x: np.array([1.0, 2.0])}))"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(body, id=f"code{index}")
                                               for index, body in enumerate(cells)])
    verdict = fg.check(tmp_path, nbformat.writes(notebook) + "\n", kind="ipynb")
    assert (verdict.category, verdict.outcome) == (fg.OK, "eager"), verdict.detail
    result = migrate_source("\n".join(cells) + "\n", "order.py")
    assert result.outcome == "eager", result.findings
    lines = result.new_source.splitlines()
    decorator = "@tf.function(input_signature=[tf.TensorSpec([2], float32)])"
    assert lines.index("import tensorflow as tf") < lines.index(decorator), result.new_source


def test_tf_read_without_an_import_is_tensorflow_to_the_safety_net(tmp_path):
    # Fuzz seeds 7818 and 8024 (at f33f6ac): a program that reads `tf` without importing it, beside a
    # `from tensorflow.python.framework import ops`. Its compat output imports `tensorflow.compat.v1 as tf_v1`
    # (binding `tf` would change what the program reads); a second run then looked for graph-only calls
    # under `tf_v1.` only, missed `tf.Session`, and went eager.
    source = ("import numpy as np\nfrom tensorflow.python.framework import ops\nops.reset_default_graph()\n\n"
              "sess = tf.Session()\nx = tf.placeholder(shape=[None, 1], dtype=tf.float32)\n"
              "print(sess.run(x * 2.0, feed_dict={x: np.ones((2, 1))}))\n")
    verdict = fg.check(tmp_path, source)
    assert (verdict.category, verdict.outcome) == (fg.OK, "compat"), verdict.detail
