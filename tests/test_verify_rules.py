"""The verifier's rules, in-process: output comparison, magics, random draws, fetch order."""
import pytest

from tf_migrate.verify import draw_match, output_compare
from tf_migrate.verify.child import draw_values, fetch_order, notebook, random_draws


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


def _draw(n, shape, graph=False, distribution="normal", purpose="random", line=1):
    shape_key = ["?", *shape[1:]] if purpose != "init" and shape else list(shape)
    return {"event": "draw", "draw_class": [purpose, distribution, shape_key], "n": n, "shape": list(shape),
            "where": f"prog.py:{line}", "graph": graph}


def test_random_draws_reconcile_by_class_and_index_in_any_order():
    legacy = [_draw(0, (3, 4), graph=True, purpose="init"), _draw(0, (4,), graph=True, purpose="init")]
    migrated = [_draw(0, (4,), purpose="init"), _draw(0, (3, 4), purpose="init")]
    assert draw_match.reconcile(legacy, migrated) is None


def test_a_graph_site_drawn_on_every_step_matches_an_eager_call_per_step():
    legacy = [_draw(n, (2, 4), graph=True, distribution="uniform", purpose="dropout") for n in range(3)]
    migrated = [_draw(n, (2, 4), distribution="uniform", purpose="dropout") for n in range(3)]
    assert draw_match.reconcile(legacy, migrated) is None
    reason = draw_match.reconcile(legacy, migrated[:2])
    assert "drew 3 random tensors, the migrated one 2" in reason and "dropout uniform[2, 4] #2" in reason


def test_object_addresses_are_equal_whatever_their_value():
    assert diff("<Graph object at 0x7f77f270e340>", "<Graph object at 0x7fb9970cecc0>") is None
    assert diff("0x10", "0x11") is not None  # short hex numbers are values


def test_a_printed_tensorflow_module_is_the_same_module_in_both_runs():
    # (MichaelLedger's tensorflow_verify.py: `import tensorflow.compat.v1 as tf`, `print(tf)`)
    site = "/venv/lib/python3.11/site-packages/tensorflow"
    legacy = f"<module 'tensorflow._api.v2.compat.v1.compat.v1' from '{site}/_api/v2/compat/v1/compat/v1/__init__.py'>"
    assert diff(legacy, f"<module 'tensorflow' from '{site}/__init__.py'>") is None
    assert diff(f"<module 'tensorflow' from '{site}/__init__.py'>", f"<module 'numpy' from '{site}/__init__.py'>")


def test_a_printed_tensor_or_variable_class_is_the_same_class_in_both_runs():
    # (Hugo-magalhaes' `print(type(vector), vector)`, RM1708's `print("type(x): ", type(x))`)
    ops = "tensorflow.python.framework.ops"
    assert diff(f"<class '{ops}.SymbolicTensor'>", f"<class '{ops}.EagerTensor'>") is None
    assert diff("<class 'tensorflow.python.ops.variables.RefVariable'>",
                "<class 'tensorflow.python.ops.resource_variable_ops.ResourceVariable'>") is None
    legacy = "<tf.Variable 'v1_1:0' shape=() dtype=int32_ref> <class 'tensorflow.python.ops.ref_variable.RefVariable'>"
    assert diff(legacy, "<tf.Variable 'v1_1:0' shape=() dtype=int32, numpy=20> "
                        "<class 'tensorflow.python.ops.resource_variable_ops.ResourceVariable'>") is None
    assert diff(f"<class '{ops}.EagerTensor'>", "<class 'tensorflow.python.ops.variables.RefVariable'>")
    assert diff(f"<class '{ops}.SymbolicTensor'>", "<class 'numpy.ndarray'>")


def test_draws_inside_a_graph_while_loop_are_not_comparable():
    legacy = [dict(_draw(0, (2,), graph=True, purpose="dropout"), loop=True)]
    reason = draw_match.reconcile(legacy, [_draw(0, (2,), purpose="dropout")])
    assert "legacy program draws random values inside a while loop at prog.py:1" in reason


def test_a_repeated_draw_is_not_comparable():
    legacy = [_draw(0, (2,), graph=True), _draw(0, (2,), graph=True, line=7)]
    reason = draw_match.reconcile(legacy, [_draw(0, (2,)), _draw(1, (2,))])
    assert "legacy program drew random normal[2] #0 at prog.py:7 more than once" in reason


def test_draws_of_a_program_whose_counterpart_drew_nothing_do_not_matter():
    assert draw_match.reconcile([], [_draw(0, (2,), purpose="init")]) is None


def test_unmatched_draws_are_not_comparable():
    reason = draw_match.reconcile([_draw(0, (2,), graph=True)], [_draw(0, (2,)), _draw(1, (2,), line=2)])
    assert "drew 1 random tensors, the migrated one 2" in reason
    assert "random normal[2] #1 at prog.py:2" in reason


def test_values_depend_on_the_draw_key_and_shape_only():
    import numpy as np

    first = draw_values.values(("random", "normal", ("?",), 0), (3,), np.float32)
    assert np.array_equal(first, draw_values.values(("random", "normal", ("?",), 0), (3,), np.float32))
    assert not np.array_equal(first, draw_values.values(("random", "normal", ("?",), 1), (3,), np.float32))
    truncated = draw_values.values(("init", "truncated_normal", (1000,), 0), (1000,), np.float64)
    assert np.abs(truncated).max() <= 2
    uniform = draw_values.values(("random", "uniform", ("?",), 0), (1000,), np.float32)
    assert uniform.min() >= 0 and uniform.max() < 1
    ints = draw_values.values(("random", "uniform_int", ("?",), 0), (100,), np.int32, [3, 5])
    assert set(ints.tolist()) == {3, 4}


class _Log:
    user_files = ("prog.py",)
    line = 1

    def stack(self):
        return (("prog.py", self.line),)


def test_the_e_th_evaluation_of_site_c_of_m_draws_index_e_times_m_plus_c():
    log = _Log()
    sites = random_draws._Sites(None, log)
    dropout = ("dropout", "uniform", ("?", 16))

    class Graph:
        pass

    graph = Graph()
    first, second = sites.graph_site(dropout, graph), sites.graph_site(dropout, graph)
    retraced = sites.graph_site(dropout, Graph())  # a new trace of the same function: the same site
    assert retraced == first and first != second
    assert [sites.graph_index(first), sites.graph_index(second), sites.graph_index(first)] == [0, 1, 2]
    assert sites.eager_index(dropout) == 3
    log.line = 9
    late = sites.graph_site(dropout, Graph())  # built after the class was evaluated: draws next
    assert [sites.graph_index(late), sites.graph_index(second), sites.graph_index(first)] == [4, 5, 6]


def test_a_graph_built_after_a_reset_starts_its_own_pattern():
    """TF1's initializer of a graph built anew evaluates its sites in no defined order, as the first one's did."""
    log = _Log()
    sites = random_draws._Sites(None, log)
    init = ("init", "normal", (1, 1))

    class PlainGraph:
        building_function = False

    first_graph, second_graph = PlainGraph(), PlainGraph()
    a1, b1 = sites.graph_site(init, first_graph), sites.graph_site(init, first_graph)
    assert [sites.graph_index(b1), sites.graph_index(a1)] == [1, 0]
    log.line = 9  # after tf.reset_default_graph(): the same model, built at other lines
    a2, b2 = sites.graph_site(init, second_graph), sites.graph_site(init, second_graph)
    assert [sites.graph_index(b2), sites.graph_index(a2)] == [3, 2]  # not 2, 3: the eager program draws a2 first
    assert sites.graph_index(a1) == 4  # the first graph again: every draw takes the next index from then on
    assert sites.graph_index(a2) == 5


def test_the_purpose_of_a_draw_comes_from_tf_frames_not_the_programs():
    import sys

    def dropout_helper():  # a program function named like dropout does not count: it is a user frame
        return random_draws._purpose(sys._getframe(), (__file__,))

    assert dropout_helper() == "random"
    assert random_draws._shape_key("init", [784, 10]) == (784, 10)
    assert random_draws._shape_key("dropout", [None, 10]) == ("?", 10)
    assert random_draws._shape_key("random", []) == ()


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


def _backprop_by_hand(tf1):
    """Two layers updated by hand in one fetch: W1's update reads W2, which the other update writes."""
    W1 = tf1.Variable([[0.5]], use_resource=False, name="W1")
    W2 = tf1.Variable([[2.0]], use_resource=False, name="W2")
    x = tf1.constant([[1.0]])
    hidden = tf1.matmul(x, W1)
    error = tf1.matmul(hidden, W2) - 1.0
    d_W2 = tf1.matmul(tf1.transpose(hidden), error)
    d_W1 = tf1.matmul(tf1.transpose(x), tf1.matmul(error, tf1.transpose(W2)))
    step = [tf1.assign(W2, W2 - 0.1 * d_W2), tf1.assign(W1, W1 - 0.1 * d_W1)]
    graph = tf1.get_default_graph()
    return [graph.as_graph_element(f) for f in step]


def test_an_update_computed_from_another_updated_variable_races(tf1):
    step = _backprop_by_hand(tf1)
    assert fetch_order.racing_reads(step) == ["W1 reads W2"]
    assert fetch_order.find_ambiguous(step) == []  # an update is never run twice to pin an order


def test_an_optimizer_step_has_no_racing_reads(tf1):
    # tf.gradients gates each op's input gradients together, so W2's update waits for every read of W2.
    W1 = tf1.Variable([[0.5]], use_resource=False, name="W1")
    W2 = tf1.Variable([[2.0]], use_resource=False, name="W2")
    loss = tf1.reduce_sum(tf1.square(tf1.matmul(tf1.matmul(tf1.constant([[1.0]]), W1), W2) - 1.0))
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss)
    assert fetch_order.racing_reads([tf1.get_default_graph().as_graph_element(train)]) == []


def test_unknown_dimension_prints_alike_in_tf1_and_tf2():
    from tf_migrate.verify.output_compare import first_difference

    assert first_difference("shape (?, 3) [?, 10]", "shape (None, 3) [None, 10]", rtol=1e-5, atol=1e-6) is None
    assert first_difference("what? (?, 3)", "what! (None, 3)", rtol=1e-5, atol=1e-6) is not None
    # print(x.shape[0]) of an unknown dimension: TF1's Dimension prints `?`, TF2 None
    assert first_difference("?\nbatch ?\n256\n", "None\nbatch None\n256\n", rtol=1e-5, atol=1e-6) is None
    assert first_difference("?\n", "3\n", rtol=1e-5, atol=1e-6) is not None


def test_a_shapes_repr_reads_alike_in_tf1_and_tf2():
    """A notebook cell showing ``x.get_shape()``: TF1's shape of Dimensions, TF2's of ints (backstopmedia's
    tensorflowbook, chapter 5)."""
    from tf_migrate.verify.output_compare import first_difference

    legacy = "TensorShape([Dimension(2), Dimension(None), Dimension(3)])\nDimension(5)\n"
    assert first_difference(legacy, "TensorShape([2, None, 3])\n5\n", rtol=1e-5, atol=1e-6) is None
    assert first_difference(legacy, "TensorShape([2, 4, 3])\n5\n", rtol=1e-5, atol=1e-6) is not None
    assert first_difference("Dimension(5)\n", "6\n", rtol=1e-5, atol=1e-6) is not None


def test_printed_lists_of_graph_tensors_pair_their_reprs():
    from tf_migrate.verify.output_compare import first_difference

    # print(tf.unstack(x)): the elements show as reprs, TF1's without a value, TF2's with it
    legacy = "[<tf.Tensor 'unstack:0' shape=(2,) dtype=float64>, <tf.Tensor 'unstack:1' shape=(2,) dtype=float64>]\n"
    migrated = ("[<tf.Tensor: shape=(2,), dtype=float64, numpy=array([0.4, 0.9])>, "
                "<tf.Tensor: shape=(2,), dtype=float64, numpy=\narray([ 0.97, -0.15])>]\n")
    assert first_difference(legacy, migrated, rtol=1e-5, atol=1e-6) is None
    wrong_shape = migrated.replace("shape=(2,), dtype=float64, numpy=\n", "shape=(3,), dtype=float64, numpy=\n")
    assert first_difference(legacy, wrong_shape, rtol=1e-5, atol=1e-6) is not None
    traced = "[<tf.Tensor 'unstack:0' shape=(2,) dtype=float64>, <tf.Tensor 'x:1' shape=(2,) dtype=float64>]\n"
    assert first_difference(legacy, traced, rtol=1e-5, atol=1e-6) is None


def test_printed_graph_tensors_compare_by_dtype_and_shape_not_value():
    # TF1 prints a graph tensor's description, TF2 the same tensor with its value.
    legacy = ('Tensor("Const:0", shape=(), dtype=string)\n'
              'node: Tensor("Add:0", shape=(?, 3), dtype=float32)\n7.0\n'
              "<tf.Variable 'w:0' shape=(1,) dtype=float32_ref>\n")
    migrated = ("tf.Tensor(b'Hello', shape=(), dtype=string)\n"
                "node: tf.Tensor(\n[[1. 2. 3.]\n [4. 5. 6.]], shape=(2, 3), dtype=float32)\n7.0\n"
                "<tf.Variable 'w:0' shape=(1,) dtype=float32, numpy=array([0.3], dtype=float32)>\n")
    assert output_compare.first_difference(legacy, migrated, rtol=1e-5, atol=1e-6) is None
    # What both show still has to agree, and so does everything else.
    other_dtype = migrated.replace("dtype=string", "dtype=int32")
    assert "text" in output_compare.first_difference(legacy, other_dtype, rtol=1e-5, atol=1e-6)
    other_rank = migrated.replace("shape=(2, 3)", "shape=(6,)")
    assert output_compare.first_difference(legacy, other_rank, rtol=1e-5, atol=1e-6) is not None
    other_number = migrated.replace("7.0", "8.0")
    assert "value 7.0 != 8.0" in output_compare.first_difference(legacy, other_number, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("legacy", [
    "Neg: (Neg): /job:localhost/replica:0/task:0/device:CPU:0\nConst: (Const): /job:localhost/replica:0/task:0/device:CPU:0\n"
    "[[-1 -2]]\n",
    # the runtime's C buffer and the program's print met inside one line (BinRoot's session logging, under load)
    "Neg: (Neg): /job:localhost/replica:0/task:0/device:CPU:0[[-1 -2]]\nx: (Const): /job:localhost/replica:0/task:0/device:CPU:0\n",
])
def test_device_placement_log_entries_are_no_output(legacy):
    assert diff(legacy, "[[-1 -2]]\n") is None
    assert diff(legacy, "[[-1 -3]]\n") is not None


def test_text_like_a_placement_entry_without_a_device_is_output():
    assert diff("op: (Neg): /job:localhost\n", "\n") is not None


def test_draws_only_the_legacy_run_made_leave_the_output_to_judge():
    # A second initializer run drew the first model's variables again (`#1`), which eager code made once: the
    # verdict is the output's when it is equal (the variables, drawn apart, are not compared), else not comparable.
    from tf_migrate.verify.child_runs import Run
    from tf_migrate.verify.judge import judge
    first = [_draw(0, (4, 8), purpose="init"), _draw(0, (8, 2), purpose="init", line=2)]
    legacy_events = [dict(e, graph=True) for e in first] + [_draw(1, (4, 8), graph=True, purpose="init")]
    assert draw_match.legacy_drew_more(legacy_events, first)
    assert not draw_match.legacy_drew_more(first, legacy_events) and not draw_match.legacy_drew_more(first, first)
    state = [("dense/kernel", [[1.0]], [[0.5]])]

    def run(stdout, events, initial):
        return Run(0, stdout, "", False, 60.0, events=events, state=[(n, v, [[initial]]) for n, v, _ in state])

    status, detail = judge([run("True\n", legacy_events, 0.5)], run("True\n", first, 0.7), rtol=1e-5, atol=1e-6)
    assert status == "equivalent" and "variables not compared" in detail
    status, detail = judge([run("True\n", legacy_events, 0.5)], run("False\n", first, 0.5), rtol=1e-5, atol=1e-6)
    assert status == "not-comparable" and detail.startswith("random draws differ")
