"""absl-wrappers: tf.app.flags / tf.flags, tf.app.run and tf.logging -> absl.

Rewrite cases run only this rule (pyupgrade style); the twin test runs a
flags + app.run + logging program under TF1 semantics and its migration,
with an unknown flag on the command line, and compares what they print.
"""
import contextlib
import io
import sys

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output

RULE = "absl-wrappers"


def _rewrite(source: str) -> str:
    return migrate_source(source, "case.py", select={RULE}).new_source


CASES = [
    pytest.param(
        'import tensorflow as tf\n\nflags = tf.app.flags\n'
        'flags.DEFINE_float(flag_name="lr", default_value=0.5, docstring="rate")\nFLAGS = flags.FLAGS\n\n\n'
        'def main(argv):\n    print(FLAGS.lr)\n\n\nif __name__ == "__main__":\n    tf.app.run()\n',
        'import tensorflow as tf\nfrom absl import app\nfrom absl import flags\n\n'
        'flags.DEFINE_float(name="lr", default=0.5, help="rate")\nFLAGS = flags.FLAGS\n\n\n'
        'def main(argv):\n    print(FLAGS.lr)\n\n\nif __name__ == "__main__":\n'
        '    app.run(main, flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))\n',
        id="flags alias, old DEFINE keywords, run of __main__.main"),
    pytest.param(
        'import sys\nimport tensorflow as tf\ntf.app.flags.DEFINE_integer("n", 1, "count")\n'
        'def go(argv):\n    print(tf.app.flags.FLAGS.n)\ntf.app.run(main=go, argv=[sys.argv[0]])\n',
        'import sys\nimport tensorflow as tf\nfrom absl import app\nfrom absl import flags\n'
        'flags.DEFINE_integer("n", 1, "count")\ndef go(argv):\n    print(flags.FLAGS.n)\n'
        'app.run(go, argv=[sys.argv[0]], flags_parser=lambda argv: flags.FLAGS(argv, known_only=True))\n',
        id="run with main and argv keywords"),
    pytest.param(
        'import tensorflow as tf\ntf.flags.DEFINE_integer("n", 2, "count")\nFLAGS = tf.flags.FLAGS\nprint(FLAGS.n)\n',
        'import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer("n", 2, "count")\n'
        'FLAGS = tf.compat.v1.flags.FLAGS\nprint(FLAGS.n)\n',
        id="read before any parse keeps tf.compat.v1.flags.FLAGS (TF2 has no tf.flags); DEFINE is absl's"),
    pytest.param(
        'import tensorflow as tf\nflags = tf.app.flags\n'
        'flags.DEFINE_integer(flag_name="n", default_value=2, docstring="count")\n'
        'flags.mark_flag_as_required("n")\nFLAGS = flags.FLAGS\nprint(FLAGS.n)\n',
        'import tensorflow as tf\nfrom absl import flags as absl_flags\nflags = tf.app.flags\n'
        'absl_flags.DEFINE_integer(name="n", default=2, help="count")\n'
        'absl_flags.mark_flag_as_required("n")\nFLAGS = flags.FLAGS\nprint(FLAGS.n)\n',
        id="read before any parse, through an alias: FLAGS stays TF's, the rest is absl's"),
    pytest.param(
        'import tensorflow as tf\ntf.logging.set_verbosity(tf.logging.INFO)\ntf.logging.info("step %d", 3)\n'
        'tf.logging.warn("careful")\ntf.logging.log(tf.logging.WARN, "x")\n',
        'import tensorflow as tf\nfrom absl import logging\nlogging.set_verbosity(logging.INFO)\n'
        'logging.info("step %d", 3)\nlogging.warning("careful")\nlogging.log(logging.WARNING, "x")\n',
        id="logging calls and their level constants"),
    pytest.param(
        'import logging\nimport tensorflow as tf\ntf.logging.error("bad")\nlogging.info("stdlib")\n',
        'import logging\nimport tensorflow as tf\nfrom absl import logging as absl_logging\n'
        'absl_logging.error("bad")\nlogging.info("stdlib")\n',
        id="stdlib logging keeps its name"),
    pytest.param(
        'import tensorflow as tf\ntf.logging.fatal("x")\ntf.logging.vlog(1, "x")\ntf.logging.log(level, "x")\n'
        'handler.setLevel(tf.logging.INFO)\n',
        None, id="noop fatal, vlog, computed levels and constants used elsewhere"),
    pytest.param('import tensorflow as tf\nx = tf.constant(1.0)\n', None, id="noop no wrappers"),
]


@pytest.mark.parametrize("before, after", CASES)
def test_rewrite(before, after):
    assert _rewrite(before) == (after or before)


PROGRAM = '''\
import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_integer("steps", 3, "training steps")
flags.DEFINE_float("lr", 0.1, "learning rate")
FLAGS = flags.FLAGS
tf.logging.set_verbosity(tf.logging.ERROR)


def main(argv):
    tf.set_random_seed(0)
    print("extra arguments:", argv[1:])
    x = tf.placeholder(tf.float32, [None])
    w = tf.Variable(1.0)
    loss = tf.reduce_mean(tf.square(w * x - 2.0 * x))
    train = tf.train.GradientDescentOptimizer(FLAGS.lr).minimize(loss)
    tf.logging.info("built the graph")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.steps):
            _, value = sess.run([train, loss], {x: np.arange(3.0)})
            print(step, value)


if __name__ == "__main__":
    tf.app.run(main)
'''


def _run(source: str, legacy: bool) -> str:
    """Run as __main__ with a command line; absl's flags are global, so the program's are removed after."""
    import tensorflow as tf
    from absl import flags

    known = set(flags.FLAGS)
    saved_module, saved_argv = sys.modules["tensorflow"], sys.argv
    out = io.StringIO()
    try:
        sys.argv = ["prog", "--steps=2", "--not_a_flag=1"]
        if legacy:
            sys.modules["tensorflow"] = tf.compat.v1
        with contextlib.ExitStack() as stack:
            if legacy:
                stack.enter_context(tf.Graph().as_default())
            stack.enter_context(contextlib.redirect_stdout(out))
            with pytest.raises(SystemExit) as exited:
                exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
        assert exited.value.code in (None, 0)
    finally:
        sys.modules["tensorflow"], sys.argv = saved_module, saved_argv
        for name in set(flags.FLAGS) - known:
            delattr(flags.FLAGS, name)
    return out.getvalue()


def test_twin_keeps_flags_unknown_arguments_and_numbers():
    migrated = migrate_source(PROGRAM, "train.py")
    assert migrated.outcome == "eager", migrated.findings
    assert "tf.app" not in migrated.new_source and "tf.logging" not in migrated.new_source
    legacy_output = _run(PROGRAM, legacy=True)
    assert "['--not_a_flag=1']" in legacy_output and "\n1 " in legacy_output
    assert_same_output(legacy_output, _run(migrated.new_source, legacy=False))


LAZY_PROGRAM = '''\
import tensorflow as tf
tf.flags.DEFINE_integer("steps", 3, "training steps")
FLAGS = tf.flags.FLAGS
x = tf.placeholder(tf.float32, [None])
y = tf.reduce_sum(x * 2.0)
with tf.Session() as sess:
    print(sess.run(y, {x: [1.0] * FLAGS.steps}))
'''


def _run_lazy(source: str, legacy: bool) -> str:
    """No tf.app.run: FLAGS parses sys.argv on its first read, in TF1 and in the migration alike."""
    from absl import flags

    from tests.twins import run_legacy, run_migrated

    known, parsed = set(flags.FLAGS), flags.FLAGS.is_parsed()
    saved_argv = sys.argv
    flags.FLAGS.unparse_flags()  # an earlier test's parse would hide the first-read one
    try:
        sys.argv = ["prog", "--steps=2"]
        return (run_legacy if legacy else run_migrated)(source)
    finally:
        sys.argv = saved_argv
        for name in set(flags.FLAGS) - known:
            delattr(flags.FLAGS, name)
        flags.FLAGS.unparse_flags()
        if parsed:
            flags.FLAGS.mark_as_parsed()


def test_twin_flags_without_app_run_parse_on_first_read():
    migrated = migrate_source(LAZY_PROGRAM, "train.py")
    assert migrated.outcome == "eager", migrated.findings
    assert 'DEFINE_integer("steps"' in migrated.new_source and "tf.flags" not in migrated.new_source
    legacy_output = _run_lazy(LAZY_PROGRAM, legacy=True)
    assert legacy_output.strip() == "4.0"  # --steps=2 was read
    assert_same_output(legacy_output, _run_lazy(migrated.new_source, legacy=False))
