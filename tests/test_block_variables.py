"""analysis/block_variables and the variable lists built from it: what each name holds after a loop that makes
variables, and a variable whose name graph code binds again."""
from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

# The loop's own name holds the last variable only; the list holds them all (it was `[*W, *weights]`: the
# migrated program iterated over the last variable's rows and crashed).
LIST_OF_LOOP_VARIABLES = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
weights = []
for i in range(2):
    W = tf.Variable(tf.ones([2, 2]) * (i + 1))
    weights.append(W)
h = tf.matmul(tf.matmul(x, weights[0]), weights[1])
loss = tf.reduce_mean(tf.square(h))
train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run([loss, train], feed_dict={x: np.ones((4, 2), np.float32)})[0])
    print(sess.run(tf.trainable_variables()))
'''

# `w` names a variable, then the per-run product: TF1 trained the variable (the default list dropped it).
VARIABLE_NAME_REBOUND = '''
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.ones([2, 1]))
b = tf.Variable(tf.zeros([1]))
w = tf.matmul(x, w)
loss = tf.reduce_mean(tf.square(w + b))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run([loss, train], feed_dict={x: np.ones((4, 2), np.float32)})[0])
'''


def test_the_list_a_loop_fills_is_what_the_optimizer_trains_and_the_collection_lists():
    result = migrate_source(LIST_OF_LOOP_VARIABLES, "loop.py")
    assert result.outcome == "eager", result.findings
    assert "variables = [*weights]" in result.new_source and "*W" not in result.new_source
    assert_same_output(run_legacy(LIST_OF_LOOP_VARIABLES), run_migrated(result.new_source))


def test_a_variable_whose_name_graph_code_binds_again_is_still_trained():
    result = migrate_source(VARIABLE_NAME_REBOUND, "rebound.py")
    assert result.outcome == "eager", result.findings
    assert "tape.gradient(loss, [w, b])" in result.new_source  # the outer `w`: the function's own is `w_2`
    assert "w_2 = tf.matmul(x, w)" in result.new_source
    assert_same_output(run_legacy(VARIABLE_NAME_REBOUND), run_migrated(result.new_source))


def test_a_collection_fetched_inline_is_the_list_of_its_variables():
    source = ("import numpy as np\nimport tensorflow as tf\na = tf.Variable(tf.fill([1], 0.2))\n"
              "b = tf.Variable(tf.fill([2], 0.3))\nwith tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n"
              "    print([np.round(v, 5).tolist() for v in sess.run(tf.trainable_variables())])\n")
    result = migrate_source(source, "inline.py")
    assert result.outcome == "eager", result.findings
    assert "trainable_variables" not in result.new_source  # was `tf.compat.v1.trainable_variables().numpy()`
    assert_same_output(run_legacy(source), run_migrated(result.new_source))


def test_variables_a_loop_makes_and_no_list_keeps_block_with_the_reason():
    source = ("import tensorflow as tf\nfor i in range(2):\n    W = tf.Variable(tf.ones([2]) * i)\n"
              "total = tf.reduce_sum(W)\nwith tf.Session() as sess:\n"
              "    sess.run(tf.global_variables_initializer())\n    print(sess.run(tf.trainable_variables()))\n")
    result = migrate_source(source, "unkept.py")
    assert result.outcome == "compat" and "which no list keeps" in result.compat_reason


# `self.td = self.r + 0.9 * self.v` calls no TF function and is graph code all the same: an attribute key is
# read for its value, not only for a static shape.
ATTRIBUTE_ARITHMETIC = '''
import numpy as np
import tensorflow as tf


class Critic(object):
    def __init__(self, sess):
        self.sess = sess
        self.s = tf.placeholder(tf.float32, [None, 2])
        self.r = tf.placeholder(tf.float32, None)
        self.w = tf.Variable(tf.fill([2, 1], 0.3))
        self.v = tf.matmul(self.s, self.w)
        self.td = self.r + 0.9 * self.v
        self.loss = tf.reduce_mean(tf.square(self.td))
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)

    def learn(self, s, r):
        return self.sess.run([self.td, self.train], {self.s: s, self.r: r})[0]


sess = tf.Session()
critic = Critic(sess)
sess.run(tf.global_variables_initializer())
for step in range(3):
    print(step, np.round(critic.learn(np.ones((2, 2), np.float32), 1.0), 5))
'''


def test_arithmetic_on_graph_attributes_is_graph_code():
    result = migrate_source(ATTRIBUTE_ARITHMETIC, "critic.py")
    assert result.outcome == "eager", result.findings
    assert "td = self.r + 0.9 * self.v" not in result.new_source.split("def run_")[0]  # not kept at build time
    assert_same_output(run_legacy(ATTRIBUTE_ARITHMETIC), run_migrated(result.new_source))


def test_a_name_bound_to_a_static_shape_is_python_and_reads_the_declared_shape():
    source = ("import numpy as np\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 4])\n"
              "h_shape = x.get_shape()\nw = tf.Variable(tf.fill([int(h_shape[1]), 3], 0.1))\ny = tf.matmul(x, w)\n"
              "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
              "    print(h_shape.as_list(), sess.run(y, {x: np.ones((2, 4))}))\n")
    result = migrate_source(source, "shape.py")
    assert result.outcome == "eager", result.findings
    assert "h_shape = tf.TensorShape([None, 4])" in result.new_source
    assert_same_output(run_legacy(source), run_migrated(result.new_source))
