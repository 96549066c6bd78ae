"""A function that builds an op changing state and drops it (analysis/dangling_updates): TF1 never ran that op; a
run's function calling the function would run it at each call. Each compat case below converted and printed other
numbers before (the counter counted; the print op printed at each run)."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = '''\
import tensorflow as tf
x = tf.placeholder(tf.float32, [None])
counter = tf.Variable(0.0)


def double(t):
{body}


y = double(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {{x: [1.0]}}))
    print(sess.run(y, {{x: [2.0]}}))
    print(sess.run(counter))
'''


@pytest.mark.parametrize("body, built", [
    pytest.param("    tf.assign_add(counter, 1.0)\n    return t * 2.0", "counter.assign_add",
                 id="an update on its own line"),
    pytest.param("    up = counter.assign_add(1.0)\n    out = t * 2.0\n    return out", "counter.assign_add",
                 id="an update bound to a name it never reads"),
    pytest.param("    ops = []\n    ops.append(counter.assign_add(1.0))\n    return t * 2.0", "counter.assign_add",
                 id="an update put in a list it does not return"),
    pytest.param("    h = t * 2.0\n    tf.Print(h, [h], 'h=')\n    return h", "tf.Print", id="a print op it drops"),
])
def test_a_run_calling_a_function_that_drops_an_update_keeps_compat_with_the_reason(body, built):
    source = PROGRAM.format(body=body)
    # (`unrun-ops` removes a statement that only builds the op, the first and last cases: the check is the net
    # for what it leaves)
    migrated = migrate_source(source, "dropped.py", ignore=("unrun-ops",))
    assert migrated.outcome == "compat"
    why = f"calls `double`, which builds `{built}(...)` and does not return it"
    assert why in migrated.compat_reason
    run_line = source.splitlines().index("    print(sess.run(y, {x: [1.0]}))") + 1
    assert any(why in finding.message and finding.line == run_line
               for finding in migrated.findings if finding.rule == "eager-blocker")


@pytest.mark.parametrize("body", [
    pytest.param("    up = counter.assign_add(1.0)\n    with tf.control_dependencies([up]):\n        out = t * 2.0\n"
                 "    return out", id="an update the returned value depends on"),
    pytest.param("    up = counter.assign_add(1.0)\n    out = t * 2.0 + 0.0 * up\n    return out",
                 id="an update the returned value is computed from"),
    pytest.param("    return t * 2.0 + 0.0 * tf.assign_add(counter, 1.0)", id="an update in the returned expression"),
    pytest.param("    return t * 2.0", id="no update"),
])
def test_a_function_whose_updates_reach_what_it_returns_converts_with_the_legacy_output(body):
    source = PROGRAM.format(body=body)
    migrated = migrate_source(source, "kept.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "Session" not in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


MAIN = '''\
import tensorflow as tf


def double(t, count):
    up = count.assign_add(1.0)
    return t * 2.0


def main():
    x = tf.placeholder(tf.float32, [None])
    counter = tf.Variable(0.0)
    y = double(x, counter)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(y, {x: [1.0]}))
        print(sess.run(counter))


if __name__ == "__main__":
    main()
'''


def test_a_function_of_the_module_is_known_in_the_functions_that_call_it():
    migrated = migrate_source(MAIN, "main.py")
    assert migrated.outcome == "compat"
    assert "calls `double`, which builds `count.assign_add(...)` and does not return it" in migrated.compat_reason


# A build function with an early return stays a function; its step stayed inside it, and the migrated program
# crashed (a Keras optimizer's `minimize` takes no tensor).
STEP_INSIDE = '''\
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None])
w = tf.Variable(1.0)


def build(x):
    loss = tf.reduce_mean(tf.square(x * w - 2.0))
    if loss is None:
        return None, None
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    return loss, train


loss, train = build(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run(loss, {x: [1.0, 2.0]}))
        sess.run(train, {x: [1.0, 2.0]})
'''


def test_a_run_calling_a_function_that_makes_an_optimizer_step_keeps_compat():
    migrated = migrate_source(STEP_INSIDE, "step.py")
    assert migrated.outcome == "compat"
    assert "calls `build`, which makes an optimizer step inside it" in migrated.compat_reason
