"""``--verify-entry``: a project's entry command run in the original tree (TF1) and the migrated one (TF2)."""
from __future__ import annotations

import pytest

from tf_migrate.cli import EXIT_OK, EXIT_USAGE, main
from tf_migrate.verify_entry import EntryError, parse_entry

MODEL = """import tensorflow as tf


class Model(object):
    def __init__(self, n):
        self.x = tf.placeholder(tf.float32, [None, n])
        self.w = tf.Variable(tf.ones([n, 1]))
        self.y = tf.reduce_sum(tf.matmul(self.x, self.w))
        self.train_op = tf.train.GradientDescentOptimizer(0.1).minimize(self.y)
"""

# The graph is built in model.py and run in mains/train.py: per file, model.py would go eager (its
# placeholder gone) under a compat train.py; the project tie keeps both compat. train.py imports
# model from the tree's root, as `cd TREE && PYTHONPATH=. python mains/train.py` does.
TRAIN = """import argparse
import numpy as np
import tensorflow as tf
from model import Model

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=100)
args = parser.parse_args()
model = Model(3)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        _, y = sess.run([model.train_op, model.y], {model.x: np.ones((2, 3))})
        print(step, y)
open("written-by-the-run.txt", "w").write("x")
"""


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "model.py").write_text(MODEL)
    (root / "mains").mkdir()
    (root / "mains" / "train.py").write_text(TRAIN)
    return root


def test_entry_runs_both_trees_with_its_arguments_and_they_agree(project, capsys):
    assert main([str(project), "-q", "--verify-entry", "mains/train.py --steps 3"]) == EXIT_OK
    err = capsys.readouterr().err
    assert "verify-entry 'mains/train.py --steps 3'" in err and ": equivalent" in err
    assert sorted(p.name for p in project.iterdir()) == ["mains", "model.py"]  # the runs used copies
    assert (project / "mains" / "train.py").read_text() == TRAIN


def test_parse_entry_finds_the_script_and_its_arguments(project):
    script = (project / "mains" / "train.py").resolve()
    assert parse_entry("mains/train.py --steps 5", project) == (script, ["--steps", "5"])
    assert parse_entry("python mains/train.py", project)[1] == []
    for bad in ("", "--steps 5", "missing.py", "../project/../x.py", "'unclosed"):
        with pytest.raises(EntryError):
            parse_entry(bad, project)


def test_verify_entry_needs_one_folder_and_no_in_place_writes(project, capsys):
    assert main([str(project), "-w", "--verify-entry", "mains/train.py"]) == EXIT_USAGE
    assert main([str(project / "model.py"), "--verify-entry", "mains/train.py"]) == EXIT_USAGE
    assert "--verify-entry needs one folder" in capsys.readouterr().err
    assert (project / "mains" / "train.py").read_text() == TRAIN


def test_a_program_that_prints_where_it_writes_compares_alike_in_both_runs(project, capsys):
    """Each run works in a copy of its tree: `Writing to <copy>/runs` names another folder in each."""
    (project / "mains" / "train.py").write_text(TRAIN + 'import os\nprint("Writing to", os.path.abspath("runs"))\n')
    assert main([str(project), "-q", "--verify-entry", "mains/train.py --steps 2"]) == EXIT_OK
    assert ": equivalent" in capsys.readouterr().err
