"""verify_program on small hand-written legacy/migrated pairs.

Each call starts two TensorFlow subprocesses (~5-10 s), so each case checks
what it can from one call.
"""
import json
import os
import tempfile
import textwrap

import pytest

from tf_migrate.verify.child import notebook as child_notebook
from tf_migrate.verify import run_program, verify_program


def _src(text):
    return textwrap.dedent(text).lstrip()


LEGACY_LINEAR = _src(
    """
    import numpy as np
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 1])
    W = tf.Variable(tf.zeros([2, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, W) - y))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    data = np.random.RandomState(0).rand(8, 2).astype(np.float32)
    target = data.sum(axis=1, keepdims=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            _, l = sess.run([train, loss], {x: data, y: target})
            print("step", step, "loss", l)
        print("W", sess.run(W).ravel())
    """
)

MIGRATED_LINEAR = _src(
    """
    import numpy as np
    import tensorflow as tf

    W = tf.Variable(tf.zeros([2, 1]))
    opt = tf.keras.optimizers.SGD(0.1)
    data = np.random.RandomState(0).rand(8, 2).astype(np.float32)
    target = data.sum(axis=1, keepdims=True)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, W) - y))
        opt.apply_gradients([(tape.gradient(loss, W), W)])
        return loss.numpy()

    for step in range(3):
        l = train_step(data, target)
        print("step", step, "loss", l)
    print("W", W.numpy().ravel())
    """
)


def verify(legacy, migrated, tmp_path, **kwargs):
    return verify_program(legacy, migrated, path=tmp_path / "prog.py", **kwargs)


def test_equivalent_pair(tmp_path):
    result = verify(LEGACY_LINEAR, MIGRATED_LINEAR, tmp_path)
    assert result.status == "equivalent", result.detail
    assert "step 2 loss" in result.legacy_output
    assert result.legacy_output.count("\n") == result.migrated_output.count("\n") == 4
    assert result.seconds > 0


def test_different_numbers_name_the_value_and_line(tmp_path):
    migrated = MIGRATED_LINEAR.replace("SGD(0.1)", "SGD(0.11)")
    result = verify(LEGACY_LINEAR, migrated, tmp_path)
    assert result.status == "different"
    assert "value" in result.detail and "line 2" in result.detail, result.detail
    assert "step 1 loss" in result.detail


def test_text_difference(tmp_path):
    result = verify(LEGACY_LINEAR, MIGRATED_LINEAR.replace('"W", W', '"weights", W'), tmp_path)
    assert result.status == "different"
    assert "'W' != 'weights'" in result.detail and "line 4" in result.detail, result.detail


def test_legacy_fails_and_migrated_fails(tmp_path):
    broken = LEGACY_LINEAR.replace("print(\"W\", sess.run(W).ravel())", "print(sess.run(undefined_name))")
    result = verify(broken, MIGRATED_LINEAR, tmp_path)
    assert result.status == "legacy-fails"
    assert "NameError: name 'undefined_name' is not defined" in result.detail
    result = verify(LEGACY_LINEAR, MIGRATED_LINEAR.replace("W.numpy()", "W.nump()"), tmp_path)
    assert result.status == "migrated-fails"
    assert "AttributeError" in result.detail and "nump" in result.detail, result.detail
    assert "step 2 loss" in result.migrated_output  # what it printed before failing


def test_hanging_program_and_its_children_are_killed(tmp_path):
    pids = tmp_path / "pids.json"
    hanging = _src(
        f"""
        import json, os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        json.dump([os.getpid(), child.pid], open({str(pids)!r}, "w"))
        print("started", flush=True)
        time.sleep(600)
        """
    )
    result = verify('print("started")\n', hanging, tmp_path, timeout=30)
    assert result.status == "migrated-fails"
    assert "timed out after 30 s" in result.detail
    assert result.migrated_output == "started\n"
    assert result.seconds < 60
    for pid in json.loads(pids.read_text()):
        assert not _alive(pid)


def _alive(pid):
    """True for a running process; a killed one may linger as a zombie until reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def test_a_legacy_run_that_computes_but_prints_and_keeps_nothing_is_not_comparable(tmp_path):
    legacy = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\nwith tf.Session() as s:\n    s.run(x * 2, {x: 1.0})\n"
    result = verify(legacy, "x = None\n", tmp_path)
    assert result.status == "not-comparable"
    assert "printed nothing" in result.detail


def test_local_modules_and_compat_v1_import_work_in_the_legacy_run(tmp_path):
    (tmp_path / "helpers.py").write_text("import tensorflow as tf\n\ndef feed():\n    return tf.placeholder(tf.float32)\n")
    legacy = _src(
        """
        import tensorflow.compat.v1 as tf
        import helpers
        tf.disable_v2_behavior()
        x = helpers.feed()
        with tf.Session() as sess:
            print(sess.run(x * 2, {x: 21.0}))
        """
    )
    result = verify(legacy, "print(42.0)\n", tmp_path)
    assert result.status == "equivalent", result.detail


def test_no_temporary_files_are_left_behind(tmp_path, monkeypatch):
    temp_root = tmp_path / "tmp"
    temp_root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp_root))
    leaky = 'import tempfile\nopen(tempfile.mkdtemp() + "/f.txt", "w").write("x")\nprint(1)\n'
    result = verify(leaky, leaky, tmp_path)
    assert result.status == "equivalent", result.detail
    assert list(temp_root.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tmp"]


LEGACY_RANDOM_INIT = _src(
    """
    import numpy as np
    import tensorflow as tf

    W1 = tf.Variable(tf.random_normal([3, 4], stddev=0.5, seed=1))
    W2 = tf.Variable(tf.truncated_normal([4, 2], stddev=0.1))
    W3 = tf.get_variable("W3", [2, 2])  # glorot_uniform, TF1's default
    b = tf.Variable(tf.random_uniform([2], -1.0, 1.0, seed=7))
    x = tf.placeholder(tf.float32, [None, 3])
    out = tf.matmul(tf.matmul(tf.matmul(x, W1), W2), W3) + b
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(out, {x: np.ones((2, 3))}))
        print(sess.run(W1)[0])
    """
)

MIGRATED_RANDOM_INIT = _src(
    """
    import numpy as np
    import tensorflow as tf

    W1 = tf.Variable(tf.random.normal([3, 4], stddev=0.5, seed=1))
    W2 = tf.Variable(tf.random.truncated_normal([4, 2], stddev=0.1))
    W3 = tf.Variable(tf.keras.initializers.GlorotUniform()([2, 2]))
    b = tf.Variable(tf.random.uniform([2], -1.0, 1.0, seed=7))

    @tf.function
    def forward(x):
        return tf.matmul(tf.matmul(tf.matmul(x, W1), W2), W3) + b

    print(forward(np.ones((2, 3), np.float32)).numpy())
    print(W1.numpy()[0])
    """
)


def test_initializer_draws_are_shared(tmp_path):
    result = verify(LEGACY_RANDOM_INIT, MIGRATED_RANDOM_INIT, tmp_path)
    assert result.status == "equivalent", result.detail + result.legacy_output + result.migrated_output


def test_swapped_draws_of_one_shape_are_different(tmp_path):
    legacy = _src(
        """
        import tensorflow as tf
        a = tf.Variable(tf.random_normal([2]))
        b = tf.Variable(tf.random_normal([2]))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run([a, b]))
        """
    )
    migrated = _src(
        """
        import tensorflow as tf
        b = tf.Variable(tf.random.normal([2]))
        a = tf.Variable(tf.random.normal([2]))
        print([a.numpy(), b.numpy()])
        """
    )
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "different", result.detail


SESSIONS_THEN_RUN = _src(
    """
    import tensorflow as tf
    w = tf.Variable(tf.random_normal([2, 3], seed=SEED))
    sess = tf.Session()
    sess.run(w.initializer)
    first = sess.run(w)
    sess.close()
    sess = tf.Session()
    sess.run(w.initializer)
    print(sess.run(w))
    """
)


def test_a_seeded_op_draws_its_values_again_in_a_new_session(tmp_path):
    # TF1 makes each session's kernels anew: a seeded op's sequence starts over in the second session
    migrated = "import tensorflow as tf\nw = tf.Variable(tf.random.normal([2, 3], seed=1))\nprint(w.numpy())\n"
    result = verify(SESSIONS_THEN_RUN.replace("SEED", "1"), migrated, tmp_path)
    assert result.status == "equivalent", result.detail
    # unseeded, the second session draws other values: the migrated program's one draw is not TF1's
    result = verify(SESSIONS_THEN_RUN.replace("SEED", "None"), migrated.replace("seed=1", "seed=None"), tmp_path)
    assert result.status == "not-comparable", result.detail
    # in one session, a second evaluation draws the next values, seeded or not
    again = SESSIONS_THEN_RUN.replace("SEED", "1").replace("sess.close()\nsess = tf.Session()\n", "")
    assert verify(again, migrated, tmp_path).status == "not-comparable"


def test_a_compat_output_draws_a_seeded_ops_values_again_in_a_new_session_as_the_legacy_program(tmp_path):
    # chiphuyen's 05_randomization kept compat: the compat run must redraw as the legacy run does (it drew one
    # tensor more, and was called not comparable)
    legacy = SESSIONS_THEN_RUN.replace("SEED", "1")
    head = "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"
    compat = head + legacy.replace("import tensorflow as tf\n", "")
    result = verify(legacy, compat, tmp_path)
    assert result.status == "equivalent", result.detail


LEGACY_DROPOUT = _src(
    """
    import numpy as np
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 4])
    w = tf.Variable(tf.ones([4, 1]))
    h = tf.nn.dropout(x, keep_prob=0.5)
    loss = tf.reduce_sum(tf.matmul(h, w))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(STEPS):
            print(sess.run([train, loss], {x: np.ones((2, 4))})[1])
    """
)

MIGRATED_DROPOUT = _src(
    """
    import numpy as np
    import tensorflow as tf

    w = tf.Variable(tf.ones([4, 1]))
    opt = tf.keras.optimizers.SGD(0.01)
    for step in range(STEPS):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(tf.nn.dropout(np.ones((2, 4), np.float32), rate=0.5), w))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        print(loss.numpy())
    """
)


MIGRATED_DROPOUT_COMPILED = _src(
    """
    import numpy as np
    import tensorflow as tf

    w = tf.Variable(tf.ones([4, 1]))
    opt = tf.keras.optimizers.SGD(0.01)

    @tf.function
    def train(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(tf.nn.dropout(x, rate=0.5), w))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    for step in range(STEPS):
        print(train(np.ones((2, 4), np.float32)).numpy())
    """
)


def test_a_dropout_mask_drawn_every_step_is_aligned_with_eager_calls(tmp_path):
    result = verify(LEGACY_DROPOUT.replace("STEPS", "3"), MIGRATED_DROPOUT.replace("STEPS", "3"), tmp_path)
    assert result.status == "equivalent", result.detail
    assert result.detail == "equal output, 1 trained variable equal", result.detail


def test_a_dropout_mask_drawn_every_step_is_aligned_with_a_compiled_step(tmp_path):
    legacy = LEGACY_DROPOUT.replace("STEPS", "3")
    result = verify(legacy, MIGRATED_DROPOUT_COMPILED.replace("STEPS", "3"), tmp_path)
    assert result.status == "equivalent", result.detail


def test_one_step_of_dropout_is_comparable_but_eager_redraws_are_not(tmp_path):
    result = verify(LEGACY_DROPOUT.replace("STEPS", "1"), MIGRATED_DROPOUT.replace("STEPS", "1"), tmp_path)
    assert result.status == "equivalent", result.detail
    result = verify(LEGACY_DROPOUT.replace("STEPS", "1"), MIGRATED_DROPOUT.replace("STEPS", "2"), tmp_path)
    assert result.status == "not-comparable"
    assert "the legacy program drew 1 random tensors, the migrated one 2" in result.detail, result.detail


def test_shuffles_are_shared(tmp_path):
    legacy = "import tensorflow as tf\nwith tf.Session() as s:\n    print(s.run(tf.random_shuffle(tf.range(9))))\n"
    migrated = "import tensorflow as tf\nprint(tf.random.shuffle(tf.range(9)).numpy())\n"
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "equivalent", result.detail
    assert result.legacy_output.split() != ["[0", "1", "2", "3", "4", "5", "6", "7", "8]"]


def test_unshared_random_ops_are_not_comparable(tmp_path):
    legacy = "import tensorflow as tf\nwith tf.Session() as s:\n    print(s.run(tf.multinomial([[0.0, 0.0]], 5)))\n"
    migrated = "import tensorflow as tf\nprint(tf.random.categorical([[0.0, 0.0]], 5).numpy())\n"
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "not-comparable"
    assert "the legacy program uses the random op multinomial" in result.detail, result.detail


def test_a_program_that_takes_a_port_runs_each_side_alone_when_its_twin_holds_the_port(tmp_path):
    """Both sides run at once; a gRPC server on a fixed port fails in the side that comes second."""
    program = ("import time\nimport tensorflow as tf\n"
               "cluster = tf.train.ClusterSpec({'local': ['localhost:23457']})\n"
               "server = tf.train.Server(cluster, job_name='local', task_index=0)\ntime.sleep(4)\nprint(42)\n")
    migrated = program.replace("import tensorflow as tf", "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()")
    result = verify(program, migrated, tmp_path)
    assert result.status == "equivalent", result.detail


def test_the_migrated_folder_printed_by_the_program_reads_as_the_legacy_folder(tmp_path):
    program = "import os\nprint('saved to', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'model'))\n"
    (tmp_path / "src").mkdir()
    (tmp_path / "out").mkdir()
    result = verify_program(program, program, path=tmp_path / "src" / "prog.py",
                            migrated_path=tmp_path / "out" / "prog.py")
    assert result.status == "equivalent", result.detail
    assert "/out/" in result.migrated_output


def test_unseeded_host_random_draws_are_the_same_in_both_runs(tmp_path):
    """The TF1 setup draws from Python's `random`; both programs still start from the same state."""
    legacy = "import random\nimport tensorflow as tf\nprint(random.randint(0, 10 ** 9), tf.constant(1).shape)\n"
    migrated = legacy
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "equivalent", result.detail


def test_nce_loss_candidates_are_shared_and_other_samplers_are_not_comparable(tmp_path):
    """nce_loss draws its negative classes with the log-uniform sampler at every step: both runs get the same."""
    legacy = _src(
        """
        import numpy as np
        import tensorflow as tf
        W = tf.Variable(np.linspace(-1, 1, 40, dtype=np.float32).reshape(10, 4))
        b = tf.Variable(tf.zeros([10]))
        x = tf.placeholder(tf.float32, [2, 4])
        y = tf.placeholder(tf.int64, [2, 1])
        loss = tf.reduce_mean(tf.nn.nce_loss(W, b, y, x, num_sampled=3, num_classes=10))
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        data = np.arange(8, dtype=np.float32).reshape(2, 4) / 8
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for _ in range(4):
                print(s.run([train, loss], {x: data, y: [[1], [7]]})[1])
        """
    )
    migrated = _src(
        """
        import numpy as np
        import tensorflow as tf
        W = tf.Variable(np.linspace(-1, 1, 40, dtype=np.float32).reshape(10, 4))
        b = tf.Variable(tf.zeros([10]))
        opt = tf.keras.optimizers.SGD(0.5)
        data = np.arange(8, dtype=np.float32).reshape(2, 4) / 8

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.nn.nce_loss(W, b, tf.constant([[1], [7]], tf.int64), data, 3, 10))
            opt.apply_gradients(zip(tape.gradient(loss, [W, b]), [W, b]))
            return loss

        for _ in range(4):
            print(step().numpy())
        """
    )
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "equivalent", result.detail
    assert len(set(result.legacy_output.split())) == 4  # the losses move: the candidates drawn matter
    sampled = "tf.random.uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 3, True, 10)[0]"
    result = verify(f"import tensorflow as tf\nwith tf.Session() as s:\n    print(s.run({sampled}))\n",
                    f"import tensorflow as tf\nprint({sampled}.numpy())\n", tmp_path)
    assert result.status == "not-comparable", result.detail
    assert "uniform_candidate_sampler" in result.detail, result.detail


LEGACY_AMBIGUOUS = _src(
    """
    import tensorflow as tf

    W = tf.Variable(1.0)
    loss = tf.square(W - 3.0)
    train = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(2):
            _, w = sess.run([train, W])
            print("W", w)
    """
)


def _migrated_ambiguous(read_first):
    read, update = "w = W.numpy()", "opt.apply_gradients([(tape.gradient(loss, W), W)])"
    body = f"{read}\n    {update}" if read_first else f"{update}\n    {read}"
    return _src(
        """
        import tensorflow as tf

        W = tf.Variable(1.0)
        opt = tf.keras.optimizers.SGD(0.25)
        for step in range(2):
            with tf.GradientTape() as tape:
                loss = tf.square(W - 3.0)
            BODY
            print("W", w)
        """
    ).replace("BODY", body)


@pytest.mark.parametrize("read_first", [True, False], ids=["read-before-update", "update-before-read"])
def test_unordered_read_and_update_accepts_either_order(tmp_path, read_first):
    result = verify(LEGACY_AMBIGUOUS, _migrated_ambiguous(read_first), tmp_path)
    assert result.status == "equivalent", result.detail
    order = "read-before-update" if read_first else "update-before-read"
    assert f"matches the {order} order" in result.detail
    assert "prog.py:9" in result.detail


def test_unordered_read_and_update_is_not_tolerant_elsewhere(tmp_path):
    result = verify(LEGACY_AMBIGUOUS, _migrated_ambiguous(True).replace("0.25", "0.3"), tmp_path)
    assert result.status == "different"
    assert "matches neither order" in result.detail


def test_a_failure_that_tf1s_open_order_decides_is_not_comparable(tmp_path):
    # aymericdamien tensorboard_advanced on the trial's data: a gradient histogram overflows or not depending
    # on whether the run reads the variables before or after its update; TF1 leaves that order open.
    check = 'assert w < 1.2, "read after the update"\n{indent}print("W", w)'
    legacy = LEGACY_AMBIGUOUS.replace("range(2)", "range(1)").replace(
        'print("W", w)', check.format(indent=" " * 8))
    migrated = _migrated_ambiguous(False).replace("range(2)", "range(1)").replace(
        'print("W", w)', check.format(indent=" " * 4))
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "not-comparable", result.detail
    assert "the order decides whether the program fails" in result.detail and "prog.py:9" in result.detail
    # A migrated run that fails where TF1 passes in either order is the migration's failure.
    other = verify(legacy.replace("w < 1.2", "w < 5"), migrated.replace("w < 1.2", "w < 0"), tmp_path)
    assert other.status == "migrated-fails", other.detail


LEGACY_RACING = _src(
    """
    import tensorflow as tf

    W = tf.Variable(1.0)
    loss = tf.square(W - 3.0)
    train = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
    clip = W.assign(tf.clip_by_value(W, -1.2, 1.2))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            _, l, _ = sess.run([train, loss, clip])
        print("W", sess.run(W))
    """
)


def _migrated_racing(clip_last):
    update, clip = "opt.apply_gradients([(tape.gradient(loss, W), W)])", "W.assign(tf.clip_by_value(W, -1.2, 1.2))"
    return _src(
        """
        import tensorflow as tf

        W = tf.Variable(1.0)
        opt = tf.keras.optimizers.SGD(0.25)
        for step in range(3):
            with tf.GradientTape() as tape:
                loss = tf.square(W - 3.0)
            FIRST
            SECOND
        print("W", W.numpy())
        """
    ).replace("FIRST", update if clip_last else clip).replace("SECOND", clip if clip_last else update)


def test_two_unordered_writes_of_a_variable_are_not_comparable_when_the_outputs_differ(tmp_path):
    legacy_order = verify(LEGACY_RACING, _migrated_racing(clip_last=True), tmp_path)
    other_order = verify(LEGACY_RACING, _migrated_racing(clip_last=False), tmp_path)
    verdicts = {legacy_order.status, other_order.status}
    assert verdicts == {"equivalent", "not-comparable"}, (legacy_order.detail, other_order.detail)
    racing = legacy_order if legacy_order.status == "not-comparable" else other_order
    assert "updates Variable twice with no order" in racing.detail and "prog.py:10" in racing.detail


def _notebook(*cells):
    return json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None}
                  for c in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 4,
    })


LEGACY_NOTEBOOK = _notebook(
    "%matplotlib inline\nimport numpy as np\nimport tensorflow as tf",
    # tf.to_float logs a deprecation warning: to stdout in a kernel, which is not output
    "x = tf.placeholder(tf.float32, [3])\nv = tf.Variable([1.0, 2.0, 3.0])\ny = tf.reduce_sum(v * tf.to_float(x))",
    "!echo shell says hi\nsess = tf.Session()\nsess.run(tf.global_variables_initializer())",
    "print('y =', sess.run(y, {x: np.ones(3)}))\nsess.run(tf.gradients(y, v), {x: np.arange(3.0)})[0]",
)
MIGRATED_NOTEBOOK = _notebook(
    "%matplotlib inline\nimport numpy as np\nimport tensorflow as tf",
    "v = tf.Variable([1.0, 2.0, 3.0])\ndef y(x):\n    return tf.reduce_sum(v * x)",
    "!echo shell says hi",
    "print('y =', y(np.ones(3, np.float32)).numpy())\n"
    "with tf.GradientTape() as tape:\n    out = y(np.arange(3.0, dtype=np.float32))\n"
    "tape.gradient(out, v).numpy()",
)


def test_notebook_as_one_script(tmp_path):
    result = verify_program(LEGACY_NOTEBOOK, MIGRATED_NOTEBOOK, path=tmp_path / "nb.ipynb", kind="ipynb",
                            notebook_runner="script")
    assert result.status == "equivalent", result.detail
    assert result.legacy_output == "y = 6.0\narray([0., 1., 2.], dtype=float32)\n"


@pytest.mark.skipif(not child_notebook.kernel_available(), reason="needs nbclient and ipykernel")
def test_notebook_in_a_jupyter_kernel(tmp_path):
    result = verify_program(LEGACY_NOTEBOOK, MIGRATED_NOTEBOOK, path=tmp_path / "nb.ipynb", kind="ipynb",
                            notebook_runner="kernel")
    assert result.status == "equivalent", result.detail
    assert result.legacy_output.split() == "shell says hi y = 6.0 array([0., 1., 2.], dtype=float32)".split()
    different = MIGRATED_NOTEBOOK.replace("np.arange(3.0", "np.arange(1.0, 4.0")
    result = verify_program(LEGACY_NOTEBOOK, different, path=tmp_path / "nb.ipynb", kind="ipynb",
                            notebook_runner="kernel")
    assert result.status == "different", result.detail


def test_bad_arguments_are_rejected(tmp_path):
    with pytest.raises(ValueError, match="kind"):
        verify_program("", "", path=tmp_path / "x.py", kind="txt")
    with pytest.raises(ValueError, match="notebook_runner"):
        verify_program("", "", path=tmp_path / "x.ipynb", kind="ipynb", notebook_runner="lab")



def test_migrated_siblings_and_a_data_folder(tmp_path):
    """``migrated_path`` puts the migrated helper modules first; ``workdir`` brings the data files."""
    for folder, scale in (("legacy", "tf.constant(3.0)"), ("migrated", "3.0")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "helper.py").write_text(f"import tensorflow as tf\nSCALE = {scale}\n")
    data = tmp_path / "data"
    data.mkdir()
    (data / "numbers.txt").write_text("1 2 3\n")
    legacy = _src(
        """
        import numpy as np
        import tensorflow as tf
        from helper import SCALE
        x = tf.placeholder(tf.float32, [3])
        with tf.Session() as sess:
            print(sess.run(x * SCALE, {x: np.loadtxt("numbers.txt")}))
        """
    )
    migrated = _src(
        """
        import numpy as np
        from helper import SCALE
        assert isinstance(SCALE, float), "the legacy helper was imported"
        print(np.loadtxt("numbers.txt").astype(np.float32) * SCALE)
        """
    )
    result = verify_program(legacy, migrated, path=tmp_path / "legacy" / "main.py",
                            migrated_path=tmp_path / "migrated" / "main.py", workdir=data)
    assert result.status == "equivalent", result.detail
    assert result.legacy_output.split() == ["[3.", "6.", "9.]"]
    for run in (result.legacy, result.migrated):
        assert not run.failed and not run.timed_out and run.error == "" and 0 < run.seconds < result.seconds
    assert (data / "numbers.txt").read_text() == "1 2 3\n" and sorted(p.name for p in data.iterdir()) == ["numbers.txt"]


def test_run_summaries_say_how_a_run_ended():
    from tf_migrate.verify.child_runs import Run as _Run

    crashed = _Run(1, "", "Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: bad\n", False, 60.0, 2.5)
    assert crashed.summary().failed and not crashed.summary().timed_out and crashed.summary().seconds == 2.5
    assert crashed.summary().error.endswith("ValueError: bad")
    killed = _Run(None, "", "", True, 60.0, 60.1).summary()
    assert killed.failed and killed.timed_out and killed.error.startswith("timed out after 60 s")
    assert _Run(0, "ok\n", "", False, 60.0, 1.0).summary().error == ""


def test_run_program_runs_one_legacy_program_alone_with_or_without_the_fetch_order_pin(tmp_path):
    source = _src(
        """
        import tensorflow as tf
        print(tf.executing_eagerly(), tf.Session.run.__module__)
        """
    )
    pinned = run_program(source, path=tmp_path / "p.py", mode="legacy")
    plain = run_program(source, path=tmp_path / "p.py", mode="legacy", pin_fetch_order=False)
    assert not pinned.failed and not plain.failed, pinned.stderr + plain.stderr
    assert pinned.stdout.split() == ["False", "_tf_migrate_verify_fetch_order"]
    assert plain.stdout.split() == ["False", "tensorflow.python.client.session"]
    with pytest.raises(ValueError):
        run_program(source, path=tmp_path / "p.py", mode="graph")


LEGACY_TRAINED = _src(
    """
    import numpy as np
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 3])
    W1 = tf.Variable(tf.random_normal([3, 4]), name="W1")
    W2 = tf.Variable(tf.zeros([4, 2]), name="W2")
    loss = tf.reduce_mean(tf.square(tf.matmul(tf.matmul(x, W1), W2) - 1.0))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train, {x: np.ones((2, 3))})
    print("done")
    """
)

MIGRATED_TRAINED = _src(
    """
    import numpy as np
    import tensorflow as tf

    W1 = tf.Variable(tf.random.normal([3, 4]), name="W1")
    W2 = tf.Variable(tf.zeros([4, 2]), name="W2")
    opt = tf.keras.optimizers.SGD(0.1)
    x = np.ones((2, 3), np.float32)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(tf.matmul(x, W1), W2) - 1.0))
        opt.apply_gradients(zip(tape.gradient(loss, [W1, W2]), [W1, W2]))
    print("done")
    """
)


def test_trained_variables_are_compared_after_both_runs(tmp_path):
    result = verify(LEGACY_TRAINED, MIGRATED_TRAINED, tmp_path)
    assert result.status == "equivalent", result.detail
    assert result.detail == "equal output, 2 trained variables equal"


def test_a_flipped_initializer_is_caught_at_its_variable(tmp_path):
    broken = MIGRATED_TRAINED.replace("tf.zeros([4, 2])", "tf.ones([4, 2])")
    result = verify(LEGACY_TRAINED, broken, tmp_path)
    assert result.status == "different", result.detail
    assert result.detail.startswith("equal output, but initial value of W2 differs: 0.0 != 1.0 at W2[0, 0]"), result.detail


def test_the_migrated_environment_reaches_the_migrated_side_only(tmp_path):
    """The trial's rounding control runs the compat side on TF's other kernels (TF_ENABLE_ONEDNN_OPTS=0)."""
    program = "import os\nprint(os.environ.get('TF_MIGRATE_SIDE_ONLY', 'unset'))\n"
    path = tmp_path / "side.py"
    path.write_text(program)
    result = verify_program(program, program, path=path, migrated_environment={"TF_MIGRATE_SIDE_ONLY": "set"})
    assert result.status == "different"
    assert "'unset' != 'set'" in result.detail, result.detail


def test_a_program_that_selects_legacy_keras_before_its_tensorflow_import_gets_it(tmp_path):
    # The verifier imported TensorFlow before the program ran, and `from tensorflow.keras import` reads the switch
    # at TensorFlow's import: the migrated run got Keras 3 where a user's fresh process gets Keras 2 (probe 24).
    legacy = "from tensorflow.keras import layers\nprint(layers.Dense.__module__.split('.')[0])\n"
    migrated = 'import os\nos.environ.setdefault("TF_USE_LEGACY_KERAS", "1")\n' + legacy
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "equivalent" and result.migrated_output == result.legacy_output, result.detail
    assert result.legacy_output.strip() == "tf_keras"
