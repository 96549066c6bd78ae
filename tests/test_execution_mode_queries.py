"""A TF1 program that asks whether it executes eagerly stays compat (analysis/api_checks): TF1 answered False, the
migrated program would answer True outside its compiled functions, and take the other branch."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source

PROGRAM = '''\
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
    migrated = migrate_source(PROGRAM.format(query=query), "mode.py")
    assert migrated.outcome == "compat"
    assert "answered False in the TF1 program and would answer True" in migrated.compat_reason
    assert any(f.rule == "eager-blocker" and f.line == 4 for f in migrated.findings)


def test_an_eager_program_that_asks_is_converted_as_before():
    source = "import tensorflow as tf\ntf.enable_eager_execution()\nprint(tf.executing_eagerly())\n"
    migrated = migrate_source(source, "eager.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "tf.executing_eagerly()" in migrated.new_source
