"""idle-queue-runners: starting the queue runners of a program that builds none gives the empty list TF1 gave."""
import pytest

from tests.rules.alone import apply_alone
from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source
from tf_migrate.rules.idle_queue_runners import IdleQueueRunners

# Training fed by feed dicts inside the coordinator boilerplate of queue-fed code; an error raised in the loop goes
# to the coordinator, whose join raises it again (TF1's Coordinator and TF2's are one class).
PROGRAM = '''\
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.ones([2, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    try:
        try:
            i = 0
            while not coord.should_stop():
                _, value = sess.run([step, loss], {x: np.ones((4, 2))})
                print(i, value, len(threads))
                i += 1
                if i == 3:
                    raise ValueError("stopped at step 3")
        except Exception as e:
            coord.request_stop(e)
        finally:
            coord.request_stop()
            coord.join(threads)
    except ValueError as raised:
        print("join raised:", raised)
'''


def test_the_start_becomes_the_empty_list_and_the_program_prints_the_legacy_output():
    migrated = migrate_source(PROGRAM, "coord.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    code = migrated.new_source
    assert "threads = []\n" in code and "start_queue_runners" not in code and "Session" not in code
    assert "coord = tf.train.Coordinator()\n" in code
    assert_same_output(run_legacy(PROGRAM), run_migrated(code))


START = "threads = tf.train.start_queue_runners(sess=sess, coord=coord)\n"
SESSION = "sess = tf.Session()\ncoord = tf.train.Coordinator()\n"
LEFT_ALONE = {
    "a queue runner made": "qr = tf.train.QueueRunner(queue, [enqueue])\n",
    "an input producer": "files = tf.train.string_input_producer(['a.csv'])\n",
    "a batcher": "batch = tf.train.batch([x], batch_size=4)\n",
    "a module of the program imported": "import inputs\n",
    "a function imported from one": "from inputs import distorted_inputs\n",
    "a star import": "from inputs import *\n",
    # (mxl1990's queue_context.py: a helper the modules that build the queues call with their session)
    "a session a function was given": "def queue_context(sess):\n    coord = tf.train.Coordinator()\n"
                                      "    threads = tf.train.start_queue_runners(sess=sess, coord=coord)\n"
                                      "    return coord, threads\n",
    "the default session": "sess = tf.get_default_session()\n",
    "no session made here": "",
}


@pytest.mark.parametrize("case", sorted(LEFT_ALONE))
def test_a_program_that_may_build_queue_runners_keeps_its_start(case):
    made = "" if case == "no session made here" else SESSION
    start = "" if case == "a session a function was given" else START  # (its own start is the one left alone)
    source = "import tensorflow as tf\n" + made + LEFT_ALONE[case] + start
    assert apply_alone(IdleQueueRunners(), source) == source


def test_the_rule_alone_writes_the_list():
    source = "import numpy as np\nimport tensorflow as tf\nimport os\n" + SESSION + START
    assert apply_alone(IdleQueueRunners(), source) == source.replace(START, "threads = []\n")
