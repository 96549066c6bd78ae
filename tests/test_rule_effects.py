"""Every registered rule does its own work: ``--ignore RULE`` changes the output of an input it covers.

A rule registered only to appear in ``--list-rules`` while the work happens elsewhere (the old
``gradients-to-tape``) would leave these outputs unchanged, and ``--ignore`` would mean nothing.
"""
from pathlib import Path

import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules import rule_ids

ROOT = Path(__file__).resolve().parent.parent

# Rule -> an input it rewrites: a golden case or sample (its input part), or inline source.
_RESTORE_THEN_TRAIN = ("import tensorflow as tf\nw = tf.Variable(1.0)\n"
                       "train = tf.train.AdamOptimizer(0.1).minimize(tf.square(w - 3.0))\nsaver = tf.train.Saver()\n"
                       "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                       "    saver.restore(sess, 'model.ckpt')\n    sess.run(train)\n    print(sess.run(w))\n")
COVERED_BY = {
    "saver-var-list": "samples/29_saver_restore.py",
    "jacobian-loops": "tests/golden/jacobian_compat_vectorized.py",
    "variable-store": "tests/golden/variable_store_reuse.py",
    "jacobian-map-fn": "tests/golden/jacobian_map_fn_over_indices.py",
    "hessians-as-gradients": "tests/golden/hessians_and_pfor_jacobian.py",
    "gradient-ys-named": "tests/golden/jacobian_penalty_nested_tapes.py",
    "get-variable": "tests/golden/variable_store_reuse.py",
    "absl-wrappers": "tests/golden/host_calls_kept.py",
    "random-seed": "tests/golden/plumbing_control_dependencies_logging.py",
    "idle-queue-runners": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [2])\n"
                           "with tf.Session() as sess:\n    coord = tf.train.Coordinator()\n"
                           "    threads = tf.train.start_queue_runners(sess, coord)\n"
                           "    print(sess.run(x * 2.0, {x: [1.0, 2.0]}))\n    coord.request_stop()\n"
                           "    coord.join(threads)\n"),
    "session-config": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [2])\n"
                       "with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:\n"
                       "    print(sess.run(x * 2.0, {x: [1.0, 2.0]}))\n"),
    "optimizers": "tests/golden/class_actor_grad_ys.py",
    "hoist-optimizers": "tests/golden/class_actor_grad_ys.py",
    "hoist-keras-layers": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
                           "y = tf.keras.layers.Dense(1, kernel_initializer='ones')(x)\n"
                           "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                           "    print(sess.run(y, {x: [[1.0, 2.0, 3.0]]}))\n"),
    "hoist-graph-ops": "tests/golden/function_builds_ops_it_runs.py",
    "optional-sessions": ("import tensorflow as tf\n\n\nclass Agent:\n    def __init__(self, sess=None):\n"
                          "        self.w = tf.Variable(2.0)\n        if sess is None:\n"
                          "            self.sess = tf.Session()\n"
                          "            self.sess.run(tf.global_variables_initializer())\n"
                          "        else:\n            self.sess = sess\n\n    def value(self):\n"
                          "        return self.sess.run(self.w)\n\n\nprint(Agent().value())\n"),
    "tensor-names": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None], name='x')\n"
                     "total = tf.reduce_sum(x, name='total')\nwith tf.Session() as sess:\n"
                     "    print(sess.run('total:0', {'x:0': [1.0, 2.0]}))\n"),
    "softmax-labels": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
                       "w = tf.Variable(tf.ones([2, 2]))\nloss = tf.nn.softmax_cross_entropy_with_logits("
                       "labels=tf.nn.softmax(tf.matmul(x, w)), logits=x)\n"
                       "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                       "    print(sess.run(loss, {x: [[1.0, 2.0]]}))\n"),
    "run-once-ops": ("import tensorflow as tf\nv = tf.Variable(1.0)\nsess = tf.Session()\n"
                     "sess.run(tf.global_variables_initializer())\nfor i in range(3):\n"
                     "    upd = tf.assign_add(v, 1.0)\n    sess.run(upd)\nprint(sess.run(v))\n"),
    "discarded-values": ("import tensorflow as tf\nv = tf.Variable(1.0)\nsess = tf.Session()\n"
                         "sess.run(tf.global_variables_initializer())\nfor i in range(3):\n"
                         "    sess.run(tf.assign_add(v, 1.0))\nprint(sess.run(v))\n"),
    "keras-variable-values": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
                              "with tf.variable_scope('main'):\n    h = tf.layers.dense(x, 2)\n"
                              "with tf.variable_scope('target'):\n    t = tf.layers.dense(x, 2)\n"
                              "src = tf.trainable_variables('main')\ndst = tf.trainable_variables('target')\n"
                              "ops = [d.assign(s.value()) for s, d in zip(src, dst)]\n"
                              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                              "    sess.run(ops)\n"),
    "dimension-values": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
                         "w = tf.Variable(tf.ones([x.get_shape()[1].value, 2]))\n"),
    "dropout-rate": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [3])\nh = tf.nn.dropout(x, 0.5)\n"
                     "with tf.Session() as sess:\n    print(sess.run(h, {x: [1.0, 2.0, 3.0]}))\n"),
    "dead-collections": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [2])\nw = tf.Variable(1.0)\n"
                         "ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)\nwith tf.control_dependencies(ops):\n"
                         "    step = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(x * w))\n"
                         "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                         "    sess.run(step, {x: [1.0, 2.0]})\n"),
    "cond-flags": ("import tensorflow as tf\nflag = tf.placeholder(tf.bool, [])\n"
                   "y = tf.cond(flag, lambda: 1.0, lambda: 2.0)\n"
                   "with tf.Session() as sess:\n    print(sess.run(y, {flag: True}))\n"),
    "lr-schedules": "tests/golden/schedule_decays_and_floors.py",
    "assign-ops": ("import tensorflow as tf\nv = tf.Variable(1.0)\nbump = tf.assign_add(v, 1.0)\n"
                   "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                   "    print(sess.run(bump))\n"),
    "layers-to-keras": "tests/golden/layers_mlp_dropout.py",
    "rnn-to-keras": "tests/golden/rnn_gru_stacked_sequence_length.py",
    "rnn-cell-steps": "tests/golden/rnn_cells_stepped_by_hand.py",
    "rnn-checkpoints": "tests/golden/rnn_gru_stacked_sequence_length.py",  # the weight-mapping helpers
    "summaries": "samples/28_summary_file_writer.py",
    "summary-loops": ("import tensorflow as tf\nw = tf.Variable(1.0, name='w')\nx = tf.placeholder(tf.float32)\n"
                      "for var in tf.trainable_variables():\n    tf.summary.histogram(var.name, var)\n"
                      "merged = tf.summary.merge_all()\nsess = tf.Session()\nwriter = tf.summary.FileWriter('logs')\n"
                      "s = sess.run(merged, {x: 1.0})\nwriter.add_summary(s, 0)\n"),
    "summary-call-sites": ("import tensorflow as tf\n\n\ndef loss(y):\n    total = tf.reduce_sum(y)\n"
                           "    tf.summary.scalar('total', total)\n    return total\n\n\n"
                           "x = tf.placeholder(tf.float32, [None])\nloss = loss(x * 2.0)\n"
                           "merged = tf.summary.merge_all()\nsess = tf.Session()\n"
                           "writer = tf.summary.FileWriter('logs')\n"
                           "s = sess.run(merged, {x: [1.0]})\nwriter.add_summary(s, 0)\n"),
    "cast-shorthands": "tests/golden/cast_shorthands_numpy_function.py",
    "streaming-metrics": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\n"
                          "m, m_op = tf.metrics.mean(x)\nwith tf.Session() as sess:\n"
                          "    sess.run(tf.local_variables_initializer())\n"
                          "    print(sess.run(m_op, {x: [1.0, 2.0]}))\n"),
    "constant-branches": ("import tensorflow as tf\nx = tf.constant(2.0)\nif True:\n    y = x * 3.0\n"
                          "else:\n    y = x\nwith tf.Session() as sess:\n    print(sess.run(y))\n"),
    "shape-changing-variables": ("import tensorflow as tf\na = tf.Variable([], validate_shape=False)\n"
                                 "grow = tf.assign(a, tf.concat([a, [1.0]], 0), validate_shape=False)\n"
                                 "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                                 "    sess.run(grow)\n    print(sess.run(a))\n"),
    "saver-slots": _RESTORE_THEN_TRAIN,
    "saver-slot-class": _RESTORE_THEN_TRAIN,
    "initialized-values": ("import tensorflow as tf\nw1 = tf.Variable(1.0)\nw2 = tf.Variable(w1.initialized_value())\n"
                           "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                           "    print(sess.run(w2))\n"),
    "while-loops": ("import tensorflow as tf\nn = tf.placeholder(tf.int32, [])\n"
                    "r = tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)])\n"
                    "with tf.Session() as sess:\n    print(sess.run(r, {n: 5}))\n"),
    "numpy-function": "tests/golden/cast_shorthands_numpy_function.py",
    "contrib-layers": "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\nh = tf.contrib.layers.flatten(x)\n",
    "contrib-batch-norm": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
                           "h = tf.contrib.layers.batch_norm(x, updates_collections=None, scope='bn')\n"),
    "slim-model-analyzer": ("import tensorflow as tf\nimport tensorflow.contrib.slim as slim\nw = tf.Variable(1.0)\n"
                            "slim.model_analyzer.analyze_vars(tf.trainable_variables(), print_info=True)\n"),
    "graph-function-inputs": "tests/golden/layers_mlp_dropout.py",
    "unwrap-scopes": "tests/golden/layers_mlp_dropout.py",
    "helper-modules": "tests/golden/value_helper_module_per_call.py",
    "dataset-iterators": "samples/27_dataset_one_shot_iterator.py",
    "compat-mode": "tests/golden/compat_fallback_contrib.py",
    "session-to-functions": "tests/golden/class_actor_grad_ys.py",
    "symbol-renames": "tests/golden/compat_v1_alias.py",
    "eager-imports": "tests/golden/compat_v1_alias.py",
    "frozen-keras-layers": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
                            "layer = tf.keras.layers.Dense(1, trainable=False)\ny = layer(x)\n"
                            "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                            "    print(sess.run(y, {x: [[1.0, 2.0]]}).shape)\n"),
    "distributed-runtime": ("import tensorflow as tf\nserver = tf.train.Server.create_local_server()\n"
                            "x = tf.constant(1.0)\nwith tf.Session(server.target) as sess:\n    print(sess.run(x))\n"),
    "scoped-variable-names": ("import tensorflow as tf\ndef make():\n    with tf.variable_scope('g'):\n"
                              "        return tf.Variable(1.0, name='w')\nG = make()\n"
                              "print(G.name)\nwith tf.Session() as sess:\n"
                              "    sess.run(tf.global_variables_initializer())\n    print(sess.run(G))\n"),
    "tf1-variable-names": ("import tensorflow as tf\na = tf.Variable(1.0)\nb = tf.Variable(2.0)\nprint(b.name)\n"
                           "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                           "    print(sess.run(a + b))\n"),
    "case-pairs": "tests/golden/case_dict_exclusive.py",
    "layer-classes": ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
                      "layer = tf.layers.Dense(units=1)\ny = layer(x)\nwith tf.Session() as sess:\n"
                      "    sess.run(tf.global_variables_initializer())\n    print(sess.run(y, {x: np.ones((1, 3))}))\n"),
    "legacy-keras-eager": ("import tensorflow as tf\ndef rnn(x):\n    cell = tf.nn.rnn_cell.BasicRNNCell(4)\n"
                           "    return tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)[0]\n"),
    "dead-parameters": "tests/golden/variable_store_reuse.py",
    "pep8-blank-lines": "tests/golden/variable_store_reuse.py",
    "continuation-indents": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\n"
                             "loss = tf.reduce_sum(x) + \\\n    tf.reduce_mean(x)\n"
                             "with tf.Session() as sess:\n    print(sess.run(loss, {x: [1.0, 2.0]}))\n"),
    "tf-alias": "samples/18_alias_tf1.py",
    "inline-build-methods": "tests/golden/class_build_methods_from_init.py",
    "user-collections": ("import tensorflow as tf\nw = tf.get_variable('w', [2], collections=['mine', "
                         "tf.GraphKeys.GLOBAL_VARIABLES])\nmine = tf.get_collection('mine')\n"
                         "double = [tf.assign(v, v * 2.0) for v in mine]\nwith tf.Session() as sess:\n"
                         "    sess.run(tf.global_variables_initializer())\n    print(sess.run(double))\n"),
    "inline-build-functions": ("import tensorflow as tf\ndef build():\n    x = tf.placeholder(tf.float32, [None])\n"
                               "    return x, tf.reduce_sum(x)\nx, total = build()\nwith tf.Session() as sess:\n"
                               "    print(sess.run(total, {x: [1.0, 2.0]}))\n"),
    "inline-step-helpers": "tests/golden/layer_loop_helper_and_training.py",
    "variable-name-filters": ("import tensorflow as tf\nwith tf.variable_scope('g'):\n    G = tf.Variable(1.0)\n"
                              "gvar = [v for v in tf.trainable_variables() if 'g' in v.name]\n"),
    "nested-summary-helpers": ("import tensorflow as tf\ndef summarize(v):\n    tf.summary.histogram('v', v)\n"
                               "def layer(x, name):\n    with tf.name_scope(name):\n"
                               "        w = tf.Variable(tf.ones([2, 2]))\n        summarize(w)\n"
                               "        y = tf.matmul(x, w)\n        return y\n"
                               "x = tf.placeholder(tf.float32, [None, 2])\nh = layer(x, 'one')\n"
                               "merged = tf.summary.merge_all()\n"),
    "helper-summaries": ("import tensorflow as tf\ndef layer(x, name):\n    with tf.name_scope(name):\n"
                         "        w = tf.Variable(tf.ones([2, 2]))\n        tf.summary.histogram('w', w)\n"
                         "        y = tf.matmul(x, w)\n        return y\nx = tf.placeholder(tf.float32, [None, 2])\n"
                         "h = layer(x, 'one')\nmerged = tf.summary.merge_all()\n"),
    "split-build-loops": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\nh = x\n"
                          "for i in range(2):\n    W = tf.Variable(tf.ones([2, 2]))\n    h = tf.matmul(h, W)\n"
                          "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                          "    print(sess.run(h, {x: [[1.0, 2.0]]}))\n"),
    "moving-averages": ("import tensorflow as tf\nw = tf.Variable(1.0)\nema = tf.train.ExponentialMovingAverage(0.9)\n"
                        "ema_op = ema.apply([w])\nwith tf.Session() as sess:\n"
                        "    sess.run(tf.global_variables_initializer())\n    sess.run(ema_op)\n"
                        "    print(sess.run(ema.average(w)))\n"),
    "queue-pipelines": ("import tensorflow as tf\nq = tf.train.string_input_producer(['a.csv'], shuffle=False)\n"
                        "reader = tf.TextLineReader()\nkey, value = reader.read(q)\n"
                        "a, b = tf.decode_csv(value, record_defaults=[[0.0], [0.0]])\n"
                        "xs, ys = tf.train.batch([a, b], batch_size=2)\nwith tf.Session() as sess:\n"
                        "    coord = tf.train.Coordinator()\n"
                        "    threads = tf.train.start_queue_runners(sess=sess, coord=coord)\n"
                        "    print(sess.run([xs, ys]))\n    coord.request_stop()\n    coord.join(threads)\n"),
    "rebound-names": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [3])\na = tf.constant([1.0, 2.0, 3.0])\n"
                      "y = x * a\na = a * 2.0\nwith tf.Session() as sess:\n    print(sess.run(y, {x: [1.0, 1.0, 1.0]}))\n"),
    "eager-branches": ("import numpy as np\nimport tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(np.ones(3))\n"
                       "if tf.executing_eagerly():\n    first = next(iter(ds)).numpy()\nelse:\n"
                       "    item = ds.make_one_shot_iterator().get_next()\n    with tf.Session() as sess:\n"
                       "        first = sess.run(item)\nprint(first)\n"),
    "own-graphs": ("import tensorflow as tf\n\n\nclass M:\n    def __init__(self):\n        self.g = tf.Graph()\n"
                   "        with self.g.as_default():\n            self.x = tf.placeholder(tf.float32, [2])\n"
                   "            self.y = self.x * 2.0\n\n\nm = M()\nwith tf.Session(graph=m.g) as sess:\n"
                   "    print(sess.run(m.y, {m.x: [1.0, 2.0]}))\n"),
    "placeholder-aliases": ("import tensorflow as tf\n\n\nclass M:\n    def __init__(self):\n"
                            "        x = tf.placeholder(tf.float32, [2])\n        self.y = x * 2.0\n        self.x = x\n\n\n"
                            "m = M()\nwith tf.Session() as sess:\n    print(sess.run(m.y, {m.x: [1.0, 2.0]}))\n"),
    "constant-reinitialization": ("import tensorflow as tf\nw = tf.Variable(1.0)\ninit = tf.global_variables_initializer()\n"
                                  "sess = tf.Session()\nsess.run(init)\nsess.run(tf.assign(w, 5.0))\nsess.run(init)\n"
                                  "print(sess.run(w))\n"),
    "feed-branches": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [2])\n"
                      "k = tf.placeholder_with_default(1.0, [])\nsess = tf.Session()\nfor step in range(2):\n"
                      "    if step:\n        feed = {x: [1.0, 2.0], k: 3.0}\n    else:\n        feed = {x: [1.0, 2.0]}\n"
                      "    print(sess.run(x * k, feed))\n"),
    "argument-closures": ("import tensorflow as tf\n\n\ndef evaluate(s, y, feed_x, value):\n"
                          "    return s.run(y, {feed_x: value})\n\n\nx = tf.placeholder(tf.float32, [2])\n"
                          "out = x * 2.0\nsess = tf.Session()\nprint(evaluate(sess, out, x, [1.0, 2.0]))\n"),
    "collection-items": ("import tensorflow as tf\nv = tf.Variable(1.0)\ny = v * 2.0\ninc = tf.assign_add(v, 1.0)\n"
                         'ops = {"y": y, "inc": inc}\nwith tf.Session() as sess:\n'
                         "    sess.run(tf.global_variables_initializer())\n    sess.run(ops['inc'])\n"
                         "    print(sess.run(ops['y']))\n"),
    "unrun-ops": ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nc = tf.Variable(0.0)\n\n\n"
                  "def double(t):\n    tf.assign_add(c, 1.0)\n    return t * 2.0\n\n\ny = double(x)\n"
                  "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                  "    print(sess.run(y, {x: [1.0]}))\n"),
    "placeholder-tuples": ("import tensorflow as tf\nx, k = tf.placeholder(tf.float32, [2]), tf.placeholder(tf.float32)\n"
                           "with tf.Session() as sess:\n    print(sess.run(x * k, {x: [1.0, 2.0], k: 3.0}))\n"),
    "variable-list-aliases": ("import tensorflow as tf\nw = tf.Variable(1.0)\nwith tf.Session() as sess:\n"
                              "    sess.run(tf.global_variables_initializer())\n"
                              "    print(sess.run(tf.all_variables()))\n"),
    "version-branches": ("import tensorflow as tf\nsess = tf.Session()\nif int(tf.__version__.split('.')[0]) < 1:\n"
                         "    writer = tf.train.SummaryWriter('logs', sess.graph)\nelse:\n"
                         "    writer = tf.summary.FileWriter('logs', sess.graph)\n"),
}


def _source(covered_by: str) -> str:
    if "\n" in covered_by:
        return covered_by
    return (ROOT / covered_by).read_text().partition("# output\n")[0]


def test_every_registered_rule_has_an_input():
    assert set(COVERED_BY) == rule_ids()


@pytest.mark.parametrize("rule_id", sorted(COVERED_BY))
def test_ignoring_the_rule_changes_the_output(rule_id):
    source = _source(COVERED_BY[rule_id])
    with_rule = migrate_source(source, "input.py")
    without = migrate_source(source, "input.py", ignore=[rule_id])
    assert with_rule.changed
    assert without.new_source != with_rule.new_source
