"""discarded-values: an eager run whose value a statement drops loses its `.numpy()`."""
from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

SOURCE = '''
import tensorflow as tf
sess = tf.InteractiveSession()
v = tf.Variable(1.0)
v.initializer.run()
for i in range(3):
    tf.assign(v, v * 2.0).eval()
    sess.run(tf.assign_add(v, 1.0))
    print(v.eval(), sess.run(v + 0.5))
'''


def test_a_dropped_runs_value_is_not_copied():
    result = migrate_source(SOURCE, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "    v.assign(v * 2.0)\n    v.assign_add(1.0)\n" in code
    assert "print(v.numpy(), (v + 0.5).numpy())" in code  # values that are used keep theirs
    assert any(f.rule == "discarded-values" for f in result.findings)
    assert_same_output(run_legacy(SOURCE), run_migrated(code))
