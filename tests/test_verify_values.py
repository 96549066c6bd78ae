"""Results held by the program's names at its end (``child/program_values.py``, ``values_compare``)."""
import pathlib

import numpy as np

from tf_migrate.verify import values_compare, verify_program

LEGACY = """\
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
y = tf.reduce_sum(x * 2.0, axis=1)
data = np.ones((3, 2), np.float32)
history = []
with tf.Session() as sess:
    for i in range(3):
        history.append(sess.run(y, {x: data * i}))
    total = sess.run(tf.reduce_sum(y), {x: data})
"""

MIGRATED = """\
import numpy as np
import tensorflow as tf
data = np.ones((3, 2), np.float32)
history = [tf.reduce_sum(data * i * 2.0, axis=1).numpy() for i in range(3)]
total = tf.reduce_sum(tf.reduce_sum(data * 2.0, axis=1) * SCALE)
"""


def test_a_quiet_program_is_judged_on_the_results_its_names_hold():
    equal = verify_program(LEGACY, MIGRATED.replace("SCALE", "1.0"), path=pathlib.Path("quiet.py"))
    assert (equal.status, equal.detail) == ("equivalent", "nothing printed, 2 results held by names equal")
    broken = verify_program(LEGACY, MIGRATED.replace("SCALE", "2.0"), path=pathlib.Path("quiet.py"))
    assert broken.status == "different"
    assert broken.detail == "nothing printed, but `total` is 12.0 at the legacy program's end, 24.0 at the migrated one's (1 of 1 values differ)"


def test_names_pair_by_name_and_only_the_legacy_runs_results_count():
    legacy = [("loss", np.float32(0.5), True), ("data", np.ones(3), False)]
    migrated = [("data", np.zeros(3), False), ("loss", np.float32(0.5), False)]
    assert values_compare.compare(legacy, migrated).detail == "1 result held by names equal"
    assert values_compare.compare([("data", np.ones(3), False)], migrated) is None  # inputs prove nothing
    assert values_compare.compare(legacy, [("other", np.float32(0.5), False)]) is None  # name no longer bound


def test_other_shapes_differ_and_small_drift_is_reported_as_drift():
    legacy = [("losses", np.array([1.0, 2.0, 3.0]), True)]
    verdict = values_compare.compare(legacy, [("losses", np.array([1.0, 2.0]), False)])
    assert verdict.status == "different"
    assert verdict.detail == (
        "`losses` holds numbers of shape (3,) at the legacy program's end, of shape (2,) at the migrated one's")
    drift = values_compare.compare(legacy, [("losses", np.array([1.0, 2.0, 3.01]), False)])
    assert (drift.status, drift.detail) == ("equal", "1 result held by names equal within drift (losses drifted)")
    far = values_compare.compare(legacy, [("losses", np.array([1.0, 2.0, 9.0]), False)])
    assert far.status == "different"
    assert far.detail.startswith("`losses[2]` is 3.0 at the legacy program's end, 9.0")


LIBRARY = """\
import tensorflow as tf
SIZE = 3
def layer(x):
    w = tf.get_variable("w", [SIZE, SIZE])
    return tf.matmul(x, w)
"""


def test_a_module_that_opens_no_session_computed_nothing_and_says_so():
    quiet = verify_program(LIBRARY, LIBRARY.replace("tf.get_variable", "tf.compat.v1.get_variable"),
                           path=pathlib.Path("layers.py"))
    assert quiet.status == "no-computation", quiet.detail
    assert quiet.detail.startswith("the legacy program opened no Session, so it computed nothing")
    chatty = verify_program(LIBRARY, LIBRARY + "print(SIZE * 2.5)\n", path=pathlib.Path("layers.py"))
    assert chatty.status == "different", chatty.detail
    assert chatty.detail.endswith("the migrated one printed '7.5'")


EXITING_LEGACY = """\
import sys
import tensorflow as tf
w = tf.Variable([1.0, 2.0])
step = tf.assign(w, w * 2.0)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for _ in range(3):
    sess.run(step)
sys.exit(0)
"""


def test_a_program_that_ends_with_sys_exit_0_is_judged_on_its_state_at_the_exit():
    migrated = "import sys\nimport tensorflow as tf\nw = tf.Variable([1.0, 2.0])\nw.assign(w * FACTOR)\nsys.exit(0)\n"
    equal = verify_program(EXITING_LEGACY, migrated.replace("FACTOR", "8.0"), path=pathlib.Path("exits.py"))
    assert (equal.status, equal.detail) == ("equivalent", "nothing printed, 1 trained variable equal"), equal.detail
    broken = verify_program(EXITING_LEGACY, migrated.replace("FACTOR", "4.0"), path=pathlib.Path("exits.py"))
    assert broken.status == "different", broken.detail
    assert "trained variable Variable differs: 8.0 != 4.0" in broken.detail
