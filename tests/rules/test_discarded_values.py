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


def test_notebooks_keep_the_value_a_cell_shows():
    import json
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": text}
             for text in ["import tensorflow as tf\nsess = tf.InteractiveSession()\n", "tf.reduce_sum([1, 2]).eval()\n"]]
    notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 2})
    from tf_migrate.notebook import migrate_notebook
    result = migrate_notebook(notebook, "case.ipynb")
    assert result.outcome == "eager", result.compat_reason
    assert "tf.reduce_sum([1, 2]).numpy()" in "".join(
        "".join(cell["source"]) for cell in json.loads(result.new_source)["cells"])
