"""Feeds TF1 converted with numpy and TF2 refuses: a float fed to an integer placeholder (analysis/feed_dicts.
floats_fed_to_integers). TF1 truncated it (``np.asarray(3.7, np.int32)`` is 3); the compiled function's signature
refused it, and the migrated program crashed where the legacy one ran."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = '''\
import numpy as np
import tensorflow as tf
n = tf.placeholder({dtype}, [])
y = tf.range(tf.cast(n, tf.int32)) * 2
data = [1, 2, 3, 4, 5]
with tf.Session() as sess:
    print(sess.run(y, {{n: {value}}}))
'''


@pytest.mark.parametrize("value", ["3.0", "len(data) / 2", "np.float32(4.7)", "-(2.5)", "float(len(data))"])
def test_a_float_fed_to_an_integer_placeholder_keeps_compat_with_the_reason(value):
    migrated = migrate_source(PROGRAM.format(dtype="tf.int32", value=value), "feeds.py")
    assert migrated.outcome == "compat"
    assert "`n` (tf.int32) is fed a float" in migrated.compat_reason


@pytest.mark.parametrize("dtype, value", [("tf.int32", "len(data) // 2"), ("tf.int64", "np.int64(3)"),
                                          ("tf.float32", "len(data) / 2")])
def test_integers_and_floats_to_float_placeholders_convert_with_the_legacy_output(dtype, value):
    source = PROGRAM.format(dtype=dtype, value=value)
    migrated = migrate_source(source, "feeds.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))
