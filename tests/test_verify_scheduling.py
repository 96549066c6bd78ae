"""`--verify` where TF1's scheduler or the clock, not the migration, decides what a run prints:
updates fetched together that read each other's variables, sessions run from worker threads,
printed durations, and sessions of reset graphs that reuse variable names."""
from tests.test_verify import _src, verify
from tf_migrate.verify import run_program


LEGACY_BACKPROP = _src(
    """
    import tensorflow as tf

    W1 = tf.Variable([[0.5]], name="W1")
    W2 = tf.Variable([[3.0]], name="W2")
    hidden = tf.matmul(tf.constant([[1.0]]), W1)
    error = tf.matmul(hidden, W2) - 1.0
    d_W1 = tf.matmul(error, tf.transpose(W2))
    step = [tf.assign(W2, W2 - 0.1 * tf.matmul(tf.transpose(hidden), error)), tf.assign(W1, W1 - 0.1 * d_W1)]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(3):
            sess.run(step)
        print(sess.run([W1, W2]))
    """
)

MIGRATED_BACKPROP = _src(
    """
    import tensorflow as tf

    W1 = tf.Variable([[0.5]])
    W2 = tf.Variable([[3.0]])
    for i in range(3):
        hidden = tf.matmul(tf.constant([[1.0]]), W1)
        error = tf.matmul(hidden, W2) - 1.0
        d_W1 = tf.matmul(error, tf.transpose(W2))
        d_W2 = tf.matmul(tf.transpose(hidden), error)
        W2.assign(W2 - 0.1 * d_W2)
        W1.assign(W1 - 0.1 * d_W1)
    print([W1.numpy(), W2.numpy()])
    """
)


def test_fetched_updates_are_applied_once_and_their_racing_reads_named(tmp_path):
    # W1's update reads W2, which the other fetched update writes: TF1's scheduler picks the value read.
    # The verifier must not run W1's update a second time to pin an order (it did: W1 moved twice).
    result = verify(LEGACY_BACKPROP, MIGRATED_BACKPROP, tmp_path)
    assert result.status == "equivalent", result.detail
    other = verify(LEGACY_BACKPROP, MIGRATED_BACKPROP.replace("0.1 * d_W1", "0.2 * d_W1"), tmp_path)
    assert other.status == "not-comparable", other.detail
    assert "W1 reads W2" in other.detail and "prog.py:12" in other.detail


def test_racing_reads_that_change_only_the_trained_values_are_not_comparable(tmp_path):
    # hunkim lab-10-X1 (hand-written backprop): it prints accuracies, which agree; the trained values
    # depend on which W2 the W1 update read, which TF1's scheduler picks.
    legacy = LEGACY_BACKPROP.replace("print(sess.run([W1, W2]))", "print('trained')")
    migrated = MIGRATED_BACKPROP.replace("0.1 * d_W1", "0.2 * d_W1").replace(
        "print([W1.numpy(), W2.numpy()])", "print('trained')")
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "not-comparable", result.detail
    assert "W1 reads W2" in result.detail and "equal output" in result.detail


LEGACY_THREADS = _src(
    """
    import threading
    import tensorflow as tf

    W = tf.Variable(1.0)
    step = W.assign_add(1.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        workers = [threading.Thread(target=lambda: sess.run(step)) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        print("W", sess.run(W))
    """
)


def test_sessions_run_from_worker_threads_are_not_comparable_when_outputs_differ(tmp_path):
    migrated = "import tensorflow as tf\nW = tf.Variable(1.0)\nW.assign_add(1.0)\nW.assign_add(1.0)\nprint('W', W.numpy())\n"
    assert verify(LEGACY_THREADS, migrated, tmp_path).status == "equivalent"
    other = verify(LEGACY_THREADS, migrated.replace("(1.0)\nprint", "(2.0)\nprint"), tmp_path)
    assert other.status == "not-comparable", other.detail
    assert "worker thread" in other.detail and "prog.py:8" in other.detail


LEGACY_TIMED = _src(
    """
    import time
    import tensorflow as tf

    start = time.time()
    with tf.Session() as sess:
        print(sess.run(tf.constant(2.0) * 3.0))
    time.sleep(0.3)
    print("Took: %f seconds" % (time.time() - start), time.perf_counter() > 0)
    """
)


def test_a_programs_own_clock_reads_tick_alike_in_both_runs(tmp_path):
    migrated = "import time\nimport tensorflow as tf\nstart = time.time()\nprint((tf.constant(2.0) * 3.0).numpy())\n" \
               "print('Took: %f seconds' % (time.time() - start), time.perf_counter() > 0)\n"
    result = verify(LEGACY_TIMED, migrated, tmp_path)
    assert result.status == "equivalent", result.detail
    assert "Took: 0.001000 seconds True" in result.legacy_output
    # A measurement keeps the real clock: there the timing is the result.
    run = run_program(LEGACY_TIMED, path=tmp_path / "timed.py", mode="legacy")
    took = float(run.stdout.split("Took: ")[1].split()[0])
    assert took >= 0.3, run.stdout


def test_clock_reads_of_the_programs_modules_and_datetime_tick_alike_in_both_runs(tmp_path):
    # Before: a helper module's timing and a datetime stamp differed between the runs (`not-comparable`, or
    # `different` for a project's training log).
    (tmp_path / "timing.py").write_text("import time\n\ndef timed(f):\n    start = time.time()\n    out = f()\n"
                                        "    return out, time.time() - start\n")
    legacy = ("import datetime\nimport tensorflow as tf\nfrom timing import timed\nx = tf.placeholder(tf.float32, [])\n"
              "with tf.Session() as sess:\n    out, took = timed(lambda: sess.run(x * 3, {x: 2.0}))\n"
              "    print(out, 'took %.4f' % took, datetime.datetime.now().isoformat())\n")
    migrated = ("import datetime\nimport tensorflow as tf\nfrom timing import timed\n"
                "out, took = timed(lambda: (tf.constant(2.0) * 3).numpy())\n"
                "print(out, 'took %.4f' % took, datetime.datetime.now().isoformat())\n")
    result = verify(legacy, migrated, tmp_path)
    assert result.status == "equivalent", result.detail
    assert "took 0.0010" in result.legacy_output


LEGACY_TWO_GRAPHS = _src(
    """
    import tensorflow as tf

    a = tf.Variable(4.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(a * 2.0))
    tf.reset_default_graph()
    a = tf.Variable(1.0)
    b = tf.Variable(1.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(a + b))
    """
)


def test_each_session_keeps_its_own_initial_values(tmp_path):
    # Both graphs name their first variable "Variable": the second one started at 1.0, not at the first's 4.0.
    migrated = "import tensorflow as tf\na = tf.Variable(4.0)\nprint((a * 2.0).numpy())\n" \
               "a = tf.Variable(1.0)\nb = tf.Variable(1.0)\nprint((a + b).numpy())\n"
    result = verify(LEGACY_TWO_GRAPHS, migrated, tmp_path)
    assert result.status == "equivalent", result.detail
    assert "trained variables equal" in result.detail


LATE_VARIABLE = _src(
    """
    import tensorflow as tf

    first = tf.Variable(tf.random_normal((1, 5)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
    second = tf.Variable(tf.random_normal((1, 5)))  # built after its draw class was evaluated: a late site
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())  # evaluates both initializers in one run
        print(sess.run(second), sess.run(first))
    print(tf.config.threading.get_inter_op_parallelism_threads())
    """
)


def test_ops_of_one_run_draw_in_one_order_when_verifying_and_as_tf_has_it_when_measuring(tmp_path):
    """Two draws of one class evaluated in one initializer run took the next index in the order TF's
    threads reached them: under load the two variables swapped values between the runs."""
    compat = LATE_VARIABLE.replace("import tensorflow as tf\n",
                                   "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n")
    result = verify(LATE_VARIABLE, compat, tmp_path)
    assert result.status == "equivalent", result.detail
    assert result.legacy_output.strip().endswith("\n1")
    measured = run_program(LATE_VARIABLE, path=tmp_path / "measured.py", mode="legacy", pin_fetch_order=False)
    assert measured.stdout.strip().endswith("\n0"), measured.stderr[-2000:]


REWRITES_LEGACY = _src(
    """
    import tensorflow as tf

    with tf.Session() as sess:
        print("as written:", sess._config.graph_options.rewrite_options.arithmetic_optimization == 2)  # 2: OFF
    """
)
REWRITES_MIGRATED = _src(
    """
    import tensorflow as tf

    print("as written:", tf.config.optimizer.get_experimental_options().get("arithmetic_optimization") is False)
    """
)


def test_graphs_keep_grapplers_rewrites_and_outputs_that_differ_are_compared_again_as_written(tmp_path):
    """Grappler's arithmetic rewrites apply otherwise to a tf.function graph than to a Session graph
    (hunkim lab-09-6 printed a mean of squared residuals that differed in its fifth digit while its weights
    agreed to 1e-7), but TF1 programs also rely on them (log(softmax) made stable). Both runs keep them;
    where the outputs differ, both run again without them, and agreement there is equivalence."""
    result = verify(REWRITES_LEGACY, REWRITES_MIGRATED, tmp_path)
    assert result.status == "equivalent", result.detail
    assert "as written: False" in result.legacy_output and "Grappler" not in result.detail
    # A migrated program that prints what only the second look gives: equal there, and the detail says why.
    always = REWRITES_MIGRATED.replace('.get("arithmetic_optimization") is False', ' is not None')
    result = verify(REWRITES_LEGACY, always, tmp_path)
    assert result.status == "equivalent", result.detail
    assert "with Grappler's arithmetic rewrites off in both runs" in result.detail
    assert "as written: False" in result.legacy_output  # the first runs are what the report shows
    other = verify(REWRITES_LEGACY, always.replace('print("as written:"', 'print("as written?"'), tmp_path)
    assert other.status == "different", other.detail
    measured = run_program(REWRITES_LEGACY, path=tmp_path / "measured.py", mode="legacy", pin_fetch_order=False)
    assert "as written: False" in measured.stdout, measured.stderr[-2000:]


LEGACY_EXIT_IN_SESSION = _src(
    """
    import sys
    import tensorflow as tf

    W = tf.Variable(1.0)
    step = tf.assign_add(W, 1.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)
        print('W', sess.run(W))
        sys.exit(0)
    """
)


def test_a_session_closed_by_an_exception_is_not_a_program_thread(tmp_path):
    # Trial (dongminlee's RL_Lab_07_2, ended by the gym stub's SystemExit inside `with tf.Session()`): TF1 closes
    # such a session on its own SessionCloseThread, where the state dump read the variables through the
    # fetch-order wrapper, which logged the program as running sessions from worker threads: a difference in
    # the outputs was called "not comparable" instead of "different".
    migrated = "import sys\nimport tensorflow as tf\nW = tf.Variable(1.0)\nW.assign_add(1.0)\nprint('W', W.numpy())\nsys.exit(0)\n"
    assert verify(LEGACY_EXIT_IN_SESSION, migrated, tmp_path).status == "equivalent"
    other = verify(LEGACY_EXIT_IN_SESSION, migrated.replace("assign_add(1.0)", "assign_add(1.5)"), tmp_path)
    assert other.status == "different", other.detail
