"""Before/after pairs for jacobian-loops and jacobian-map-fn, and the findings they leave.

Each case runs only its rule (``select``), pyupgrade style. The rewritten code
is still TF1: the golden cases (tests/golden/jacobian_*.py) show it lowered to
``tape.jacobian`` and run both programs.
"""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source

# `x`'s shape is a name, so `y`'s rank is not in the text: the sums are written for any rank (see
# test_known_ranks_write_the_axes_out for the other case).
HEADER = "import tensorflow as tf\nshape = [None, 3]\nx = tf.placeholder(tf.float32, shape)\ny = tf.tanh(x) * 2.0\n"
IMPORT = "from tensorflow.python.ops.parallel_for.gradients import jacobian\n"
ROW_SUMS = "y_row_sums = tf.reduce_sum(y, axis=list(range(1, y.shape.rank)))\n"
COL_SUMS = "y_col_sums = tf.reduce_sum(y, axis=[0, *range(2, y.shape.rank)])[:3]\n"


def _with_import(body: str) -> str:
    lines = HEADER.splitlines(keepends=True)
    return lines[0] + IMPORT + "".join(lines[1:]) + body


CASES = [
    # jacobian-loops
    ("jacobian-loops",
     "rows = []\nfor i in range(y.shape[0]):\n    grad = tf.gradients(y[i], x)[0]\n"
     "    rows.append(tf.expand_dims(grad, axis=0))\nJ = tf.stack(rows)\n",
     ROW_SUMS + "rows = tf.expand_dims(jacobian(y_row_sums, x), axis=1)\nJ = rows\n",
     "loop over rows with expand dims"),
    ("jacobian-loops",
     "cols = [tf.gradients(y[:, j], x)[0] for j in range(3)]\nJ = tf.stack(cols, axis=1)\n",
     COL_SUMS + "cols = jacobian(y_col_sums, x)\nJ = tf.transpose(cols, [1, 0, *range(2, cols.shape.rank)])\n",
     "comprehension over columns stacked on axis 1"),
    ("jacobian-loops",
     "J = tf.stack([tf.gradients(y[:, j], x)[0] for j in range(3)], axis=2)\n",
     COL_SUMS + "y_col_jacobian = jacobian(y_col_sums, x)\n"
     "J = tf.transpose(y_col_jacobian, [1, 2, 0, *range(3, y_col_jacobian.shape.rank)])\n",
     "inline comprehension stacked on axis 2"),
    ("jacobian-loops",
     "parts = []\nfor i in range(1, 4):\n    parts.append(tf.expand_dims(tf.gradients(y[i], [x])[0], 0))\n"
     "J = tf.concat(parts, axis=0)\n",
     "y_row_sums = tf.reduce_sum(y, axis=list(range(1, y.shape.rank)))[1:4]\n"
     "parts = jacobian(y_row_sums, x)\nJ = parts\n",
     "concat of rows expanded on the concat axis"),
    ("jacobian-loops",
     "flat = [tf.reshape(tf.gradients(y[0, k], x)[0], [n, 3]) for k in range(3)]\nJ = tf.stack(flat)\n",
     "y_row_sums = tf.reduce_sum(y[0, :], axis=list(range(1, y.shape.rank - 1)))[:3]\n"
     "flat = tf.reshape(jacobian(y_row_sums, x), [-1, n, 3])\nJ = flat\n",
     "reshape of elements of one row"),
    # jacobian-map-fn
    ("jacobian-map-fn",
     "J = tf.map_fn(lambda i: tf.gradients(y[i], x)[0], tf.range(4), dtype=tf.float32)\n",
     "y_row_sums = tf.reduce_sum(y, axis=list(range(1, y.shape.rank)))[:4]\nJ = jacobian(y_row_sums, x)\n",
     "lambda over tf range"),
    ("jacobian-map-fn",
     "def row(i):\n    \"\"\"one row\"\"\"\n    g = tf.gradients(y[i, 1], x)[0]\n    return tf.expand_dims(g, -1)\n"
     "J = tf.map_fn(row, tf.range(0, tf.shape(y)[0]), back_prop=True)\n",
     "y_row_sums = tf.reduce_sum(y[:, 1], axis=list(range(1, y.shape.rank - 1)))\n"
     "J = tf.expand_dims(jacobian(y_row_sums, x), axis=-1)\n",
     "def removed and full range"),
]

NOOPS = [
    ("jacobian-loops", "rows = []\nfor i in range(3):\n    rows.append(tf.gradients(y[i], x)[0])\nn = len(rows)\n",
     "`rows` is used for more than tf.stack / tf.concat", "list used elsewhere"),
    ("jacobian-loops", "rows = []\nfor i in range(3):\n    rows.append(tf.gradients(y[i] ** 2, x)[0])\n"
     "J = tf.stack(rows)\n", "is not a subscript of one tensor", "ys is an expression"),
    ("jacobian-loops", "rows = []\nfor i in [0, 2]:\n    rows.append(tf.gradients(y[i], x)[0])\nJ = tf.stack(rows)\n",
     "not a plain `for i in range(...)`", "not a range"),
    ("jacobian-loops", "rows = []\nfor i in range(3):\n    rows.append(tf.gradients(y[i], x)[0])\nJ = tf.stack(rows)\n"
     "last = i\n", "`i` is read after the loop", "loop variable read later"),
    ("jacobian-loops", "ys = [y, 2 * y]\nrows = [tf.gradients(ys[i], x)[0] for i in range(2)]\nJ = tf.stack(rows)\n",
     "cannot tell that `ys` is one tensor", "list of tensors"),
    ("jacobian-loops", "gradients = tf.gradients(y, x)\nrows = [tf.gradients(y[i], x)[0] for i in range(2)]\n"
     "J = tf.stack(rows)\n", "would read `gradients`", "import would read a graph value"),
    ("jacobian-map-fn", "def row(i):\n    return tf.gradients(y[i], x)[0]\n"
     "J = tf.map_fn(row, tf.range(3), dtype=tf.float32)\nK = row(0)\n", "`row` is also used elsewhere",
     "def used elsewhere"),
    ("jacobian-map-fn", "J = tf.map_fn(lambda i: tf.gradients(y[i], x)[0], tf.constant([0, 2]), dtype=tf.float32)\n",
     "not tf.range(...)", "map over a constant"),
]


@pytest.mark.parametrize("rule, before, after", [c[:3] for c in CASES], ids=[f"{c[0]}: {c[3]}" for c in CASES])
def test_rule(rule, before, after):
    result = migrate_source(HEADER + before, "case.py", select=[rule])
    assert result.new_source == _with_import(after)


@pytest.mark.parametrize("rule, before, reason", [c[:3] for c in NOOPS], ids=[f"{c[0]}: noop {c[3]}" for c in NOOPS])
def test_noop_says_why(rule, before, reason):
    result = migrate_source(HEADER + before, "case.py", select=[rule])
    assert result.new_source == HEADER + before
    messages = [f.message for f in result.findings if f.rule == rule]
    assert len(messages) == 1 and reason in messages[0] and "jacobian(y, x)" in messages[0], messages


def test_user_jacobian_name_imports_the_module():
    before = ("jacobian = [tf.gradients(y[i], x)[0] for i in range(2)]\njacobian = tf.stack(jacobian)\n")
    result = migrate_source(HEADER + before, "case.py", select=["jacobian-loops"])
    assert "from tensorflow.python.ops.parallel_for import gradients as pfor\n" in result.new_source
    assert "jacobian = pfor.jacobian(y_row_sums, x)[:2]" not in result.new_source
    assert "jacobian = pfor.jacobian(y_row_sums, x)\n" in result.new_source


def test_existing_pfor_import_is_reused():
    source = HEADER.replace("import tensorflow as tf\n", "import tensorflow as tf\n" + IMPORT)
    before = "rows = [tf.gradients(y[i], x)[0] for i in range(x.shape[0])]\nJ = tf.stack(rows)\n"
    result = migrate_source(source + before, "case.py", select=["jacobian-loops"])
    assert result.new_source.count("parallel_for") == 1
    assert "rows = jacobian(y_row_sums, x)\n" in result.new_source


def test_map_over_values_is_reported_not_rewritten():
    """The recipe fails in TF1 (tests/test_samples_legacy.py runs it): report it, keep it."""
    before = ("def grad_of(element):\n    return tf.gradients(element, x)[0]\n"
              "per_element = tf.map_fn(grad_of, tf.squeeze(y))\n")
    result = migrate_source(HEADER + before, "case.py", select=["jacobian-map-fn"])
    assert result.new_source == HEADER + before
    warnings = {f.message for f in result.findings if f.rule == "jacobian-map-fn"}
    assert len(warnings) == 1
    message = warnings.pop()
    assert "Could not write to TensorArray index" in message
    assert "tf.map_fn(lambda i: tf.gradients(tf.squeeze(y)[i], x)[0], tf.range(n)" in message
    assert "jacobian(tf.squeeze(y), x)" in message


SEED_LOOP = """import numpy as np
import tensorflow as tf

x = tf.Variable(np.linspace(-1.0, 1.0, 5).reshape(5, 1).astype(np.float32))
A = tf.constant(np.random.RandomState(0).randn(12, 5).astype(np.float32))
y = tf.matmul(A, x)

grads_list = []
for i in range(y.shape[0]):
    grad = tf.gradients(y[i], x)[0]
    grads_list.append(tf.expand_dims(grad, axis=0))

jacobian = tf.stack(grads_list)
jacobian = tf.expand_dims(jacobian, axis=1)
print(jacobian.shape)
dy_dx = tf.reduce_sum(jacobian, axis=[2, 3, 4])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    J, d = sess.run([jacobian, dy_dx])
    print(J.shape, np.round(J[:3, 0, 0, :, 0], 5))
    print(np.round(d.ravel(), 5), np.allclose(d.ravel(), sess.run(A).sum(axis=1)))
"""


def test_seed_loop_is_vectorized_with_the_same_shape_and_numbers():
    """The seed keeps its (12, 1, 1, 5, 1) shape, printed outside any run as TF1 printed it."""
    result = migrate_source(SEED_LOOP, "seed.py")
    assert result.outcome == "eager"
    assert "tape.jacobian(y_row_sums, x)" in result.new_source and "tf.gradients" not in result.new_source
    legacy, migrated = run_legacy(SEED_LOOP), run_migrated(result.new_source)
    assert legacy.splitlines()[0] == "(12, 1, 1, 5, 1)"
    assert_same_output(legacy, migrated)



PROGRAM = ("import numpy as np\nimport tensorflow as tf\nN_OUT = {count}\n"
           "x = tf.placeholder(tf.float32, [None, 3])\nW = tf.Variable(np.ones((3, {width}), np.float32))\n"
           "y = tf.tanh(tf.matmul(x, W))\n"
           "rows = [tf.gradients(y[:, i], x)[0] for i in range({stop})]\nJ = tf.stack(rows, axis=1)\n"
           "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
           "    print(sess.run(J, {{x: np.ones((2, 3))}}).shape)\n")


@pytest.mark.parametrize("count, stop, functions, kept", [
    (4, "N_OUT", "compiled", True),  # a module constant bound once
    (16, "16", "compiled", True),
    (17, "N_OUT", "compiled", False),  # more rows: one vectorized jacobian costs less
    (4, "W.shape[1]", "compiled", False),  # a count not known to the rewrite
    (4, "N_OUT", "eager", False),  # eager functions: one vectorized pass instead of N
], ids=["constant, compiled", "literal 16, compiled", "17 rows", "count not known", "eager functions"])
def test_few_known_rows_stay_a_loop_when_compiled(count, stop, functions, kept):
    source = PROGRAM.format(count=count, width=max(count, 17), stop=stop)
    result = migrate_source(source, "case.py", functions=functions)
    assert result.outcome == "eager", result.findings
    messages = [f.message for f in result.findings if f.rule == "jacobian-loops"]
    if kept:
        assert "tape.gradient(y[:, i], [x])[0] for i in range(" in result.new_source
        assert "jacobian(" not in result.new_source
        assert messages == [f"per-element tf.gradients loop kept: {count} gradients, compiled, cost less than one "
                            f"vectorized jacobian"], messages
    else:
        assert ".jacobian(y_col_sums, x)" in result.new_source
        assert "tape.gradient(y[:, i]" not in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


@pytest.mark.parametrize("header, before, sums", [
    pytest.param("x = tf.placeholder(tf.float32, [None, 3])\ny = tf.tanh(x) * 2.0\n",
                 "J = tf.stack([tf.gradients(y[i], x)[0] for i in range(4)])\n",
                 "y_row_sums = tf.reduce_sum(y, axis=1)[:4]\n", id="a matrix: its rows summed over axis 1"),
    pytest.param("x = tf.placeholder(tf.float32, [None, 3])\ny = tf.tanh(x) * 2.0\n",
                 "J = tf.stack([tf.gradients(y[:, j], x)[0] for j in range(3)], axis=1)\n",
                 "y_col_sums = tf.reduce_sum(y, axis=0)[:3]\n", id="columns summed over the batch"),
    pytest.param("x = tf.Variable(np.zeros((5, 1)))\ny = tf.reshape(tf.matmul(tf.ones([40, 5]), x), [-1])\n",
                 "J = tf.stack([tf.gradients(y[i], x)[0] for i in range(40)])\n",
                 "y_row_sums = y[:40]\nJ = jacobian(y_row_sums, x)\n", id="a vector: its rows, no sum"),
    pytest.param("x = tf.Variable(np.zeros((5, 1)))\ny = tf.reshape(tf.matmul(tf.ones([40, 5]), x), [-1])\n",
                 "J = tf.stack([tf.gradients(y[i], x)[0] for i in range(y.shape[0])])\n",
                 "", id="a vector, every row: the Jacobian of y itself"),
])
def test_known_ranks_write_the_axes_out(header, before, sums):
    head = "import numpy as np\nimport tensorflow as tf\n" + header
    result = migrate_source(head + before, "case.py", select=["jacobian-loops"])
    assert "shape.rank" not in result.new_source.split("J = ")[0]
    if sums:
        assert sums in result.new_source
    else:
        assert "jacobian(y, x)" in result.new_source and "_sums" not in result.new_source
