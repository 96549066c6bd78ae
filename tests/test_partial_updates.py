"""A run that needs part of a line of several updates keeps the file compat (analysis/partial_updates): TF1 ran the
updates the run fetched; the run's function computes the whole line and made them all (each case below converted
and printed other numbers before)."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

HEADER = '''\
import tensorflow as tf
v1 = tf.Variable(1.0)
v2 = tf.Variable(10.0)
'''
RUN = '''\
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run({fetch})
    print(sess.run([v1, v2]))
'''


@pytest.mark.parametrize("line, fetch, why", [
    pytest.param("ups = [tf.assign_add(v, 1.0) for v in (v1, v2)]", "ups[0]", "reads part of `ups`",
                 id="an item of a comprehension of updates"),
    pytest.param("ups = [tf.assign(v1, v1 * 2), tf.assign(v2, v2 + 1)]\nfirst = ups[0]", "first",
                 "reads part of `ups`", id="an item bound to a name first"),
    pytest.param('ops = {"a": v1.assign_add(1.0), "b": v2.assign_add(1.0)}', 'ops["a"]', "reads part of `ops`",
                 id="an item of a dict of updates"),
    pytest.param('ops = {k: v.assign(v * 2 + 1) for k, v in (("a", v1), ("b", v2))}', 'ops["b"]',
                 "reads part of `ops`", id="an item of a dict comprehension"),
    pytest.param("a, b = tf.assign_add(v1, 1.0), tf.assign_add(v2, 1.0)", "a",
                 "also binds `b`, an op that changes state",
                 id="one target of a tuple of updates"),
    pytest.param('import collections\nOps = collections.namedtuple("Ops", "a b")\n'
                 'ops = Ops(a=v1.assign_add(1.0), b=v2.assign_add(1.0))', "ops.a", "reads part of `ops`",
                 id="a field of a namedtuple of updates"),
    pytest.param("ups = []\nfor v in (v1, v2):\n    ups.append(tf.assign_add(v, 1.0))", "ups[1]",
                 "reads part of `ups`", id="an item of a list a loop fills"),
    pytest.param("ups = [tf.assign_add(v1, 1.0), tf.assign_add(v2, 1.0)]\nfirst, second = ups", "first",
                 "reads part of `ups`", id="one name a list of updates is unpacked into"),
    pytest.param("y = v1 * 2.0\ninc = tf.assign_add(v2, 1.0)\na, b = y, inc", "a",
                 "tuple assignment whose other element reads `inc`", id="one target of a tuple of names"),
])
def test_a_run_of_part_of_a_line_of_updates_keeps_compat_with_the_reason(line, fetch, why):
    _assert_compat_at_the_run(line, fetch, why)


# The updates bound to names first, a collection holding the names: `collection-items` reads such items by name
# (the program converts, see its tests); where it cannot (left out here), the run's check keeps the file compat.
@pytest.mark.parametrize("line, fetch, why", [
    pytest.param("y = v1 * 2.0\ninc = tf.assign_add(v2, 1.0)\nfetches = [y, inc]", "fetches[0]",
                 "reads part of `fetches`, which also holds `inc`", id="an item of a list of names of updates"),
    pytest.param('y = v1 * 2.0\ninc = tf.assign_add(v2, 1.0)\nops = {"y": y, "inc": inc}', 'ops["y"]',
                 "reads part of `ops`, which also holds `inc`", id="an item of a dict of names of updates"),
    pytest.param("y = v1 * 2.0\ninc = tf.assign_add(v2, 1.0)\npair = y, inc", "pair[0]",
                 "reads part of `pair`, which also holds `inc`", id="an item of a tuple of names of updates"),
    pytest.param("y = v1 * 2.0\ninc = tf.assign_add(v2, 1.0)\nops = dict(y=y, inc=inc)", 'ops["y"]',
                 "reads part of `ops`, which also holds `inc`", id="an item of a dict() of names of updates"),
])
def test_a_run_of_an_item_of_a_collection_of_names_of_updates_keeps_compat(line, fetch, why):
    _assert_compat_at_the_run(line, fetch, why, ignore=("collection-items",))


def _assert_compat_at_the_run(line, fetch, why, ignore=()):
    source = HEADER + line + "\n" + RUN.format(fetch=fetch)
    migrated = migrate_source(source, "updates.py", ignore=ignore)
    assert migrated.outcome == "compat"
    assert why in migrated.compat_reason
    run_line = source.splitlines().index(f"    sess.run({fetch})") + 1
    assert any(why in finding.message and finding.line == run_line
               for finding in migrated.findings if finding.rule == "eager-blocker")  # (the reason at the run)


@pytest.mark.parametrize("line, fetch", [
    pytest.param("ups = [tf.assign_add(v, 1.0) for v in (v1, v2)]", "ups", id="the whole list"),
    pytest.param("ups = [tf.assign_add(v, 1.0) for v in (v1, v2)]\nboth = tf.group(*ups)", "both",
                 id="a group of the whole list"),
    pytest.param("a, b = tf.assign_add(v1, 1.0), v2 * 2.0", "a", id="the update of a tuple, beside a value"),
    pytest.param("u = [tf.assign_add(v1, 1.0)]", "u[0]", id="the one update of a list"),
    pytest.param("ups = []\nfor v in (v1, v2):\n    ups.append(tf.assign_add(v, 1.0))", "ups",
                 id="the whole list a loop fills"),
    pytest.param("y = v1 * 2.0\ninc = tf.assign_add(v2, 1.0)\nfetches = [y, inc]", "fetches[1]",
                 id="the update item of a list of names"),
    pytest.param("y = v1 * 2.0\ninc = tf.assign_add(v2, 1.0)\na, b = y, inc", "b",
                 id="the update target of a tuple of names"),
])
def test_a_run_of_every_update_it_reads_converts_with_the_legacy_output(line, fetch):
    source = HEADER + line + "\n" + RUN.format(fetch=fetch)
    migrated = migrate_source(source, "updates.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "Session" not in migrated.new_source
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))



# TF1 called `f1` alone, at each run ([1, 1]); the run's function computed the list and called both ([0, 0, 1, 1]).
# (Sorted: TF1 ran the two calls of one run in no fixed order.)
PY_FUNCS = '''\
import numpy as np
import tensorflow as tf
log = []
def f0():
    log.append(0)
    return np.float32(0)
def f1():
    log.append(1)
    return np.float32(1)
fs = [tf.py_func(f0, [], tf.float32), tf.py_func(f1, [], tf.float32)]
with tf.Session() as sess:
    print(sess.run({fetch}))
    print(sess.run({fetch}))
print(sorted(log))
'''


def test_a_run_of_one_of_a_list_of_python_functions_keeps_compat():
    migrated = migrate_source(PY_FUNCS.format(fetch="fs[1]"), "py_funcs.py")
    assert migrated.outcome == "compat"
    assert "reads part of `fs`" in migrated.compat_reason


def test_a_run_of_the_whole_list_of_python_functions_converts_with_the_legacy_output():
    source = PY_FUNCS.format(fetch="fs")
    migrated = migrate_source(source, "py_funcs.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))


# An agent class whose method runs one of its updates: converted, the method made both (10.0 -> 11.0).
AGENT = '''\
import tensorflow as tf
class Agent:
    def __init__(self):
        self.v1 = tf.Variable(1.0)
        self.v2 = tf.Variable(10.0)
        {line}
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())
    def step(self):
        self.sess.run({fetch})
        return self.sess.run([self.v1, self.v2])
agent = Agent()
print(agent.step())
'''


@pytest.mark.parametrize("line, fetch, why", [
    pytest.param("self.ups = [tf.assign_add(self.v1, 1.0), tf.assign_add(self.v2, 1.0)]", "self.ups[0]",
                 "reads part of `self.ups`", id="an item of the object's list of updates"),
    pytest.param("self.a, self.b = tf.assign_add(self.v1, 5.0), tf.assign_add(self.v2, 5.0)", "self.a",
                 "also binds `self.b`", id="one of the object's tuple of updates"),
])
def test_a_method_running_part_of_a_line_of_updates_keeps_compat(line, fetch, why):
    migrated = migrate_source(AGENT.format(line=line, fetch=fetch), "agent.py")
    assert migrated.outcome == "compat"
    assert why in migrated.compat_reason


@pytest.mark.parametrize("block", [
    pytest.param("USE = True\nif USE:\n    up1 = tf.assign_add(v1, 1.0)\n    up2 = tf.assign_add(v2, 1.0)\n"
                 "else:\n    up1 = up2 = None", id="an if block"),
    pytest.param("for k in range(1):\n    up1 = tf.assign_add(v1, 1.0)\n    up2 = tf.assign_add(v2, 1.0)",
                 id="a for block"),
    pytest.param("try:\n    up1 = tf.assign_add(v1, 1.0)\n    up2 = tf.assign_add(v2, 1.0)\n"
                 "except AttributeError:\n    up1 = up2 = None", id="a try block"),
])
def test_a_run_of_one_update_a_block_binds_keeps_compat(block):
    # (the slice takes a block whole: converted, the run made both updates, 10.0 -> 11.0; the `if` tests a name, as
    # constant-branches unwraps `if True:`)
    migrated = migrate_source(HEADER + block + "\n" + RUN.format(fetch="up1"), "blocks.py")
    assert migrated.outcome == "compat"
    assert "also binds `up2`, an op that changes state" in migrated.compat_reason


def test_a_run_of_an_update_beside_one_bound_to_no_name_in_a_block_keeps_compat():
    # (TF1 never ran the op bound to no name; the slice takes the block whole and ran it, 10.0 -> 11.0. `unrun-ops`
    # removes such a statement of a TF function, the program then converts; a method's op is what it leaves.)
    block = "USE = True\nif USE:\n    up1 = tf.assign_add(v1, 1.0)\n    v2.assign_add(1.0)"  # (not `if True:`,
    # which constant-branches unwraps)
    migrated = migrate_source(HEADER + block + "\n" + RUN.format(fetch="up1"), "blocks.py")
    assert migrated.outcome == "compat"
    assert "also makes, bound to no name, an op that changes state" in migrated.compat_reason
    source = HEADER + block.replace("v2.assign_add(1.0)", "tf.assign_add(v2, 1.0)") + "\n" + RUN.format(fetch="up1")
    migrated = migrate_source(source, "blocks.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))
