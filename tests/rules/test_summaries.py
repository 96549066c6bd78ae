"""Summaries: the migrated program writes the events the legacy one wrote (read back like TensorBoard)."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated, summary_events

PROGRAM = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
w = tf.Variable(0.5, name="w")
loss = tf.reduce_mean(tf.square(w * x - 2.0 * x))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
with tf.name_scope("train"):
    tf.summary.scalar("loss", loss)
tf.summary.histogram("inputs", x)
merged = tf.summary.merge_all()
data = np.arange(1.0, 5.0)
with tf.Session() as sess:
    writer = tf.summary.FileWriter(LOGDIR, sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        summary, l, _ = sess.run([merged, loss, train_op], feed_dict={x: data})
        writer.add_summary(summary, step)
        print(step, l)
    writer.close()
'''


def test_rewrite_writes_with_tf2_summary_api():
    result = migrate_source(PROGRAM, "summaries.py")
    assert result.outcome == "eager", result.findings
    code = result.new_source
    assert "tf.summary.create_file_writer(LOGDIR)" in code and "FileWriter" not in code
    assert "    write_summary(writer, tf.cast(step, tf.int64), summary)\n" in code
    writer_function = code[code.index("@tf.function(reduce_retracing=True)\ndef write_summary(writer, step, summary):"):]
    assert "    with writer.as_default(step=step):\n" in writer_function
    assert "tf.summary.scalar('train/loss', summary['train/loss'])" in writer_function
    assert ("tf.summary.experimental.write_raw_pb(tf.raw_ops.HistogramSummary(tag='inputs', "
            "values=summary['inputs']), step=step)") in writer_function  # TF1's own histogram kernel


def test_eager_functions_write_in_place():
    """``--functions eager``: the writes stay where add_summary was, in a ``with writer.as_default`` block."""
    code = migrate_source(PROGRAM, "summaries.py", functions="eager").new_source
    assert "    with writer.as_default(step=step):\n" in code and "write_summary" not in code
    assert "        tf.summary.histogram('inputs', summary['inputs'])\n" in code


def test_one_writer_function_per_set_of_writes():
    """Two add_summary calls of the same merged summary share one compiled writer; the step never retraces it."""
    source = PROGRAM.replace("        writer.add_summary(summary, step)\n",
                             "        writer.add_summary(summary, step)\n        writer.add_summary(summary, step + 10)\n")
    code = migrate_source(source, "summaries.py").new_source
    assert code.count("def write_summary") == 1 and "write_summary_2" not in code
    assert "write_summary(writer, tf.cast(step + 10, tf.int64), summary)" in code


def _writes_the_legacysummary_events(program, migrated, tmp_path):
    """Run both (LOGDIR each its own folder): the same tags, steps, kinds and scalar values."""
    legacy_dir, migrated_dir = tmp_path / "legacy", tmp_path / "migrated"
    legacy_dir.mkdir()
    migrated_dir.mkdir()
    run_legacy(program.replace("LOGDIR", repr(str(legacy_dir))))
    run_migrated(migrated.replace("LOGDIR", repr(str(migrated_dir))))
    before, after = summary_events(legacy_dir), summary_events(migrated_dir)
    assert set(before) == set(after) == {(tag, step) for tag in ("train/loss", "inputs") for step in range(3)}
    for key, (kind, number) in before.items():
        assert after[key][0] == kind
        if number is not None:
            assert after[key][1] == pytest.approx(number, rel=1e-5)


def test_events_match_the_legacy_program(tmp_path):
    _writes_the_legacysummary_events(PROGRAM, migrate_source(PROGRAM, "summaries.py").new_source, tmp_path)


def test_untraceable_add_summary_stays_compat():
    source = PROGRAM.replace("writer.add_summary(summary, step)", "writer.add_summary(sess.run(merged, {x: data}), step)")
    result = migrate_source(source, "summaries.py")
    assert result.outcome == "compat"
    assert any(f.rule == "summaries" and "not converted" in f.message for f in result.findings)


def test_run_metadata_writes_are_dropped_and_the_events_match(tmp_path):
    """``writer.add_run_metadata(tf.RunMetadata(), tag)``: TF2's writer has no such method (the output crashed);
    eager steps have no run metadata, so the statement goes, as add_graph does."""
    source = PROGRAM.replace("        writer.add_summary(summary, step)\n",
                             "        writer.add_summary(summary, step)\n"
                             "        writer.add_run_metadata(tf.RunMetadata(), 'step%03d' % step)\n")
    result = migrate_source(source, "run_metadata.py")
    assert result.outcome == "eager", result.compat_reason
    assert "add_run_metadata" not in result.new_source and "RunMetadata" not in result.new_source
    assert any("add_run_metadata dropped" in f.message for f in result.findings)
    _writes_the_legacysummary_events(source, result.new_source, tmp_path)


@pytest.mark.parametrize("use", ["print(writer.get_logdir())", "writer.add_session_log(None, 1)",
                                 "metadata = writer.add_run_metadata(tf.RunMetadata(), 'x')"])
def test_a_writer_method_tf2_lacks_keeps_the_summaries_tf1(use):
    source = PROGRAM.replace("    writer.close()\n", f"    {use}\n    writer.close()\n")
    result = migrate_source(source, "writer_method.py")
    assert result.outcome == "compat"
    assert "TF2's summary writer has no such method" in result.compat_reason


def test_writer_only_for_the_graph_becomes_an_eager_writer():
    source = ("import tensorflow as tf\nx = tf.placeholder(tf.float32)\ny = x * 2.0\nwith tf.Session() as sess:\n"
              "    writer = tf.summary.FileWriter('logs', sess.graph)\n    print(sess.run(y, {x: 1.0}))\n"
              "    writer.close()\n")
    result = migrate_source(source, "graph_writer.py")
    assert result.outcome == "eager"
    assert "writer = tf.summary.create_file_writer('logs')" in result.new_source
    assert any("graph argument dropped" in f.message for f in result.findings)


def test_bare_graph_writer_becomes_an_eager_writer():
    """`tf.summary.FileWriter("logs/", sess.graph)` as a statement (RL code's OUTPUT_GRAPH) writes only the graph."""
    source = ("import tensorflow as tf\nOUTPUT_GRAPH = True\nx = tf.placeholder(tf.float32)\ny = x * 2.0\n"
              "sess = tf.Session()\nif OUTPUT_GRAPH:\n    tf.summary.FileWriter('logs/', sess.graph)\n"
              "print(sess.run(y, {x: 1.0}))\n")
    result = migrate_source(source, "bare_graph_writer.py")
    assert result.outcome == "eager", result.findings
    assert "    tf.summary.create_file_writer('logs/')\n" in result.new_source
    assert not any("tensorboard package" in f.message for f in result.findings)


def test_a_writer_a_with_block_holds_writes_the_legacy_events(tmp_path):
    # `with tf.summary.FileWriter(logdir, sess.graph) as writer:` (himvish997's tutorial, probe 32): TF2's writer is
    # no context manager, its `as_default()` is (and flushes at the end, as closing the FileWriter did).
    source = PROGRAM.replace("    writer = tf.summary.FileWriter(LOGDIR, sess.graph)\n", "").replace(
        "    for step in range(3):\n", "    with tf.summary.FileWriter(LOGDIR, sess.graph) as writer:\n"
        "     for step in range(3):\n").replace("    writer.close()\n", "")
    assert "with tf.summary.FileWriter" in source
    result = migrate_source(source, "with_writer.py")
    assert result.outcome == "eager", result.compat_reason
    assert "with tf.summary.create_file_writer(LOGDIR).as_default() as writer:" in result.new_source
    _writes_the_legacysummary_events(source, result.new_source, tmp_path)


def test_a_writer_of_the_graph_alone_in_a_with_block_converts():
    source = ("import tensorflow as tf\nz = tf.add(tf.constant([3, 4]), tf.constant([1, 2]))\n"
              "with tf.Session() as sess:\n    with tf.summary.FileWriter('logs', sess.graph):\n"
              "        print(sess.run(z))\n")
    result = migrate_source(source, "graph_writer.py")
    assert result.outcome == "eager", result.compat_reason
    assert "with tf.summary.create_file_writer('logs').as_default():" in result.new_source


HELPER_PROGRAM = '''
import numpy as np
import tensorflow as tf


def variable_summaries(var):
    """TF's documentation's helper: summaries of a tensor, under the caller's name scope."""
    with tf.name_scope("summaries"):
        mean = tf.reduce_mean(var)
        tf.summary.scalar("mean", mean)
        with tf.name_scope("stddev"):
            stddev = tf.sqrt(tf.reduce_mean(tf.square(var - mean)))
        tf.summary.scalar("stddev", stddev)
        tf.summary.scalar("max", tf.reduce_max(var))
        tf.summary.histogram("histogram", var)


x = tf.placeholder(tf.float32, [None, 2])
with tf.name_scope("layer"):
    w = tf.Variable([[0.5], [-1.0]], name="weights")
    variable_summaries(w)
    tf.summary.histogram("weights", w)
with tf.name_scope("layer"):
    b = tf.Variable([0.25])
    variable_summaries(b)
y = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.square(y - 1.0))
tf.summary.scalar("loss", loss)
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
merged = tf.summary.merge_all()
with tf.Session() as sess:
    writer = tf.summary.FileWriter(LOGDIR, sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        summary, l = sess.run([merged, loss], {x: np.ones((4, 2))})
        sess.run(train_op, {x: np.ones((4, 2))})
        writer.add_summary(summary, step)
        print(step, l)
    writer.close()
'''


def test_summary_helper_is_folded_into_the_merged_summary():
    result = migrate_source(HELPER_PROGRAM, "helper.py")
    assert result.outcome == "eager", result.findings
    code = result.new_source
    assert "    return {'mean': mean, 'stddev': stddev, 'max': tf.reduce_max(var), 'histogram': var}\n" in code
    assert "merged = {'variable_summaries(w)': variable_summaries(w), 'layer/weights_1': w, " in code
    # TF1's unique names: the second scope "layer", a summary after the scope "stddev" or the op "Max" (lower-cased)
    assert "tf.summary.scalar('layer_1/summaries/stddev_1', summary['variable_summaries(b)']['stddev'])" in code
    assert "tf.summary.scalar('layer/summaries/max_1', summary['variable_summaries(w)']['max'])" in code


def test_summary_helper_events_match_the_legacy_program(tmp_path):
    legacy_dir, migrated_dir = tmp_path / "legacy", tmp_path / "migrated"
    migrated = migrate_source(HELPER_PROGRAM, "helper.py").new_source
    assert_same_output(run_legacy(HELPER_PROGRAM.replace("LOGDIR", repr(str(legacy_dir)))),
                       run_migrated(migrated.replace("LOGDIR", repr(str(migrated_dir)))))
    before, after = summary_events(legacy_dir), summary_events(migrated_dir)
    assert len(before) == 3 * 10 and set(before) == set(after)
    for key, (kind, number) in before.items():
        assert after[key][0] == kind
        if number is not None:
            assert after[key][1] == pytest.approx(number, rel=1e-5)


@pytest.mark.parametrize("change, why", [
    pytest.param(("    variable_summaries(w)\n", "    variable_summaries(w)\n    w = tf.identity(w)\n"),
                 "reads a name bound again", id="argument bound again"),
    pytest.param(("y = tf.matmul(x, w) + b\n", "def build():\n    variable_summaries(b * 2.0)\n\n\nbuild()\n"
                                                 "y = tf.matmul(x, w) + b\n"),
                 "called inside a function", id="called in a function on a computed value"),
    pytest.param(("        tf.summary.histogram(\"histogram\", var)\n",
                  "        tf.summary.histogram(\"histogram\", var)\n        tf.Variable(1.0)\n"),
                 "other than a summary helper", id="helper creates a variable"),
    pytest.param(("    variable_summaries(w)\n", "    summarize = variable_summaries\n    summarize(w)\n"),
                 "used other than called", id="helper passed around"),
])
def test_summary_helper_it_cannot_follow_stays_compat(change, why):
    result = migrate_source(HELPER_PROGRAM.replace(*change), "helper.py")
    assert result.outcome == "compat"
    assert any(f.rule == "summaries" and why in f.message for f in result.findings), result.findings


def test_summary_helper_not_called_here_stays_compat():
    """A module that only defines the helper: its callers elsewhere register the summaries, TF1's way."""
    source = HELPER_PROGRAM.replace("    variable_summaries(w)\n", "").replace("    variable_summaries(b)\n", "")
    result = migrate_source(source, "helper.py")
    assert result.outcome == "compat"
    assert any("is not called in this file" in f.message for f in result.findings), result.findings


def _in_function(program: str) -> str:
    """``program`` written as most scripts are: its body in ``def main():``, called once."""
    head, body = program.split("x = tf.placeholder", 1)
    lines = ("x = tf.placeholder" + body).strip("\n").split("\n")
    return head + "\n\ndef main():\n" + "\n".join("    " + line if line else line for line in lines) + "\n\n\nmain()\n"


def test_a_program_written_in_one_function_writes_the_legacysummary_events(tmp_path):
    program = _in_function(PROGRAM)
    result = migrate_source(program, "summaries.py")
    assert result.outcome == "eager", result.compat_reason
    _writes_the_legacysummary_events(program, result.new_source, tmp_path)


@pytest.mark.parametrize("change", [
    pytest.param(lambda p: p + "main()\n", id="the function called twice"),
    pytest.param(lambda p: p.replace('    tf.summary.histogram("inputs", x)', '    def inputs():\n'
                                     '        tf.summary.histogram("inputs", x)\n    inputs()'), id="a nested function"),
    pytest.param(lambda p: p.replace("\n\ndef main():", 'tf.summary.scalar("two", tf.constant(2.0))\n\n\ndef main():'),
                 id="summaries at module level too"),
])
def test_summaries_of_a_program_in_a_function_it_cannot_follow_stay_compat(change):
    result = migrate_source(change(_in_function(PROGRAM)), "summaries.py")
    assert result.outcome == "compat"
    assert "summar" in result.compat_reason


COLLECTIONS = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
w = tf.Variable(0.5, name="w")
loss = tf.reduce_mean(tf.square(w * x - 2.0 * x))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
tf.summary.scalar("loss", loss, collections=["train", "test"])
tf.summary.scalar("weight", w, collections=["train"])
tf.summary.scalar("ignored", w * 2.0, collections=["other"])
train_merged = tf.summary.merge_all("train")
test_merged = tf.summary.merge_all(key="test")
data = np.arange(1.0, 5.0)
with tf.Session() as sess:
    train_writer = tf.summary.FileWriter(LOGDIR + "/train")
    test_writer = tf.summary.FileWriter(LOGDIR + "/test")
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        summary, _ = sess.run([train_merged, train_op], feed_dict={x: data})
        train_writer.add_summary(summary, step)
        summary = sess.run(test_merged, feed_dict={x: data * 2.0})
        test_writer.add_summary(summary, step)
    train_writer.close()
    test_writer.close()
'''


def test_summaries_kept_in_collections_are_merged_by_key(tmp_path):
    # astorfi's TensorFlow-World: train and test summaries in `collections=`, each merged by its key. Before: compat
    # ("summary arguments other than name, tensor and max_outputs").
    result = migrate_source(COLLECTIONS, "summaries.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "train_merged = {'loss': loss, 'weight': w_read}" in code and "test_merged = {'loss': loss}" in code
    _train_and_test_writers_write_the_legacy_events(COLLECTIONS, code, tmp_path)


def _train_and_test_writers_write_the_legacy_events(source, code, tmp_path):
    legacy_dir, migrated_dir = tmp_path / "legacy", tmp_path / "migrated"
    run_legacy(source.replace("LOGDIR", repr(str(legacy_dir))))
    run_migrated(code.replace("LOGDIR", repr(str(migrated_dir))))
    for part, tags in (("train", {"loss", "weight"}), ("test", {"loss"})):
        before, after = summary_events(legacy_dir / part), summary_events(migrated_dir / part)
        assert set(before) == set(after) == {(tag, step) for tag in tags for step in range(3)}
        for key, (kind, number) in before.items():
            assert after[key] == (kind, pytest.approx(number, rel=1e-5))


def test_one_name_fetched_from_two_merges_writes_what_each_fetch_gave(tmp_path):
    # Before (older than the collections above): the name's last fetch decided every add_summary's tags; the
    # train writer got the test merge's `loss` only, and `weight` was never written (a silent wrong rewrite).
    source = COLLECTIONS.replace('''tf.summary.scalar("loss", loss, collections=["train", "test"])
tf.summary.scalar("weight", w, collections=["train"])
tf.summary.scalar("ignored", w * 2.0, collections=["other"])
train_merged = tf.summary.merge_all("train")
test_merged = tf.summary.merge_all(key="test")''', '''s_loss = tf.summary.scalar("loss", loss)
s_weight = tf.summary.scalar("weight", w)
train_merged = tf.summary.merge([s_loss, s_weight])
test_merged = tf.summary.merge([s_loss])''')
    _train_and_test_writers_write_the_legacy_events(source, migrate_source(source, "summaries.py").new_source, tmp_path)


def test_an_image_summarys_third_argument_is_its_max_outputs():
    # `tf.summary.image('input', image_shaped_input, 10)` (TF's mnist_with_summaries, lankuohsing's copy, probe 34):
    # the positional max_outputs was taken for an argument TF2 lacks, and the summaries stayed TF1.
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 4, 4, 1])\n"
              "tf.summary.image('input', x, 2)\nmerged = tf.summary.merge_all()\nwith tf.Session() as sess:\n"
              "    writer = tf.summary.FileWriter('logs', sess.graph)\n"
              "    summary = sess.run(merged, {x: np.ones((3, 4, 4, 1))})\n    writer.add_summary(summary, 0)\n")
    result = migrate_source(source, "image_summary.py")
    assert result.outcome == "eager", result.compat_reason
    assert "max_outputs=2" in result.new_source


@pytest.mark.parametrize("change", [
    pytest.param(lambda p: p.replace('with tf.name_scope("train"):', 'scope = "train"\nwith tf.name_scope(scope):'),
                 id="module code"),
    pytest.param(lambda p: HELPER_PROGRAM.replace('def variable_summaries(var):\n',
                                                  'def variable_summaries(var, name="summaries"):\n').replace(
        'with tf.name_scope("summaries"):', 'with tf.name_scope(name):'), id="a summary helper's scope"),
])
def test_a_summary_under_a_scope_named_by_a_variable_stays_compat(change):
    """TF1 prefixed the tag with the scope's name (`train/loss`); a scope the text does not name wrote the tag
    without it (a silent wrong tag)."""
    result = migrate_source(change(PROGRAM), "summaries.py")
    assert result.outcome == "compat"
    assert "name scope whose name the text does not give" in result.compat_reason


def test_a_script_named_tensorboard_keeps_its_summaries_tf1():
    # kennysong's tf-tutorial `tensorboard.py` (held-out probe 45): TF2's summary ops import the tensorboard
    # package at their first write, and the script's own module shadowed it: the import ran the program again
    # inside the write's trace, which crashed.
    result = migrate_source(PROGRAM, "lessons/tensorboard.py")
    assert result.outcome == "compat"
    assert result.compat_reason.startswith("this file is named tensorboard.py")
    assert migrate_source(PROGRAM, "lessons/tensorboard_demo.py").outcome == "eager"
