"""The verifier's rules, in-process: output comparison, magics, random draws, fetch order."""
import pytest

from tf_migrate.verify import draw_match, output_compare
from tf_migrate.verify.child import fetch_order, notebook, random_draws


def diff(a, b, rtol=1e-5, atol=1e-6):
    return output_compare.first_difference(a, b, rtol=rtol, atol=atol)


@pytest.mark.parametrize(
    "legacy, migrated",
    [
        pytest.param("[[ 8.  8. 50.]]", "[[8. 8. 50.]]", id="numpy padding"),
        pytest.param("loss 0.1234567", "loss 0.1234568", id="within rtol"),
        pytest.param("loss 0.1235", "loss 0.1236", id="rounding flip in the last digit"),
        pytest.param("x = 1e-05", "x = 1.0e-5", id="exponent spelling"),
        pytest.param("3", "3.0", id="int and float spelling"),
        pytest.param("a nan inf -inf", "a nan inf -inf", id="nan and infinities"),
        pytest.param("[1.5 2.5\n 3.5]", "[1.5 2.5 3.5]", id="line wrapping"),
    ],
)
def test_outputs_that_match(legacy, migrated):
    assert diff(legacy, migrated) is None


@pytest.mark.parametrize(
    "legacy, migrated, expected",
    [
        pytest.param("loss 0.1235", "loss 0.1237", "value 0.1235 != 0.1237", id="two units in last digit"),
        pytest.param("[50. 18.]", "[51. 18.]", "value 50. != 51.", id="no decimals, no slack"),
        pytest.param("W 1.0", "weights 1.0", "text 'W' != 'weights'", id="text"),
        pytest.param("a\nb 1", "a\nb 1\nc 2", "the legacy output ends", id="extra migrated output"),
        pytest.param("a\nb 1\nc 2", "a\nb 1", "the migrated output ends", id="missing migrated output"),
        pytest.param("nan", "0.0", "value nan != 0.0", id="nan is not a number"),
        pytest.param("inf", "-inf", "value inf != -inf", id="sign of infinity"),
    ],
)
def test_outputs_that_differ(legacy, migrated, expected):
    assert expected in diff(legacy, migrated)


def test_difference_names_both_lines():
    detail = diff("step 0\nstep 1 loss 0.5\n", "step 0\n\nstep 1 loss 0.7\n")
    assert "legacy output line 2 'step 1 loss 0.5'" in detail
    assert "migrated output line 3 'step 1 loss 0.7'" in detail


def test_tolerance_is_configurable():
    assert diff("1.00", "1.05", rtol=0.1) is None
    assert diff("1.00", "1.05") is not None


@pytest.mark.parametrize(
    "cell, expected",
    [
        pytest.param("%matplotlib inline\nimport numpy as np", "pass\nimport numpy as np\n", id="line magic"),
        pytest.param("!pip install foo\nx = 1", "pass\nx = 1\n", id="shell escape"),
        pytest.param("for i in range(2):\n    !echo hi", "for i in range(2):\n    pass\n", id="indented"),
        pytest.param("files = !ls\nprint(1)", "files = None\nprint(1)\n", id="captured shell output"),
        pytest.param("%time y = f(x)", "y = f(x)\n", id="%time runs its statement"),
        pytest.param("%%time\nx = 2\n%env A=1", "x = 2\npass\n", id="%%time runs its body"),
        pytest.param("%%bash\necho hi", "", id="non-Python cell magic dropped"),
        pytest.param("x = 5 % 3\ny = a != b", "x = 5 % 3\ny = a != b\n", id="operators untouched"),
    ],
)
def test_magics_are_neutralized(cell, expected):
    assert notebook.neutralize(cell) == expected


def test_writefile_and_capture_cells_keep_their_effect(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(notebook.neutralize("%%writefile helper.py\nVALUE = 7"), namespace)
    assert (tmp_path / "helper.py").read_text() == "VALUE = 7\n"
    exec(notebook.neutralize("%%capture\nprint('hidden')\nz = 3"), namespace)
    assert capsys.readouterr().out == ""
    assert namespace["z"] == 3


def _draw(site, shape, ordinal, graph=False, distribution="normal"):
    return {"event": "draw", "site": site, "distribution": distribution, "shape": list(shape),
            "ordinal": ordinal, "where": f"prog.py:{site}", "graph": graph}


def test_random_draws_reconcile_by_distribution_shape_and_order():
    legacy = [_draw(1, (3, 4), 0, graph=True), _draw(2, (4,), 0, graph=True)]
    migrated = [_draw(1, (4,), 0), _draw(2, (3, 4), 0)]
    assert draw_match.reconcile(legacy, migrated) is None


def test_a_graph_site_drawn_on_every_step_is_not_comparable():
    legacy = [_draw(1, (2, 4), 0, graph=True, distribution="uniform")] * 3
    migrated = [_draw(i, (2, 4), i - 1, distribution="uniform") for i in (1, 2, 3)]
    reason = draw_match.reconcile(legacy, migrated)
    assert "per-step random op" in reason and "evaluated 3 times" in reason and "prog.py:1" in reason


def test_unmatched_draws_are_not_comparable():
    reason = draw_match.reconcile([_draw(1, (2,), 0, graph=True)], [_draw(1, (2,), 0), _draw(2, (2,), 1)])
    assert "drew 1 random tensors, the migrated one 2" in reason
    assert "normal[2] #1 at prog.py:2" in reason


def test_values_depend_on_distribution_shape_and_ordinal_only():
    import numpy as np

    first = random_draws._values("normal", (3,), 0, [], np.float32)
    assert np.array_equal(first, random_draws._values("normal", (3,), 0, [], np.float32))
    assert not np.array_equal(first, random_draws._values("normal", (3,), 1, [], np.float32))
    truncated = random_draws._values("truncated_normal", (1000,), 0, [], np.float64)
    assert np.abs(truncated).max() <= 2
    uniform = random_draws._values("uniform", (1000,), 0, [], np.float32)
    assert uniform.min() >= 0 and uniform.max() < 1
    ints = random_draws._values("uniform_int", (100,), 0, [3, 5], np.int32)
    assert set(ints.tolist()) == {3, 4}


@pytest.fixture
def tf1():
    tf = pytest.importorskip("tensorflow")
    with tf.Graph().as_default():
        yield tf.compat.v1


def _fetch_plan(tf1, build):
    """find_ambiguous for the fetches that ``build`` returns, with W a ref variable."""
    W = tf1.Variable(1.0, use_resource=False, name="W")
    loss = tf1.square(W - 3.0)
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss)
    fetches = build(W, loss, train)
    graph = tf1.get_default_graph()
    return fetch_order.find_ambiguous([graph.as_graph_element(f) for f in fetches])


def test_reading_an_updated_variable_is_ambiguous(tf1):
    assert _fetch_plan(tf1, lambda W, loss, train: [train, W]) == [1]
    assert _fetch_plan(tf1, lambda W, loss, train: [train, tf1.reduce_sum(W * 2.0)]) == [1]


def test_reads_the_update_depends_on_are_ordered(tf1):
    assert _fetch_plan(tf1, lambda W, loss, train: [train, loss]) == []
    assert _fetch_plan(tf1, lambda W, loss, train: [W]) == []
    assert _fetch_plan(tf1, lambda W, loss, train: [W.assign(W * 2.0)]) == []


def test_reads_after_a_control_dependency_are_ordered(tf1):
    def build(W, loss, train):
        with tf1.control_dependencies([train]):
            after = tf1.identity(W)
        return [train, after]

    assert _fetch_plan(tf1, build) == []


def test_unknown_dimension_prints_alike_in_tf1_and_tf2():
    from tf_migrate.verify.output_compare import first_difference

    assert first_difference("shape (?, 3) [?, 10]", "shape (None, 3) [None, 10]", rtol=1e-5, atol=1e-6) is None
    assert first_difference("what? (?, 3)", "what! (None, 3)", rtol=1e-5, atol=1e-6) is not None
