"""The CLI: exit codes, writing modes, bad input never loses a byte."""
import json
import os
import stat

import nbformat
import pytest

from tf_migrate.cli import main

LEGACY = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
y = tf.reduce_sum(x * 2.0)
with tf.Session() as sess:
    print(sess.run(y, {x: np.ones(3)}))
"""


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(LEGACY)
    (tmp_path / "pkg" / "plain.py").write_text("print(1)\n")
    return tmp_path


def test_default_prints_diff_and_writes_nothing(tree, capsys):
    assert main([str(tree / "pkg")]) == 0
    out = capsys.readouterr().out
    assert "+def run_y(x):" in out
    assert (tree / "pkg" / "train.py").read_text() == LEGACY


def test_check_exits_1_when_work_remains(tree):
    assert main(["--check", str(tree / "pkg")]) == 1
    assert (tree / "pkg" / "train.py").read_text() == LEGACY


def test_write_in_place_keeps_mode_and_is_idempotent(tree):
    target = tree / "pkg" / "train.py"
    os.chmod(target, 0o640)
    assert main(["-w", str(target)]) == 0
    assert "tf.Session" not in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert main(["--check", str(target)]) == 0


def test_output_dir_mirrors_tree(tree):
    out = tree / "out"
    assert main(["-o", str(out), str(tree / "pkg")]) == 0
    assert "run_y" in (out / "train.py").read_text()
    assert (out / "plain.py").read_text() == "print(1)\n"
    assert (tree / "pkg" / "train.py").read_text() == LEGACY


def test_syntax_error_fails_with_path_and_line_and_leaves_file(tree, capsys):
    bad = tree / "pkg" / "bad.py"
    bad.write_bytes(b"import tensorflow as tf\nprint 'hello'\n")
    assert main(["-w", str(tree / "pkg")]) == 123
    err = capsys.readouterr().err
    assert "bad.py:2" in err and "Python 2" in err
    assert bad.read_bytes() == b"import tensorflow as tf\nprint 'hello'\n"
    assert "tf.Session" not in (tree / "pkg" / "train.py").read_text()  # the others still processed


def test_crlf_bom_and_latin1_survive(tree):
    crlf = tree / "crlf.py"
    crlf.write_bytes(b"\xef\xbb\xbf" + LEGACY.replace("\n", "\r\n").encode())
    latin = tree / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\n# caf\xe9\n" + LEGACY).encode("latin-1"))
    assert main(["-w", str(crlf), str(latin)]) == 0
    data = crlf.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert "caf\xe9" in latin.read_bytes().decode("latin-1")


def test_json_report_and_usage_errors(tree, tmp_path):
    report = tmp_path / "report.json"
    assert main([str(tree / "pkg"), "--report", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["outcomes"]["eager"] == 1 and data["files_seen"] == 2
    assert sorted(data["files"].values()) == ["eager", "skipped"]  # the outcome of each file, by path
    assert main([]) == 2
    assert main(["--select", "no-such-rule", str(tree)]) == 2


def test_notebook_cells_are_one_program(tree):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%matplotlib inline\nimport numpy as np\nimport tensorflow as tf"),
                nbformat.v4.new_markdown_cell("# model"),
                nbformat.v4.new_code_cell("x = tf.placeholder(tf.float32)\ny = x * 3.0"),
                nbformat.v4.new_code_cell("sess = tf.Session()\nprint(sess.run(y, {x: 2.0}))")]
    path = tree / "nb.ipynb"
    nbformat.write(nb, str(path))
    assert main(["-w", str(path)]) == 0
    new = nbformat.read(str(path), as_version=4)
    assert new.cells[0].source.startswith("%matplotlib inline")
    assert new.cells[1].source == "# model"
    assert "def run_y(x):" in new.cells[2].source
    assert new.cells[3].source.strip() == "print(run_y(x=2.0).numpy())"
    assert [c.get("id") for c in new.cells] == [c.get("id") for c in nb.cells]


def test_an_unwrapped_session_block_shows_no_value_its_cell_did_not_show(tree, tmp_path):
    # rasbt's ae-deconv: `saver.save(...)` last in a `with tf.Session()` block; unwrapped, it was the cell's last
    # expression and Jupyter showed the checkpoint path where the TF1 cell showed nothing.
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import tensorflow as tf\nw = tf.Variable(1.0)  # ü\n"
                                          "saver = tf.train.Saver()"),
                nbformat.v4.new_code_cell("with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
                                          f"    saver.save(sess, {str(tmp_path / 'w.ckpt')!r})  # the path"),
                nbformat.v4.new_code_cell("w.shape")]
    path = tree / "nb.ipynb"
    nbformat.write(nb, str(path))
    assert main(["-w", str(path)]) == 0
    new = nbformat.read(str(path), as_version=4)
    assert new.cells[1].source.rstrip().endswith(".ckpt');  # the path"), new.cells[1].source
    assert not new.cells[2].source.rstrip().endswith(";")  # it showed a value before: it still does
