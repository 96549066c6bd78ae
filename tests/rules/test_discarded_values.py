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


def test_notebooks_drop_the_values_no_cell_shows():
    # Mid-cell, a dropped run's `.numpy()` and a reset's list of assignments were kept (the whole notebook was
    # skipped): `[W.assign(tf.zeros([2])).numpy(), ...]` in TF's "Deep MNIST for Experts" (probe 31).
    import json
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": text}
             for text in ["import tensorflow as tf\nsess = tf.InteractiveSession()\nv = tf.Variable(1.0)\n"
                          "v.initializer.run()\n",
                          "tf.assign(v, v * 2.0).eval()\nsess.run(tf.assign_add(v, 1.0))\nprint(v.eval())\n",
                          "sess.run(tf.assign_add(v, 1.0))\n"]]
    notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 2})
    from tf_migrate.notebook import migrate_notebook
    result = migrate_notebook(notebook, "case.ipynb")
    assert result.outcome == "eager", result.compat_reason
    sources = ["".join(cell["source"]) for cell in json.loads(result.new_source)["cells"]]
    assert sources[1] == "v.assign(v * 2.0)\nv.assign_add(1.0)\nprint(v.numpy())"
    assert sources[2] == "v.assign_add(1.0).numpy()"  # the cell shows it, as TF1's run gave it


def test_notebook_training_steps_mid_cell_drop_their_conversion():
    import json
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": text}
             for text in ["import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nw = tf.Variable(1.0)\n"
                          "loss = tf.reduce_sum(tf.square(w * x - 1.0))\n"
                          "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
                          "sess = tf.Session()\nsess.run(tf.global_variables_initializer())\n",
                          "for i in range(2):\n    sess.run([train, loss], {x: [1.0, 2.0]})\nsess.run(w)\n"]]
    notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 2})
    from tf_migrate.notebook import migrate_notebook
    result = migrate_notebook(notebook, "case.ipynb")
    assert result.outcome == "eager", result.compat_reason
    last = "".join(json.loads(result.new_source)["cells"][-1]["source"])
    assert "    call_compiled(run_train_loss, x=[1.0, 2.0])\n" in last and "to_numpy(" not in last, last
    assert last.endswith("w.numpy()")
