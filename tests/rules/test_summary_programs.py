"""Summaries a class's ``__init__`` builds (rules/_summary_programs.class_program): the migrated program writes the
events the legacy one wrote, and the classes whose summaries TF1 registered in an order the text does not tell
stay compat."""
import pytest

from tf_migrate.engine import migrate_source
from tests.twins import events_both_ways

MODEL = '''
import numpy as np
import tensorflow as tf


class Model(object):
    def __init__(self, lr):
        self.x = tf.placeholder(tf.float32, [None])
        self.w = tf.Variable(0.5, name="w")
        self.loss = tf.reduce_mean(tf.square(self.w * self.x - 2.0 * self.x))
        self.train_op = tf.train.GradientDescentOptimizer(lr).minimize(self.loss)
        with tf.name_scope("train"):
            tf.summary.scalar("loss", self.loss)
        tf.summary.histogram("inputs", self.x)
        self.merged = tf.summary.merge_all()
'''

OUTSIDE = MODEL + '''

model = Model(0.05)
data = np.arange(1.0, 5.0)
with tf.Session() as sess:
    writer = tf.summary.FileWriter(LOGDIR, sess.graph)
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        summary, l, _ = sess.run([model.merged, model.loss, model.train_op], feed_dict={model.x: data})
        writer.add_summary(summary, step)
        print(step, l)
    writer.close()
'''

OWNED = MODEL + '''        self.sess = tf.Session()
        self.writer = tf.summary.FileWriter(LOGDIR, self.sess.graph)
        self.sess.run(tf.global_variables_initializer())

    def learn(self, data, step):
        summary, l, _ = self.sess.run([self.merged, self.loss, self.train_op], {self.x: data})
        self.writer.add_summary(summary, step)
        return l


if __name__ == "__main__":
    model = Model(0.05)
    for step in range(3):
        print(step, model.learn(np.arange(1.0, 5.0), step))
    model.writer.close()
'''


def _writes_the_legacy_events(program, tmp_path):
    result = migrate_source(program, "model.py")
    assert result.outcome == "eager", result.compat_reason
    assert "merge_all" not in result.new_source and "FileWriter" not in result.new_source
    before, after, legacy, migrated = events_both_ways(program, result.new_source, tmp_path)
    assert before == after
    assert set(legacy) == set(migrated) == {(tag, step) for tag in ("train/loss", "inputs") for step in range(3)}
    for key, (kind, number) in legacy.items():
        assert migrated[key][0] == kind
        if number is not None:
            assert migrated[key][1] == pytest.approx(number, rel=1e-5)
    return result.new_source


def test_summaries_of_init_fetched_through_the_object_write_the_legacy_events(tmp_path):
    code = _writes_the_legacy_events(OUTSIDE, tmp_path)
    assert "self.merged = {" in code or "merged = {" in code


def test_a_class_writing_its_own_summaries_writes_the_legacy_events(tmp_path):
    code = _writes_the_legacy_events(OWNED, tmp_path)
    assert "self.writer = tf.summary.create_file_writer(" in code
    assert "\n        pass\n" not in code  # (the name scope left empty by the summary's move goes)


def test_an_object_made_in_main_writes_the_legacy_events(tmp_path):
    head, body = OUTSIDE.split("\nmodel = Model(0.05)\n")
    lines = ("model = Model(0.05)\n" + body).strip("\n").split("\n")
    program = head + "\n\ndef main():\n" + "\n".join("    " + line if line else line for line in lines) + \
        "\n\n\nif __name__ == \"__main__\":\n    main()\n"
    _writes_the_legacy_events(program, tmp_path)


def test_merged_named_summaries_of_init_write_the_legacy_events(tmp_path):
    program = OUTSIDE.replace('            tf.summary.scalar("loss", self.loss)',
                              '            self.loss_summary = tf.summary.scalar("loss", self.loss)').replace(
        '        tf.summary.histogram("inputs", self.x)\n        self.merged = tf.summary.merge_all()',
        '        inputs = tf.summary.histogram("inputs", self.x)\n'
        '        self.merged = tf.summary.merge([self.loss_summary, inputs])')
    _writes_the_legacy_events(program, tmp_path)


@pytest.mark.parametrize("change, why", [
    pytest.param(lambda p: p.replace("model = Model(0.05)", "model = Model(0.05)\nother = Model(0.1)"),
                 "summar", id="made twice: the second object's merge_all merged both"),
    pytest.param(lambda p: p.replace("model = Model(0.05)", "for lr in [0.05]:\n    model = Model(lr)"),
                 "summar", id="made in a loop"),
    pytest.param(lambda p: p.replace("model = Model(0.05)", "class Bigger(Model):\n    pass\n\n\nmodel = Bigger(0.05)"),
                 "summar", id="subclassed"),
    pytest.param(lambda p: p.replace("model = Model(0.05)", 'model = Model(0.05)\nmodel = None or model'),
                 "bound again", id="the object's name bound again"),
    pytest.param(lambda p: p + "\n\ndef evaluate(model):\n    return model.merged\n",
                 "bound again", id="a parameter of the object's name"),
    pytest.param(lambda p: p.replace("\nmodel = Model(0.05)\n", "\ndef make():\n    return Model(0.05)\n\n\n"
                                                             "model = make()\n"),
                 "summar", id="made in a function that returns it"),
    pytest.param(lambda p: p.replace("model = Model(0.05)", 'inputs = tf.constant(1.0, name="inputs")\n'
                                                            'model = Model(0.05)'),
                 "op named `inputs`", id="an op of module code that may take the tag first"),
    pytest.param(lambda p: p.replace("model = Model(0.05)", 'tf.summary.scalar("one", tf.constant(1.0))\n'
                                                            'model = Model(0.05)'),
                 "summar", id="summaries at module level too"),
])
def test_class_summaries_registered_in_an_order_the_text_does_not_tell_stay_compat(change, why):
    result = migrate_source(change(OUTSIDE), "model.py")
    assert result.outcome == "compat"
    assert why in result.compat_reason


def test_summaries_under_a_scope_named_by_a_parameter_stay_compat():
    program = OUTSIDE.replace("def __init__(self, lr):", "def __init__(self, lr, name='train'):").replace(
        'with tf.name_scope("train"):', "with tf.name_scope(name):")
    result = migrate_source(program, "model.py")
    assert result.outcome == "compat"
    assert "name scope whose name the text does not give" in result.compat_reason
