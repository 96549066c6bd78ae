"""session-config: a session's tf.ConfigProto becomes the tf.config calls that set the same in TF2."""
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program
from tf_migrate.verify.output_compare import first_difference

NAMED = '''
import tensorflow as tf

x = tf.placeholder(tf.float32, [2])
y = x * 2.0
config = tf.ConfigProto(allow_soft_placement=True, intra_op_parallelism_threads=2)
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
print(sess.run(y, {x: [1., 2.]}))
'''

# BinRoot's TensorFlow-Book, ch02 "session logging": the configuration given inline.
LOGGING = '''
import tensorflow as tf

x = tf.constant([[1, 2]])
neg_op = tf.negative(x)
with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
    result = sess.run(neg_op)
    print(result)
'''


def test_a_named_configuration_becomes_tf_config_calls_before_anything_runs(tmp_path):
    result = migrate_source(NAMED, "case.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert "ConfigProto" not in new and "config" not in new.split("tf.config")[0].split("import tensorflow")[1]
    top = new.index("import tensorflow as tf")
    growth = new.index('for gpu in tf.config.list_physical_devices("GPU"):\n'
                       "    tf.config.experimental.set_memory_growth(gpu, True)")
    threads = new.index("tf.config.threading.set_intra_op_parallelism_threads(2)")
    assert top < growth < new.index("@tf.function") and top < threads < new.index("@tf.function")
    assert "set_soft_device_placement" not in new  # soft placement is TF2's default
    assert any(f.rule == "session-config" for f in result.findings)
    # In a process of its own: TF takes thread and device settings only before its runtime starts.
    verdict = verify_program(NAMED, new, path=tmp_path / "named.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_device_placement_logging_is_kept(tmp_path):
    # Before: the configuration went with the session, and the migrated program logged nothing.
    result = migrate_source(LOGGING, "case.py")
    assert result.outcome == "eager", result.compat_reason
    assert "tf.debugging.set_log_device_placement(True)\nresult = neg_op.numpy()" in result.new_source
    verdict = verify_program(LOGGING, result.new_source, path=tmp_path / "logging.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_the_verifier_leaves_placement_logs_out_but_not_other_lines():
    legacy = "Neg: (Neg): /job:localhost/replica:0/task:0/device:CPU:0\n[[-1 -2]]\n"
    migrated = ("x: (_DeviceArg): /job:localhost/replica:0/task:0/device:CPU:0\n"
                "gradients/Neg_grad/Neg: (Neg): /job:localhost/replica:0/task:0/device:CPU:0\n[[-1 -2]]\n")
    assert first_difference(legacy, migrated, rtol=1e-5, atol=1e-6) is None
    assert first_difference(legacy, "Neg: (Neg) on the CPU\n[[-1 -2]]\n", rtol=1e-5, atol=1e-6) is not None


@pytest.mark.parametrize("change", [
    ("allow_soft_placement=True, intra_op_parallelism_threads=2",
     "gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.5)"),  # no TF2 form here
    ("intra_op_parallelism_threads=2", "intra_op_parallelism_threads=n_threads"),  # not known before it runs
    ("sess = tf.Session(config=config)", "sess = tf.Session(config=config)\nprint(config)"),  # used otherwise
])
def test_configurations_without_a_known_tf2_form_are_left_as_they_were(change):
    source = NAMED.replace(*change).replace("import tensorflow as tf\n", "import tensorflow as tf\nn_threads = 2\n")
    result = migrate_source(source, "case.py")
    assert not any(f.rule == "session-config" for f in result.findings)
    assert "ConfigProto(" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_compat_output_keeps_the_configuration():
    result = migrate_source(NAMED, "case.py", mode="compat")
    assert "config = tf.ConfigProto(allow_soft_placement=True" in result.new_source
    assert "tf.config." not in result.new_source
