"""The project pre-pass: module graph, TensorFlow imports, graph builders, sys.path edits; and its cost."""
from __future__ import annotations

import time
from pathlib import Path

from tf_migrate.analysis.project_index import build_index, one_session_classes, scan_module


def write_tree(root: Path, files: dict) -> list:
    paths = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    return sorted(paths)


def test_absolute_relative_and_star_imports_resolve_to_files_of_the_tree(tmp_path):
    paths = write_tree(tmp_path, {
        "ops.py": "import tensorflow as tf\ndef linear(x):\n    return tf.matmul(x, x)\n",
        "model.py": "import tensorflow.compat.v1 as tf\nimport numpy as np\nfrom ops import *\n",
        "pkg/__init__.py": "",
        "pkg/base.py": "import tensorflow as tf\nclass Base:\n    def build(self):\n        self.x = tf.placeholder(tf.float32)\n",
        "pkg/child.py": "from .base import Base\nfrom . import base\n",
        "main.py": "import pkg.child\nfrom pkg.base import Base\n",
    })
    index = build_index(tmp_path, paths)
    edges = {(e.importer, e.line, e.target, e.names) for e in index.edges}
    assert ("model", 3, "ops", ("*",)) in edges
    assert ("pkg.child", 1, "pkg.base", ("Base",)) in edges
    assert ("pkg.child", 2, "pkg.base", ()) in edges
    assert ("main", 1, "pkg.child", ()) in edges
    assert ("main", 2, "pkg.base", ("Base",)) in edges
    assert [line for line, module in index.outside["model"]] == [1, 2]  # tensorflow, numpy: not in the tree


def test_tensorflow_aliases_and_graph_builders():
    info = scan_module("ops", Path("ops.py"), (
        "import tensorflow.compat.v1 as tf\n"
        "def linear(x):\n    return tf.matmul(x, x)\n"
        "def mlp(x):\n    return linear(linear(x))\n"
        "def plain(x):\n    return x + 1\n"
        "class Net:\n    def __init__(self):\n        self.y = mlp(1)\n"))
    assert info.tf_aliases == {"tf": "tensorflow.compat.v1"}
    assert info.imports_compat_v1
    assert info.graph_builders == {"linear", "mlp", "Net"}
    assert "tf" in info.star_exports() and "plain" in info.star_exports()


def test_sys_path_edits_are_reported_not_followed(tmp_path):
    paths = write_tree(tmp_path, {"run.py": "import sys, os\nsys.path.append('lib')\nsys.path.insert(0, '..')\n"
                                            "import site\nsite.addsitedir('x')\nsys.path = ['y'] + sys.path\n"})
    index = build_index(tmp_path, paths)
    assert index.sys_path_edits() == [(tmp_path / "run.py", 2), (tmp_path / "run.py", 3), (tmp_path / "run.py", 5),
                                      (tmp_path / "run.py", 6)]


def test_a_module_without_tensorflow_costs_under_two_milliseconds():
    text = "".join(f"def helper_{i}(values):\n    return [v * {i} for v in values if v]\n\n" for i in range(60))
    scan_module("helpers", Path("helpers.py"), text)  # warm up
    start = time.perf_counter()
    for _ in range(20):
        info = scan_module("helpers", Path("helpers.py"), text)
    assert (time.perf_counter() - start) / 20 < 0.002
    assert not info.imports_tensorflow and not info.mentions_tensorflow


def test_a_module_without_tensorflow_never_reaches_libcst(tmp_path, monkeypatch):
    from tf_migrate import engine, report, runner

    def refuse(*args, **kwargs):
        raise AssertionError("LibCST parsed a module without TensorFlow")

    monkeypatch.setattr(engine.cst, "parse_module", refuse)
    path = tmp_path / "helpers.py"
    path.write_text("import numpy as np\n\n\ndef scale(values):\n    return np.asarray(values) * 2\n")
    assert runner.process(path, runner.Options()).outcome == report.SKIPPED


def test_the_session_each_call_passes_is_read_when_the_module_binds_it_once(tmp_path):
    text = ("import tensorflow as tf\n\nclass Agent:\n    pass\n\nsess = tf.Session()\n"
            "with tf.variable_scope('a'):\n    one = Agent(3, sess=sess)\ntwo = Agent(3, sess=sess)\n"
            "other = tf.Session()\nBrain(1, other)\n\ndef build(sess):\n    return Agent(sess=sess)\n")
    info = scan_module("driver", tmp_path / "driver.py", text)
    assert info.session_arguments["Agent"] == {("sess", "sess"), None}  # the call in a function: not known
    assert info.session_arguments["Brain"] == {("other", "#1")}
    assert one_session_classes(info) == {}  # Agent is also built in a function
    text = text[:text.index("\ndef build")]
    assert one_session_classes(scan_module("d", tmp_path / "d.py", text)) == {"Agent": "sess"}
    rebound = text + "sess = None\n"
    assert scan_module("d", tmp_path / "d.py", rebound).session_arguments["Agent"] == {None}


def test_a_method_called_once_is_not_counted_twice_by_tensorflow_s_own_modules():
    # `tf.train.RMSPropOptimizer` names TensorFlow's module `train`, not the object's method `train()`
    # (YadiraF's GANs build their optimizers in __init__ and call `wgan.train(folder)` once).
    source = ("import tensorflow as tf\n\n\nclass W:\n    def __init__(self):\n"
              "        self.opt = tf.train.RMSPropOptimizer(1e-4)\n\n    def train(self):\n        pass\n\n\n"
              "if __name__ == '__main__':\n    w = W()\n    w.train()\n")
    assert "train" in scan_module("w", "w.py", source).called_once
    twice = source + "    w.train()\n"
    assert "train" not in scan_module("w", "w.py", twice).called_once


def test_attributes_of_values_tensorflow_made_name_no_method_of_the_program():
    # DarkTheCross's agent (held-out probe 45): `cps.run()` once, but `sess.run(...)` in it and
    # `self.train_step.run(feed_dict=...)` elsewhere named `run` three times: the method was not "called once".
    source = ("import tensorflow as tf\n\n\nclass A:\n    def __init__(self):\n"
              "        self.train_step = tf.train.AdamOptimizer(0.1).minimize(loss)\n\n"
              "    def learn(self):\n        self.train_step.run(feed_dict={})\n\n"
              "    def run(self):\n        with tf.Session() as sess:\n            sess.run(tf.global_variables_initializer())\n"
              "            self.learn()\n\n\nif __name__ == '__main__':\n    a = A()\n    a.run()\n")
    assert "run" in scan_module("a", "a.py", source).called_once
    # a name bound to a session and to something else is not TensorFlow's alone
    other = source.replace("    a.run()\n", "    a.run()\n    sess = a\n    sess.run()\n")
    assert "run" not in scan_module("a", "a.py", other).called_once
