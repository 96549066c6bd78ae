"""Queues a program fills and empties with its own ops (``tf.FIFOQueue`` without a queue runner): the queue is
built once, its enqueue and dequeue ops run in each run that fetches them (analysis/built_objects)."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

# A queue that feeds itself: each run dequeues one element and enqueues it again, changed (the pattern of the
# queue chapters of TF1 books); the size read in a run of its own, bound and written at the run.
SELF_FEEDING = '''\
import tensorflow as tf

queue = tf.FIFOQueue(4, tf.int32)
fill = queue.enqueue_many(([3, 7, 1],))
head = queue.dequeue()
again = queue.enqueue([head * 2 + 1])
left = queue.size()
with tf.Session() as sess:
    sess.run(fill)
    for step in range(5):
        value, _ = sess.run([head, again])
        print(step, value)
    print(sess.run(left), sess.run(head))
    print(sess.run(queue.size()))
'''

# Fed from a placeholder inside main(), called twice: each call builds its own queue (TF1 built a new one at each
# call), with two components dequeued in batches.
FED_IN_MAIN = '''\
import numpy as np
import tensorflow as tf

def main(offset):
    values = tf.placeholder(tf.float32, [None])
    labels = tf.placeholder(tf.int32, [None])
    queue = tf.FIFOQueue(10, [tf.float32, tf.int32], shapes=[[], []])
    put = queue.enqueue_many([values, labels])
    batch, batch_labels = queue.dequeue_many(2)
    total = tf.reduce_sum(batch) + tf.cast(tf.reduce_sum(batch_labels), tf.float32)
    count = queue.size()
    with tf.Session() as sess:
        sess.run(put, feed_dict={values: np.arange(5, dtype=np.float32) + offset, labels: [1, 2, 3, 4, 5]})
        print(sess.run(count))
        for _ in range(2):
            print(sess.run([batch, batch_labels, total]))
        print(sess.run(count))

main(0.5)
main(10.0)
'''


@pytest.mark.parametrize("source", [SELF_FEEDING, FED_IN_MAIN], ids=["feeds itself", "fed, in main"])
def test_a_queue_is_built_once_and_its_ops_run_in_the_runs_that_fetch_them_with_the_legacy_output(source):
    migrated = migrate_source(source, "queues.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    code = migrated.new_source
    assert "Session" not in code and "tf.placeholder" not in code and "compat.v1" not in code
    assert "tf.queue.FIFOQueue(" in code and "tf.FIFOQueue(" not in code
    assert_same_output(run_legacy(source), run_migrated(code))


def test_the_dequeue_and_the_enqueue_it_feeds_share_one_run_function():
    code = migrate_source(SELF_FEEDING, "queues.py").new_source
    assert "queue = tf.queue.FIFOQueue(4, tf.int32)\n" in code  # built once, where TF1 built it
    run = code[code.index("def run_head_again("):]
    run = run[:run.index("\n\n")]
    assert "head = queue.dequeue()" in run and "queue.enqueue([head * 2 + 1])" in run
    assert run.index("queue.dequeue()") < run.index("queue.enqueue(")


def test_a_run_of_one_enqueue_is_the_enqueue_where_the_run_stood():
    code = migrate_source(SELF_FEEDING, "queues.py").new_source
    assert "def run_fill(" not in code
    assert "\nqueue.enqueue_many(([3, 7, 1],))\nfor step in range(5):\n" in code
    assert "to_numpy(queue.enqueue" not in code and "enqueue_many(([3, 7, 1],)).numpy()" not in code


def test_a_queue_built_in_a_function_stays_in_it():
    code = migrate_source(FED_IN_MAIN, "queues.py").new_source
    body = code[code.index("def main(offset):"):]
    assert "    queue = tf.queue.FIFOQueue(10, [tf.float32, tf.int32], shapes=[[], []])\n" in body  # not hoisted
    assert code.index("def main(offset):") < code.index("tf.queue.FIFOQueue(")


_HEAD = "import tensorflow as tf\nqueue = tf.FIFOQueue(3, tf.float32)\nfill = queue.enqueue_many([[1., 2., 3.]])\n"
_RUN = "with tf.Session() as sess:\n    sess.run(fill)\n    print(sess.run(out))\n"
REFUSED = {
    "dequeue inside an expression": (_HEAD + "out = queue.dequeue() + 1\n" + _RUN, "`queue.dequeue` inside an expression"),
    "size printed outside a run": (_HEAD + "out = queue.dequeue()\nprint(queue.size())\n" + _RUN,
                                   "`queue.size` inside an expression, outside a run"),
    "variable enqueued": ("import tensorflow as tf\nqueue = tf.FIFOQueue(3, tf.float32, shapes=[[2]])\n"
                          "w = tf.Variable([1., 1.])\nfill = queue.enqueue(w)\nout = queue.dequeue()\n"
                          "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                          "    sess.run(fill)\n    print(sess.run(out))\n", "TF1 queued the variable's own buffer"),
    "queue kept by an object": ("import tensorflow as tf\nclass Buffer:\n    def __init__(self):\n"
                                "        self.queue = tf.FIFOQueue(3, tf.float32)\n"
                                "        self.fill = self.queue.enqueue_many([[1., 2., 3.]])\n"
                                "        self.out = self.queue.dequeue()\nbuffer = Buffer()\n"
                                "with tf.Session() as sess:\n    sess.run(buffer.fill)\n    print(sess.run(buffer.out))\n",
                                "a queue built in a class"),
    "named components": ("import tensorflow as tf\nqueue = tf.FIFOQueue(3, [tf.float32], names=['x'])\n"
                         "fill = queue.enqueue_many({'x': [1., 2., 3.]})\nout = queue.dequeue()\n" + _RUN,
                         "named components"),
    "enqueue op not bound": (_HEAD + "queue.enqueue([4.])\nout = queue.dequeue()\n" + _RUN, "not bound to a name"),
    "shuffling queue": ("import tensorflow as tf\nqueue = tf.RandomShuffleQueue(3, 0, tf.float32)\n"
                        "fill = queue.enqueue_many([[1., 2., 3.]])\nout = queue.dequeue()\n" + _RUN,
                        "`tf.RandomShuffleQueue` has no eager rewrite"),
    "size and dequeue in one run": (_HEAD + "out = queue.dequeue()\nsize = queue.size()\n"
                                    + _RUN.replace("run(out)", "run([out, size])"),
                                    "the run computes `queue.dequeue` and `queue.size`, ops of one queue, and "
                                    "neither from the other"),
    "two dequeues in one run": (_HEAD + "out = [queue.dequeue(), queue.dequeue()]\n" + _RUN, "inside an expression"),
    # (the first version ran a function's dequeue once, eagerly, where TF1 built it: on an empty queue it blocks)
    "queue passed to a function": (_HEAD + "def consume(source):\n    return source.dequeue()\n"
                                   "taken = consume(queue)\nout = queue.dequeue()\n" + _RUN,
                                   "the queue `queue` is used other than by its own ops"),
    "queue used in a function": (_HEAD + "def take():\n    return queue.dequeue()\nprint(take())\n"
                                 "out = queue.dequeue()\n" + _RUN, "the queue `queue` is used in a function"),
    "queue used in a function defined before it": (
        "import tensorflow as tf\ndef take():\n    return queue.dequeue()\n" + _HEAD.split("\n", 1)[1]
        + "print(take())\nout = queue.dequeue()\n" + _RUN, "`take` uses the queue `queue`"),
    "queue aliased": (_HEAD + "other = queue\nout = other.dequeue()\n" + _RUN,
                      "the queue `queue` is used other than by its own ops"),
    "queue run itself": (_HEAD + "out = queue.dequeue()\nwith tf.Session() as s2:\n    print(s2.run(queue))\n"
                         + _RUN, "`queue` holds a queue value, not a graph value the analysis knows"),
    "queue runner of the queue_runner module": (
        _HEAD + "out = queue.dequeue()\nrunner = tf.train.queue_runner.QueueRunner(queue, [fill])\n"
        "tf.train.queue_runner.add_queue_runner(runner)\n" + _RUN,
        "`tf.train.queue_runner.QueueRunner` has no eager rewrite"),
    "queue runner": (_HEAD + "out = queue.dequeue()\nrunner = tf.train.QueueRunner(queue, [fill])\n" + _RUN,
                     "`tf.train.QueueRunner` has no eager rewrite"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_queues_the_analysis_does_not_follow_keep_the_file_compat_with_the_reason(case):
    source, reason = REFUSED[case]
    migrated = migrate_source(source, "queues.py")
    assert migrated.outcome == "compat"
    assert reason in migrated.compat_reason, migrated.compat_reason


def test_a_queue_written_with_the_tf_queue_name_is_the_same_queue():
    # (before the queue was known, ``tf.queue.FIFOQueue`` was not in the table of TF1-only APIs, and its dequeue ran
    # once, eagerly, where TF1 built it)
    source = SELF_FEEDING.replace("tf.FIFOQueue(", "tf.queue.FIFOQueue(")
    code = migrate_source(source, "queues.py").new_source
    assert code == migrate_source(SELF_FEEDING, "queues.py").new_source
