"""Ops with an effect outside the graph at each run (``tf.py_func``, ``tf.timestamp``, ``tf.Print``) are made in
each run that needs them, as random draws are, even when they read no per-run value (analysis/scope_passes)."""
from __future__ import annotations

import pytest

from tf_migrate.analysis.api_tables import is_random_op
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

# TF1 called `count` at each run (1.0, 2.0, 3.0); the first version called it once, where `y` was built.
PY_FUNC_WITHOUT_INPUTS = '''\
import numpy as np
import tensorflow as tf
calls = []
def count():
    calls.append(1)
    return np.float32(len(calls))
y = tf.py_func(count, [], tf.float32)
z = y * 2
with tf.Session() as sess:
    for step in range(3):
        print(sess.run(y), sess.run(z))
print(len(calls))
'''


def test_a_python_function_without_graph_inputs_is_called_at_each_run_with_the_legacy_output():
    migrated = migrate_source(PY_FUNC_WITHOUT_INPUTS, "effects.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    code = migrated.new_source
    assert "Session" not in code
    assert "\ny = tf.numpy_function(" not in code  # not made once, at module level
    assert_same_output(run_legacy(PY_FUNC_WITHOUT_INPUTS), run_migrated(code))


@pytest.mark.parametrize("op", ["tf.timestamp()", "tf.Print(tf.constant(1.0), [tf.constant(2.0)])"])
def test_a_clock_read_or_a_print_op_is_made_in_the_run_that_fetches_it(op):
    source = f"import tensorflow as tf\nt = {op}\nwith tf.Session() as sess:\n" \
             "    a = sess.run(t)\n    b = sess.run(t)\n    print(b >= a)\n"
    migrated = migrate_source(source, "effects.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    code = migrated.new_source
    run = code[code.index("def run_t("):]
    assert "t = tf." in run[:run.index("return t")]  # inside the run function, once per run


# TF1 drew a new flip and brightness at each run (6 different images); the first version drew them once.
IMAGE_AUGMENTATION = '''\
import numpy as np
import tensorflow as tf
tf.set_random_seed(3)
img = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 2, 3))
flipped = tf.image.random_flip_left_right(img)
bright = tf.image.random_brightness(img, 0.5)
with tf.Session() as sess:
    outs = [sess.run([flipped, bright]) for _ in range(6)]
    print(len(set(o[1].tobytes() for o in outs)))
'''


def test_random_image_ops_on_a_constant_draw_at_each_run_with_the_legacy_output():
    migrated = migrate_source(IMAGE_AUGMENTATION, "augment.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    code = migrated.new_source
    run = code[code.index("def run_flipped_bright("):]
    assert "tf.image.random_brightness(img, 0.5)" in run[:run.index("return ")]
    legacy = run_legacy(IMAGE_AUGMENTATION)
    assert legacy.split() == ["6"]
    assert_same_output(legacy, run_migrated(code))


@pytest.mark.parametrize("qualname, random", [
    ("tf.random_normal", True), ("tf.random.uniform", True), ("tf.image.random_flip_left_right", True),
    ("tf.image.sample_distorted_bounding_box", True), ("tf.nn.uniform_candidate_sampler", True),
    ("tf.random_normal_initializer", False), ("tf.random.set_seed", False), ("tf.random.stateless_uniform", False),
    ("tf.image.flip_left_right", False), ("tf.reduce_sum", False), (None, False),
])
def test_a_draw_is_known_by_its_name(qualname, random):
    assert is_random_op(qualname) is random


# TF1 drew a new sample at each run (False); the first version drew one where `sample` was built (True).
DISTRIBUTION = '''\
import tensorflow as tf
tf.set_random_seed(1)
dist = tf.distributions.Normal(loc=0., scale=1.)
sample = dist.sample()
with tf.Session() as sess:
    first = sess.run(sample)
    print(first == sess.run(sample))
'''


def test_a_distribution_with_constant_parameters_draws_its_sample_at_each_run():
    migrated = migrate_source(DISTRIBUTION, "distribution.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    run = migrated.new_source[migrated.new_source.index("def run_sample("):]
    assert "sample = dist.sample()" in run[:run.index("return ")]
    legacy = run_legacy(DISTRIBUTION)
    assert legacy.split() == ["False"]
    assert_same_output(legacy, run_migrated(migrated.new_source))
