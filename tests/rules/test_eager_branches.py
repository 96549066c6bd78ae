"""eager-branches: ``if tf.executing_eagerly():`` whose graph branch runs its own session -> the eager branch; a
question asked elsewhere keeps the file compat."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

# A program written for TF 1.x and 2.x at once: the batch for display drawn in either mode.
DUAL = '''import numpy as np
import tensorflow as tf

data = np.arange(12, dtype=np.float32).reshape(6, 2)
dataset = tf.data.Dataset.from_tensor_slices(data).batch(4)


def first_batch(ds):
    # draw one batch
    if tf.executing_eagerly():
        for batch in ds:
            batch = batch.numpy()
            break
    else:
        item = ds.make_one_shot_iterator().get_next()
        with tf.Session() as sess:
            batch = sess.run(item)
    return batch


print(first_batch(dataset).sum(axis=0))
x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0], [2.0]])
y = tf.matmul(x, w)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: first_batch(dataset)}).ravel())
'''


def test_the_eager_branch_is_what_the_migrated_program_runs_and_it_prints_the_legacy_numbers(tmp_path):
    result = migrate_source(DUAL, "dual.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "executing_eagerly" not in code and "make_one_shot_iterator" not in code
    assert ("    # draw one batch\n    for batch in ds:\n        batch = batch.numpy()\n        break\n"
            "    return batch\n") in code
    assert any(f.rule == "eager-branches" and "kept the eager branch" in f.message for f in result.findings)
    verdict = verify_program(DUAL, code, path=tmp_path / "dual.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_negated_test_without_an_eager_branch_is_removed():
    source = DUAL.replace(
        "    if tf.executing_eagerly():\n        for batch in ds:\n            batch = batch.numpy()\n            break\n"
        "    else:\n", "    batch = next(iter(ds)).numpy() if tf.executing_eagerly() else None\n"
                      "    if not tf.executing_eagerly():\n")
    code = migrate_source(source, "dual_negated.py").new_source
    assert "    batch = next(iter(ds)).numpy() if tf.executing_eagerly() else None\n    return batch\n" in code


@pytest.mark.parametrize("change", [
    # the graph branch opens no session: graph code a run function may trace, where TF2 answers False
    ("        with tf.Session() as sess:\n            batch = sess.run(item)\n", "        batch = item\n"),
    # the test reads more than the mode
    ("    if tf.executing_eagerly():\n", "    if tf.executing_eagerly() and ds is not None:\n"),
])
def test_branches_it_cannot_decide_are_left_as_they_are(change):
    source = DUAL.replace(*change)
    result = migrate_source(source, "undecided.py")
    assert not any(f.rule == "eager-branches" for f in result.findings)
    assert result.outcome != "eager" or "executing_eagerly()" in result.new_source


def test_compat_output_keeps_both_branches():
    code = migrate_source(DUAL, "dual.py", mode="compat").new_source
    assert "if tf.executing_eagerly():" in code and "make_one_shot_iterator" in code


# A graph program that asks, outside any function where a branch was decided: TF1 answered False, the migrated
# program would answer True and print "eager" (the first version converted it).
ASKS_OUTSIDE_HOST_CODE = '''\
import tensorflow as tf
x = tf.placeholder(tf.float32, [])
y = x * 2
if {query}():
    print("eager")
else:
    print("graph")
with tf.Session() as sess:
    print(sess.run(y, {{x: 1.0}}))
'''


@pytest.mark.parametrize("query", ["tf.executing_eagerly", "tf.compat.v1.executing_eagerly",
                                   "tf.executing_eagerly_outside_functions"])
def test_a_graph_program_asking_for_the_execution_mode_stays_compat_with_the_reason_at_its_line(query):
    migrated = migrate_source(ASKS_OUTSIDE_HOST_CODE.format(query=query), "mode.py")
    assert migrated.outcome == "compat"
    assert "answered False in the TF1 program and would answer True" in migrated.compat_reason
    assert any(f.rule == "eager-blocker" and f.line == 4 for f in migrated.findings)


def test_an_eager_program_that_asks_is_converted_as_before():
    source = "import tensorflow as tf\ntf.enable_eager_execution()\nprint(tf.executing_eagerly())\n"
    migrated = migrate_source(source, "eager.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "tf.executing_eagerly()" in migrated.new_source
