"""A run whose value nothing reads (a line of its own) calls its function without converting the result."""
from tf_migrate.engine import migrate_source


def test_a_run_whose_value_is_dropped_is_not_converted_to_numpy():
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
              "w = tf.Variable(tf.ones([2, 1]))\nloss = tf.reduce_mean(tf.matmul(x, w))\n"
              "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    for i in range(2):\n        sess.run([train, loss], {x: np.ones((3, 2))})\n"
              "    print(sess.run(loss, {x: np.ones((3, 2))}))\n")
    result = migrate_source(source, "drop.py")
    assert result.outcome == "eager", result.compat_reason
    assert "\n    call_compiled(run_train_loss, x=np.ones((3, 2)))\n" in result.new_source
    assert "print(run_loss(x=np.ones((3, 2))).numpy())" in result.new_source


def test_a_notebook_keeps_the_conversion_a_cell_may_show():
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
              "y = x * 2.0\nsess = tf.Session()\nsess.run(y, {x: np.ones((1, 2))})\n")
    result = migrate_source(source, "cells.ipynb")
    assert result.new_source.endswith("run_y(x=np.ones((1, 2))).numpy()\n")  # a cell shows numpy, as TF1's run
    assert migrate_source(source, "cells.py").new_source.endswith("\nrun_y(x=np.ones((1, 2)))\n")  # a script: dropped
