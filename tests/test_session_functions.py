"""A main() that only opens a session on the module's graph: its runs are the module's (analysis/session_functions)."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

GRAPH = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable([[0.1], [0.2]])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

"""

APP_RUN = GRAPH + """
def main(_):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(5):
            _, l = sess.run([train, loss], {x: [[1., 2.]], y: [[1.]]})
            print(i, l)


if __name__ == '__main__':
    tf.app.run()
"""

HELPERS = GRAPH + """
def train_model(sess, steps):
    for i in range(steps):
        _, l = sess.run([train, loss], {x: [[1., 2.]], y: [[1.]]})
        print(i, l)


def evaluate(session):
    return loss.eval(session=session, feed_dict={x: [[2., 1.]], y: [[0.]]})


def main():
    config = tf.ConfigProto()
    sess = tf.Session(config=config)
    sess.run(tf.global_variables_initializer())
    train_model(sess, 4)
    print(evaluate(sess), sess.run(w).ravel())
    sess.close()


if __name__ == '__main__':
    main()
"""


@pytest.mark.parametrize("source", [APP_RUN, HELPERS, APP_RUN.replace("as sess", "as s").replace("sess.", "s.")],
                         ids=["app-run", "helpers-given-the-session", "a-session-named-s"])
def test_a_main_that_opens_a_session_on_the_module_graph_converts(source, tmp_path):
    result = migrate_source(source, "main_session.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    program = code[code.index("w = tf.Variable"):]  # (the generated helpers' docstrings name sess.run)
    assert "Session" not in program and "sess" not in program and "global_variables_initializer" not in program
    assert "call_compiled(run_train_loss, x=[[1., 2.]], y=[[1.]])" in code
    verified = verify_program(source, code, path=tmp_path / "main_session.py", timeout=240)  # (tf.app.run: a process)
    assert verified.status == "equivalent", verified.detail


_RUNS = ("        for i in range(3):\n"
         "            print(sess.run([train, loss], {x: [[1., 2.]], y: [[1.]]})[1])\n")


@pytest.mark.parametrize("main", [
    # a second session initializes the trained variables again
    "def main():\n    with tf.Session() as sess:\n        sess.run(tf.global_variables_initializer())\n" + _RUNS +
    "    with tf.Session() as sess:\n        sess.run(tf.global_variables_initializer())\n"
    "        print(sess.run(w))\nmain()\n",
    # called twice: each call opened a session and initialized again
    "def main():\n    with tf.Session() as sess:\n        sess.run(tf.global_variables_initializer())\n" + _RUNS +
    "main()\nmain()\n",
    # a session opened in a loop
    "def main():\n    for fold in range(2):\n        with tf.Session() as sess:\n"
    "            sess.run(tf.global_variables_initializer())\n"
    "            print(sess.run([train, loss], {x: [[1., 2.]], y: [[1.]]})[1])\nmain()\n",
    # initialized again after training
    "def main():\n    sess = tf.Session()\n    sess.run(tf.global_variables_initializer())\n"
    "    sess.run(train, {x: [[1., 2.]], y: [[1.]]})\n    sess.run(tf.global_variables_initializer())\n"
    "    print(sess.run(loss, {x: [[1., 2.]], y: [[1.]]}))\nmain()\n",
    # it builds graph values of its own (a Saver)
    "def main():\n    saver = tf.train.Saver()\n    with tf.Session() as sess:\n"
    "        sess.run(tf.global_variables_initializer())\n" + _RUNS + "main()\n",
], ids=["second-session", "called-twice", "session-in-a-loop", "initialized-after-training", "builds-a-saver"])
def test_a_main_whose_sessions_reinitialize_or_build_stays_a_scope_of_its_own(main):
    result = migrate_source(GRAPH + main, "main_session.py")
    assert result.outcome == "compat"
    assert "a scope of its own" in result.compat_reason


_MISUSE = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[0.5], [-0.5]])
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))


def describe(session):
    print(len(session.graph.get_operations()) > 0)


def report(sess):
    describe(sess)
    print(sess.run(loss, {x: np.ones((2, 2))}))


"""


@pytest.mark.parametrize("driver", [
    "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n    report(sess)\n",
    "def main():\n    with tf.Session() as sess:\n        sess.run(tf.global_variables_initializer())\n"
    "        report(sess)\n\n\nmain()\n",
])
def test_a_helper_using_the_session_beyond_running_keeps_compat_with_the_reason(driver):
    # report() hands the session on to describe(), which reads its graph: eager code has no session to give it.
    # (Only the output self-check caught this before: `undefined name 'sess'`.)
    result = migrate_source(_MISUSE + driver, "misuse.py")
    assert result.outcome == "compat"
    blockers = [f.message for f in result.findings if f.rule == "eager-blocker"]
    assert any("`report` uses the session it is given beyond running the graph (`session.graph`)" in message
               for message in blockers), blockers
