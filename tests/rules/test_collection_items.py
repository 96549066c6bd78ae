"""collection-items: items of a list, tuple or dict of names read by a literal index become the names, and a run of
one item converts (the run's function computed the whole collection: every update it holds)."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.rules.collection_items import CollectionItems
from tests.rules.alone import apply_alone
from tests.twins import assert_same_output, run_legacy, run_migrated

HEAD = "import tensorflow as tf\nv = tf.Variable(1.0)\ny = v * 2.0\ninc = tf.assign_add(v, 1.0)\n"
RUNS = '''with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run({first}))
    sess.run({second})
    print(sess.run({first}))
'''


def _alone(source: str) -> str:
    return apply_alone(CollectionItems(), source, "case.py")


@pytest.mark.parametrize("line, first, second", [
    pytest.param('ops = {"y": y, "inc": inc}', 'ops["y"]', 'ops["inc"]', id="a dict"),
    pytest.param("ops = [y, inc]", "ops[0]", "ops[1]", id="a list"),
    pytest.param("ops = y, inc", "ops[0]", "ops[1]", id="a tuple"),
])
def test_items_read_by_literal_index_become_the_names_and_the_collection_goes(line, first, second):
    code = _alone(HEAD + "# the ops\n" + line + "\n" + RUNS.format(first=first, second=second))
    assert code == HEAD + "# the ops\n" + RUNS.format(first="y", second="inc")


def test_a_collection_also_run_whole_stays_for_that_run():
    source = HEAD + "fetches = [y, inc]\n" + RUNS.format(first="fetches[0]", second="fetches")
    assert _alone(source) == HEAD + "fetches = [y, inc]\n" + RUNS.format(first="y", second="fetches")


@pytest.mark.parametrize("line, first", [
    pytest.param("ops = [y, inc]\nops.append(y)", "ops[0]", id="a collection changed in place"),
    pytest.param("ops = [y, inc]\nops[0] = inc", "ops[0]", id="an item stored"),
    pytest.param("ops = [y, inc]\ny = v * 3.0", "ops[0]", id="a name bound again after it"),
    pytest.param("ops = [y, inc]\nops = [inc, y]", "ops[0]", id="the collection bound again"),
    pytest.param("ops = [y, inc]\nk = 0", "ops[k]", id="an index computed"),
    pytest.param("ops = [y, inc]\nfirst = list(ops)", "ops[0]", id="the collection passed to a function"),
    pytest.param("ops = [y, inc]\nfirsts = [ops[0] for _ in range(2)]", "ops[0]", id="read in a comprehension"),
    pytest.param("ops = [y, v * 3.0]", "ops[0]", id="an item that is not a name"),
    pytest.param("for k in range(2):\n    z = y\nops = [z, inc]", "ops[0]", id="a name bound in a loop"),
])
def test_collections_whose_items_could_hold_other_values_are_left_alone(line, first):
    source = HEAD + line + "\n" + RUNS.format(first=first, second="inc")
    assert _alone(source) == source


def test_a_function_scope_with_its_parameters():
    source = ("import tensorflow as tf\n\n\ndef main(y, inc):\n    ops = {'y': y, 'inc': inc}\n"
              "    return ops['y']\n")
    assert _alone(source) == "import tensorflow as tf\n\n\ndef main(y, inc):\n    return y\n"


# A build function returning a dict of its loss and step: the run of the loss computed the dict, and the step
# (the file stayed compat: the partial-update check); read by name, each run needs its own line.
BUILD = '''import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None])
w = tf.Variable(1.0)


def build(x):
    loss = tf.reduce_mean(tf.square(x * w - 2.0))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    return {"loss": loss, "train": train}


model = build(x)
xs = np.array([1.0, 2.0], np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        print(sess.run(model["loss"], {x: xs}))
        sess.run(model["train"], {x: xs})
    print(sess.run(w))
'''


def test_a_build_functions_returned_dict_converts_with_the_legacy_numbers():
    migrated = migrate_source(BUILD, "build.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert "Session" not in migrated.new_source and "model[" not in migrated.new_source
    assert_same_output(run_legacy(BUILD), run_migrated(migrated.new_source))


def test_a_dict_call_of_names_is_read_by_key_too():
    source = HEAD + "ops = dict(y=y, inc=inc)\n" + RUNS.format(first='ops["y"]', second='ops["inc"]')
    assert _alone(source) == HEAD + RUNS.format(first="y", second="inc")
    shadowed = source.replace("ops = dict(", "dict = lambda **kw: kw\nops = dict(")
    assert _alone(shadowed) == shadowed
