"""Before/after pairs for lr-schedules: TF1 decay and the global step -> Keras schedules on a tf.Variable.

Each case runs only the rules named (``select``), pyupgrade style. The golden
cases (tests/golden/schedule_*.py) run TF1 and the migrated program over a
multi-step training run and compare the trajectories.
"""
import pytest

from tf_migrate.engine import migrate_source

HEADER = "import tensorflow as tf\n"
STEP = 'step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")\n'
SCHEDULES = "tf.keras.optimizers.schedules"
LAYER = "h = tf.layers.dense(x, 3)\n"

CASES = [
    (["lr-schedules"],
     "step = tf.train.get_or_create_global_step()\n"
     "lr = tf.train.exponential_decay(0.1, step, 100, 0.96, staircase=True)\nopt = tf.train.AdamOptimizer(lr)\n",
     STEP + f"lr_schedule = {SCHEDULES}.ExponentialDecay(0.1, decay_steps=100, decay_rate=0.96, staircase=True)\n"
     "lr = lr_schedule(step)\nopt = tf.train.AdamOptimizer(lambda: lr_schedule(step))\n",
     "exponential decay read by the optimizer at each update"),
    (["lr-schedules"],
     "step = tf.train.create_global_step()\nlr = tf.train.natural_exp_decay(0.2, step, 3, k + 1)\n",
     STEP + f"lr_schedule = {SCHEDULES}.ExponentialDecay(0.2, decay_steps=3, decay_rate=tf.exp(-(k + 1)))\n"
     "lr = lr_schedule(step)\n",
     "natural exp decay is exponential decay of exp(-rate)"),
    (["lr-schedules"],
     "lr = tf.train.piecewise_constant(epoch, [2, 5], [0.1, 0.01, 0.001], name='lr')\n",
     f"lr_schedule = {SCHEDULES}.PiecewiseConstantDecay(boundaries=[2, 5], values=[0.1, 0.01, 0.001])\n"
     "lr = lr_schedule(epoch)\n",
     "piecewise constant on any step tensor"),
    (["lr-schedules"],
     "opt = tf.train.GradientDescentOptimizer(tf.train.polynomial_decay(0.1, gs, 10, cycle=True))\n",
     f"lr_schedule = {SCHEDULES}.PolynomialDecay(0.1, decay_steps=10, cycle=True)\n"
     "opt = tf.train.GradientDescentOptimizer(lambda: lr_schedule(gs))\n",
     "decay inline in the optimizer"),
    (["lr-schedules"],
     "lr = tf.maximum(tf.train.inverse_time_decay(0.1, gs, 10, 0.5), 1e-3)\n"
     "opt = tf.train.AdagradOptimizer(learning_rate=lr * 2)\n",
     f"lr_schedule = {SCHEDULES}.InverseTimeDecay(0.1, decay_steps=10, decay_rate=0.5)\n"
     "lr = tf.maximum(lr_schedule(gs), 1e-3)\n"
     "opt = tf.train.AdagradOptimizer(learning_rate=lambda: tf.maximum(lr_schedule(gs), 1e-3) * 2)\n",
     "floored decay inlined into the callable"),
    (["lr-schedules"],
     "r = tf.train.cosine_decay_restarts(0.1, gs, 4, m_mul=0.5)\n",
     f"r_schedule = {SCHEDULES}.CosineDecayRestarts(0.1, first_decay_steps=4, m_mul=0.5)\nr = r_schedule(gs)\n",
     "cosine decay restarts"),
    (["lr-schedules"],
     "train = opt.minimize(loss, global_step=tf.train.get_or_create_global_step())\n"
     "count = tf.train.get_global_step()\n",
     'global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")\n'
     "train = opt.minimize(loss, global_step=global_step)\ncount = global_step\n",
     "global step created inline then looked up"),
    (["optimizers", "lr-schedules"],
     "lr = tf.train.exponential_decay(0.1, gs, 10, 0.5)\nopt = tf.train.MomentumOptimizer(lr, 0.9, use_nesterov=True)\n",
     f"lr_schedule = {SCHEDULES}.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)\nlr = lr_schedule(gs)\n"
     "opt = tf.compat.v1.train.MomentumOptimizer(lambda: lr_schedule(gs), 0.9, use_nesterov=True)\n",
     "momentum with a schedule stays TF1's"),
    (["optimizers", "lr-schedules"],
     LAYER + "lr = tf.train.exponential_decay(0.1, gs, 10, 0.5)\nopt = tf.train.MomentumOptimizer(lr, 0.9)\n"
     "kept = [opt]\n",
     LAYER + f"lr_schedule = {SCHEDULES}.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)\nlr = lr_schedule(gs)\n"
     "opt = tf.keras.optimizers.SGD(learning_rate=lambda: lr_schedule(gs), momentum=0.9)\nkept = [opt]\n",
     "momentum with a schedule, Keras layers' variables, handed elsewhere: SGD"),
    (["optimizers", "lr-schedules"],
     LAYER + "lr = tf.train.exponential_decay(0.1, gs, 10, 0.5)\nopt = tf.train.MomentumOptimizer(lr, 0.9)\n",
     LAYER + f"lr_schedule = {SCHEDULES}.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)\nlr = lr_schedule(gs)\n"
     "opt = tf.compat.v1.train.MomentumOptimizer(lambda: lr_schedule(gs), 0.9)\n",
     "momentum with a schedule, Keras layers' variables, only stepped: TF1's"),
    (["optimizers", "lr-schedules"],
     LAYER + "opt = tf.train.MomentumOptimizer(0.1, 0.9)\nkept = [opt]\n",
     LAYER + "opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)\nkept = [opt]\n",
     "noop momentum with a constant rate"),
    (["lr-schedules"],
     "count = tf.train.get_global_step()\nstep = tf.train.get_or_create_global_step()\n",
     "count = tf.train.get_global_step()\nstep = tf.train.get_or_create_global_step()\n",
     "noop look-up before creation"),
]


@pytest.mark.parametrize("rules, before, after", [c[:3] for c in CASES], ids=[c[3] for c in CASES])
def test_rule(rules, before, after):
    result = migrate_source(HEADER + before, "case.py", select=rules)
    assert result.new_source == HEADER + after


@pytest.mark.parametrize("layer", ["", LAYER], ids=["TF1's momentum", "Keras SGD"])
def test_second_run_keeps_the_momentum_optimizer(layer):
    source = HEADER + layer + ("lr = tf.train.exponential_decay(0.1, gs, 10, 0.5)\n"
                               "opt = tf.train.MomentumOptimizer(lr, 0.9)\n") + ("kept = [opt]\n" if layer else "")
    once = migrate_source(source, "case.py", select=["optimizers", "lr-schedules"])
    twice = migrate_source(once.new_source, "case.py", select=["optimizers", "lr-schedules"])
    assert ("tf.keras.optimizers.SGD(learning_rate=lambda: lr_schedule(gs)" if layer else
            "tf.compat.v1.train.MomentumOptimizer(lambda: lr_schedule(gs)") in once.new_source
    assert twice.new_source == once.new_source
    assert [f.severity for f in once.findings if "Keras' SGD" in f.message] == ["warning"]


def test_momentum_schedule_on_keras_layers_runs():
    """TF1's MomentumOptimizer fails on a Keras layer's variables themselves ('Variable' object has no attribute
    '_in_graph_mode'): the step hands it the tf.Variables they hold, so TF1's trajectory is kept."""
    from tests.twins import run_migrated

    source = (HEADER + "import numpy as np\nx = tf.placeholder(tf.float32, [None, 3])\n"
              "loss = tf.reduce_mean(tf.square(tf.layers.dense(x, 1)))\n"
              "step = tf.train.get_or_create_global_step()\nlr = tf.train.exponential_decay(0.1, step, 2, 0.5)\n"
              "train = tf.train.MomentumOptimizer(lr, 0.9).minimize(loss, global_step=step)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    for i in range(3):\n        print(sess.run([train, loss], {x: np.ones((2, 3))})[1])\n")
    migrated = migrate_source(source, "case.py")
    assert migrated.outcome == "eager", migrated.findings
    assert "tf.compat.v1.train.MomentumOptimizer(lambda: lr_schedule(step), 0.9)" in migrated.new_source
    assert "var.value if isinstance(var, tf.keras.Variable) else var" in migrated.new_source
    warning = next(f.message for f in migrated.findings if f.rule == "lr-schedules" and f.severity == "warning")
    assert "kept as tf.compat.v1.train.MomentumOptimizer" in warning
    assert len(run_migrated(migrated.new_source).splitlines()) == 3


def test_rate_read_from_a_placeholder_is_left_to_compat_mode():
    source = (HEADER + "base = tf.placeholder(tf.float32, [])\nstep = tf.train.get_or_create_global_step()\n"
              "lr = tf.train.exponential_decay(base, step, 10, 0.5)\nopt = tf.train.AdamOptimizer(lr)\n"
              "train = opt.minimize(tf.reduce_sum(tf.Variable(1.0) ** 2), global_step=step)\n"
              "with tf.Session() as sess:\n    sess.run(train, {base: 0.1})\n")
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert any(f.rule == "lr-schedules" and "`base`" in f.message for f in result.findings)


def test_a_keyword_named_like_a_scheduled_rate_is_not_inlined():
    """`SGD(learning_rate=learning_rate)`: only the value is the per-step rate, not the keyword (crashed)."""
    source = (HEADER + "gs = tf.Variable(0, trainable=False)\nlearning_rate = tf.train.exponential_decay(0.8, gs, 10, 0.9)\n"
              "train_step = tf.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step=gs)\n")
    result = migrate_source(source, "case.py", select=["optimizers", "lr-schedules"])
    assert result.outcome != "failed"
    assert "SGD(learning_rate=lambda: learning_rate_schedule(gs)).minimize" in result.new_source


def test_contrib_framework_global_step_aliases_convert_as_tf_train_ones():
    # dennybritz's RL estimators: `global_step=tf.contrib.framework.get_global_step()` (TF1's alias).
    contrib = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
               "w = tf.Variable([[1.0], [2.0]])\nloss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
               "step = tf.contrib.framework.get_or_create_global_step()\n"
               "lr = tf.train.exponential_decay(0.1, step, 2, 0.5, staircase=True)\n"
               "train = tf.train.GradientDescentOptimizer(lr).minimize(\n"
               "    loss, global_step=tf.contrib.framework.get_global_step())\n"
               "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
               "    for i in range(4):\n        print(i, sess.run([train, loss, step], {x: np.ones((3, 2))}))\n")
    core = contrib.replace("tf.contrib.framework.", "tf.train.")
    migrated, expected = migrate_source(contrib, "c.py"), migrate_source(core, "c.py")
    assert expected.outcome == "eager" and migrated.new_source == expected.new_source
