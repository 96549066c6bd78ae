"""saver-slot-class: the Saver saver-slots noted becomes ``SaverWithSlots``, whose class the file carries once, after
``import tensorflow as tf`` (also below a ``from tensorflow.examples... import`` line: aymericdamien's programs)."""
from tf_migrate.engine import migrate_source
from tests.rules.test_saver_slots import RESTORE_THEN_TRAIN


def test_the_noted_saver_becomes_the_class_the_file_carries_after_its_tensorflow_import():
    source = RESTORE_THEN_TRAIN.format(optimizer="AdamOptimizer(0.1)", path="model.ckpt").replace(
        "import numpy as np\n",
        "from tensorflow.examples.tutorials.mnist import input_data\nDATA = \"MNIST_data/\"\nimport numpy as np\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    assert new.count("class SaverWithSlots(tf.compat.v1.train.Saver):") == 1
    assert new.index("import tensorflow as tf") < new.index("class SaverWithSlots")
    assert "saver = SaverWithSlots(var_list={" in new and "optimizers=" in new
    assert "tf.compat.v1.train.Saver(var_list" not in new
    compile(new, "case.py", "exec")
