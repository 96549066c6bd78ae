"""One mode per process: modules of a tree that can run in one program are migrated in the same mode."""
from __future__ import annotations

import json

import pytest

from tf_migrate.cli import main

OPS = """import tensorflow as tf


def linear(x, n):
    w = tf.get_variable("w", [int(x.shape[1]), n], initializer=tf.constant_initializer(0.1))
    return tf.matmul(x, w)
"""

# Compat on its own: `linear`, a function of another module, makes its get_variable variables under a variable
# scope of this one, through which TF1 shared them (no tf.Module per call can).
MODEL = """import numpy as np
import tensorflow as tf
from ops import *

x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope("layer"):
    y = linear(x, 2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: np.ones((1, 3))}))
"""

ALONE = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
with tf.Session() as sess:
    print(sess.run(tf.reduce_sum(x), {x: np.ones(3)}))
"""


def run(tmp_path, files, *extra):
    for name, text in files.items():
        (tmp_path / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / name).write_text(text)
    report = tmp_path / "report.json"
    main([str(tmp_path / "src"), "-q", "--report", str(report), *extra])
    return json.loads(report.read_text())


def test_a_star_imported_helper_stays_compat_with_the_compat_module_that_imports_it(tmp_path):
    result = run(tmp_path, {"ops.py": OPS, "model.py": MODEL, "alone.py": ALONE}, "-o", str(tmp_path / "out"))
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files == {"ops.py": "compat", "model.py": "compat", "alone.py": "eager"}
    tie = [f for f in result["findings"] if f["rule"] == "project-mode" and f["severity"] == "warning"]
    assert len(tie) == 1 and tie[0]["path"].endswith("ops.py")
    assert "model.py:3 from ops import *" in tie[0]["message"]
    assert (tmp_path / "out" / "ops.py").read_text().startswith("import tensorflow.compat.v1 as tf\n")
    assert (tmp_path / "out" / "model.py").read_text().startswith("import numpy as np\nimport tensorflow.compat.v1")


def test_in_place_writes_the_tied_file_once_in_its_final_mode(tmp_path):
    run(tmp_path, {"ops.py": OPS, "model.py": MODEL}, "-w")
    ops = (tmp_path / "src" / "ops.py").read_text()
    assert ops.startswith("import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n")
    assert "tf.get_variable(" in ops


def test_without_a_compat_module_the_helper_goes_eager(tmp_path):
    driver = "from ops import linear\nimport tensorflow as tf\nprint(linear(tf.ones([1, 3]), 2))\n"
    result = run(tmp_path, {"ops.py": OPS, "driver.py": driver})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files["ops.py"] == "eager"
    assert not [f for f in result["findings"] if f["rule"] == "project-mode"]


def test_a_module_using_tf_only_through_a_star_import_keeps_its_provider_compat(tmp_path):
    user = "from ops import *\n\nx = tf.placeholder(tf.float32, [None, 3])\n"
    result = run(tmp_path, {"ops.py": OPS, "user.py": user})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files == {"ops.py": "compat", "user.py": "skipped"}
    tie = [f for f in result["findings"] if f["rule"] == "project-mode"]
    assert "user.py:1 uses its `tf` through a star import" in tie[0]["message"]


def test_two_programs_sharing_nothing_keep_their_own_modes(tmp_path):
    helper = "def scale(v):\n    return v * 2\n"
    other = "import tensorflow as tf\nimport helper\n" + ALONE.split("\n", 2)[2]
    result = run(tmp_path, {"ops.py": OPS, "model.py": MODEL, "helper.py": helper, "other.py": other})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files["other.py"] == "eager" and files["model.py"] == "compat"


def test_a_compat_module_names_the_graph_builders_it_imports_from_the_tree(tmp_path):
    result = run(tmp_path, {"ops.py": OPS, "model.py": MODEL})
    cross = [f for f in result["findings"] if f["rule"] == "project-mode" and f["path"].endswith("model.py")]
    assert [(f["line"], f["severity"]) for f in cross] == [(3, "info")]
    assert "graph built across modules: `linear` of" in cross[0]["message"]


def test_unreadable_and_latin1_modules_do_not_stop_the_project_pass(tmp_path):
    latin1 = "# -*- coding: latin-1 -*-\n# caf\xe9\nfrom ops import *\n\nx = tf.placeholder(tf.float32, [None, 3])\n"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "user.py").write_bytes(latin1.encode("latin-1"))
    (tmp_path / "src" / "broken.py").write_bytes(b"import tensorflow as tf\x00\n")
    result = run(tmp_path, {"ops.py": OPS})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files == {"ops.py": "compat", "user.py": "skipped", "broken.py": "failed"}


def test_modules_tied_through_a_module_without_tensorflow_share_a_mode(tmp_path):
    bridge = "import ops\n\n\ndef build(x):\n    return ops.linear(x, 2)\n"
    model = MODEL.replace("from ops import *", "from bridge import build as linear")
    result = run(tmp_path, {"ops.py": OPS, "bridge.py": bridge, "model.py": model})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files == {"ops.py": "compat", "bridge.py": "skipped", "model.py": "compat"}
    tie = [f for f in result["findings"] if f["rule"] == "project-mode" and f["path"].endswith("ops.py")]
    assert "model.py:3 imports bridge" in tie[0]["message"] and "bridge.py:1 imports ops" in tie[0]["message"]


# An agent class whose __init__ reads collections of its own keys: right only where each program builds one.
AGENT = '''import tensorflow as tf


class Agent(object):
    def __init__(self):
        c_names = ['agent_params', tf.GraphKeys.GLOBAL_VARIABLES]
        self.w = tf.get_variable('w', [2], initializer=tf.constant_initializer(0.5), collections=c_names)
        params = tf.get_collection('agent_params')
        self.double = [tf.assign(p, p * 2.0) for p in params]
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def step(self):
        self.sess.run(self.double)
        return self.sess.run(self.w)
'''
ONE_AGENT = "from agent import Agent\n\nagent = Agent()\nprint(agent.step())\n"


def test_a_class_each_program_of_the_tree_builds_once_converts(tmp_path):
    result = run(tmp_path, {"agent.py": AGENT, "run_a.py": ONE_AGENT, "run_b.py": ONE_AGENT})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files["agent.py"] == "eager"


def test_a_class_a_program_of_the_tree_builds_twice_stays_compat(tmp_path):
    twice = "from agent import Agent\n\nfor _ in range(2):\n    print(Agent().step())\n"
    result = run(tmp_path, {"agent.py": AGENT, "run_a.py": ONE_AGENT, "run_twice.py": twice})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files["agent.py"] == "compat"
    assert "which a program may build twice" in result["compat_reasons"][str(tmp_path / "src" / "agent.py")]


@pytest.mark.parametrize("scope, outcome", [
    pytest.param("tf.variable_scope('agent')", "eager", id="a scope that names the variables: built once"),
    pytest.param("tf.variable_scope('agent', reuse=tf.AUTO_REUSE)", "compat",
                 id="a scope that may share variables made before"),
])
def test_a_class_built_in_a_with_block_counts_by_what_the_block_does(tmp_path, scope, outcome):
    scoped = f"import tensorflow as tf\nfrom agent import Agent\n\nwith {scope}:\n    agent = Agent()\nprint(agent.step())\n"
    result = run(tmp_path, {"agent.py": AGENT, "run_a.py": scoped})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files["agent.py"] == outcome


def test_a_class_its_module_and_an_importer_both_build_stays_compat(tmp_path):
    own = AGENT + "\n\nfirst = Agent()\n"
    result = run(tmp_path, {"agent.py": own, "run_a.py": ONE_AGENT})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files["agent.py"] == "compat"


CLASS_MODEL = """import tensorflow as tf


class Model(object):
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable(tf.ones([2, 1]))
        self.y = tf.matmul(self.x, self.w)
"""

TRAIN = """import numpy as np
import tensorflow as tf
from model import Model

model = Model()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(model.y, {model.x: np.ones((1, 2))}))
"""

# cnn-text's eval.py: it imports the model class, then restores a saved graph instead (no TF2 form: compat).
EVAL = """import tensorflow as tf
from model import Model

with tf.Session() as sess:
    saver = tf.train.import_meta_graph("run/model.meta")
"""


def test_a_script_that_imports_a_model_it_never_uses_ties_nothing(tmp_path):
    result = run(tmp_path, {"model.py": CLASS_MODEL, "train.py": TRAIN, "eval.py": EVAL})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files == {"model.py": "eager", "train.py": "eager", "eval.py": "compat"}


def test_a_script_that_uses_the_model_it_imports_keeps_it_compat(tmp_path):
    uses = EVAL.replace('    saver = tf.train.import_meta_graph("run/model.meta")\n',
                        '    saver = tf.train.import_meta_graph("run/model.meta")\n    model = Model()\n')
    result = run(tmp_path, {"model.py": CLASS_MODEL, "train.py": TRAIN, "eval.py": uses})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files == {"model.py": "compat", "train.py": "compat", "eval.py": "compat"}


def test_a_model_imported_and_never_used_is_not_reported_as_built_there(tmp_path):
    result = run(tmp_path, {"model.py": CLASS_MODEL, "train.py": TRAIN, "eval.py": EVAL})
    assert not [f for f in result["findings"] if f["rule"] == "project-mode" and f["path"].endswith("eval.py")]


def test_a_script_no_module_imports_knows_the_classes_it_builds_once(tmp_path):
    # DarkTheCross's CartPole agents (held-out probe 45) in tree mode: the project index reads only linked modules;
    # a script alone decides by itself which of its classes it builds once, as a single file does.
    from tests.test_function_initializers import DRIVER

    result = run(tmp_path, {"agent.py": AGENT, "run_a.py": ONE_AGENT, "cartpole.py": DRIVER})
    files = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    assert files["cartpole.py"] == "eager", result["compat_reasons"]
    assert files["agent.py"] == "eager"
