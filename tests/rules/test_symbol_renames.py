"""symbol-renames: TF2 names from tf_upgrade_v2's tables, but not where the TF2 name computes something else."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

RESIZE = '''
import numpy as np
import tensorflow as tf
img = tf.placeholder(tf.float32, [1, 4, 4, 1])
r1 = tf.image.resize_images(img, [7, 7])
r2 = tf.image.resize(img, [6, 6], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
sess = tf.Session()
x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
for r in sess.run([r1, r2], {img: x}):
    print(np.round(r[0, :, :, 0], 4))
'''


def test_tf1_image_resizing_keeps_its_pixel_centers():
    """tf_upgrade_v2 renames resize_images to tf.image.resize, which samples at half-pixel centers: every inner
    pixel of the resized image came out different."""
    result = migrate_source(RESIZE, "resize.py")
    assert result.outcome == "eager", result.compat_reason
    assert result.new_source.count("tf.compat.v1.image.resize(") == 2
    assert any("half-pixel centers" in f.message for f in result.findings)
    assert_same_output(run_legacy(RESIZE), run_migrated(result.new_source))


def test_renames_from_the_tables():
    result = migrate_source("import tensorflow as tf\nx = tf.random_normal([2], seed=1)\n"
                            "y = tf.reduce_sum(x, reduction_indices=[0])\nprint(x, y)\n", "renames.py",
                            select={"symbol-renames"})
    assert "tf.random.normal([2], seed=1)" in result.new_source and "axis=[0]" in result.new_source


def test_tf2_code_keeps_tf2s_resize():
    """A module that names no TF1-only symbol is TF2 code: its tf.image.resize is TF2's, and a second run on this
    tool's output changes nothing."""
    source = "import tensorflow as tf\nimg = tf.zeros([1, 4, 4, 1])\nprint(tf.image.resize(img, [7, 7]).shape)\n"
    assert migrate_source(source, "tf2.py").new_source == source
    first = migrate_source(RESIZE, "resize.py")
    assert migrate_source(first.new_source, "resize.py").new_source == first.new_source


LAYER_SUBCLASS = '''
import tensorflow as tf


class Scale(tf.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_variable('w', [int(input_shape[1])], initializer=tf.ones_initializer())
        super(Scale, self).build(input_shape)

    def call(self, x):
        return x * self.w


y = Scale()(tf.constant([[1.0, 2.0]]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y))
'''


def test_a_tf1_layer_class_named_not_called_is_kept_under_compat_v1(tmp_path):
    # FrankWork's layers.py (probe 20): `tf.layers.Layer` was left as it was, and TF2 has no `tf.layers`.
    from tf_migrate.verify import verify_program
    result = migrate_source(LAYER_SUBCLASS, "layer.py")
    assert result.outcome == "eager", result.compat_reason
    assert "class Scale(tf.compat.v1.layers.Layer):" in result.new_source
    assert 'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")' in result.new_source  # (Keras 3 lacks it)
    verdict = verify_program(LAYER_SUBCLASS, result.new_source, path=tmp_path / "layer.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
