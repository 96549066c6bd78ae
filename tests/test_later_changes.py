"""What changes an object graph code read, after TF1 built with it (analysis/later_changes): a method of the
program's own class (``cfg.bump()``, also through another method of ``self``), a function given the object that
changes its parameter, code that changes an object given to a graph class's constructor, or a graph class's method
changing an object it holds. TF1 built with the values the object held then; the generated functions and methods
would read the new ones, so the file stays compat. Changed before the build, or only read, it converts."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

CONFIG = '''\
import numpy as np
import tensorflow as tf


class Config:
    def __init__(self):
        self.scale = 2.0

    def bump(self):
        self.grow_by(1.0)

    def grow_by(self, step):
        self.scale += step

    def describe(self):
        return "scale=%s" % self.scale


def grow(config):
    config.scale = 7.0


'''

# Module graph code reads the object (the first version converted the method case, printing 3.0 where TF1 printed
# 2.0).
READ_BY_MODULE_GRAPH = CONFIG + '''\
config = Config()
x = tf.placeholder(tf.float32, [])
y = x * config.scale
{between}
with tf.Session() as sess:
    print(sess.run(y, {{x: 1.0}}))
'''

# A graph class is given the object (the first version converted the method case, printing 6.0 where TF1 printed
# 4.0).
GIVEN_TO_A_GRAPH_CLASS = CONFIG + '''\
class Net:
    def __init__(self, cfg):
        self.cfg = cfg
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.y = tf.reduce_sum(self.x, axis=1) * cfg.scale
        self.sess = tf.Session()

    def predict(self, data):
        return self.sess.run(self.y, {{self.x: data}})


cfg = Config()
{before}
net = Net(cfg)
{after}
print(net.predict(np.ones((1, 2))))
'''

# A graph class holds an object of the program's class and changes it in a method.
HELD_BY_A_GRAPH_CLASS = CONFIG + '''\
class Net:
    def __init__(self):
        self.cfg = Config()
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.y = tf.reduce_sum(self.x, axis=1) * self.cfg.scale
        self.sess = tf.Session()

    def harder(self):
        {change}

    def predict(self, data):
        return self.sess.run(self.y, {{self.x: data}})


net = Net()
net.harder()
print(net.predict(np.ones((1, 2))))
'''


@pytest.mark.parametrize("source, why", [
    (READ_BY_MODULE_GRAPH.format(between="config.bump()"),
     "`config.bump()` changes `config` after graph code reads it and before the run"),
    (READ_BY_MODULE_GRAPH.format(between="grow(config)"),
     "`config`, which graph code reads, is given to `grow`, which changes its parameters in place"),
    (GIVEN_TO_A_GRAPH_CLASS.format(before="", after="cfg.bump()"),
     "`cfg`, given to `Net(...)`, is changed by a call after it"),
    (GIVEN_TO_A_GRAPH_CLASS.format(before="", after="cfg.scale = 5.0"),
     "`cfg`, given to `Net(...)`, is changed in place after it"),
    (GIVEN_TO_A_GRAPH_CLASS.format(before="", after="grow(cfg)"),
     "`cfg`, given to `Net(...)`, is changed by a call after it"),
    (HELD_BY_A_GRAPH_CLASS.format(change="self.cfg.bump()"),
     "`self.cfg`, which graph code in __init__ reads, is bound again by method `harder` (`self.cfg.bump()`)"),
], ids=["method, module graph", "function changing its parameter, module graph", "method, given object",
        "attribute, given object", "function, given object", "method, held object"])
def test_an_object_changed_after_graph_code_read_it_keeps_compat_with_the_reason(source, why):
    migrated = migrate_source(source, "changed.py")
    assert migrated.outcome == "compat"
    assert why in migrated.compat_reason


@pytest.mark.parametrize("source", [
    READ_BY_MODULE_GRAPH.format(between="print(config.describe())"),
    GIVEN_TO_A_GRAPH_CLASS.format(before="cfg.bump()\ngrow(cfg)", after=""),
    HELD_BY_A_GRAPH_CLASS.format(change="print(self.cfg.describe())"),
], ids=["only read, module graph", "changed before it is given", "only read, held object"])
def test_an_object_only_read_or_changed_before_the_build_converts_with_the_legacy_output(source):
    migrated = migrate_source(source, "changed.py")
    assert migrated.outcome == "eager", migrated.compat_reason
    assert_same_output(run_legacy(source), run_migrated(migrated.new_source))
