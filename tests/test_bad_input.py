"""Bad input: a clear message with the path (and line), the documented exit code,
no byte lost or half-written, and every other file still processed.

Each case puts one bad file next to a good legacy program and runs
``tf-migrate -w`` over the folder, in-process through ``main(argv)``.
"""
import builtins
import codecs
import io
import json
import os
import stat
import sys
import time

import nbformat
import pytest

from tf_migrate import cli, engine, migrate_source, runner
from tf_migrate.cli import main
from tests.twins import assert_same_output, run_legacy, run_migrated

LEGACY = """import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
y = tf.reduce_sum(x * 2.0)
with tf.Session() as sess:
    print(sess.run(y, {x: np.ones(3)}))
"""
MIGRATED = migrate_source(LEGACY, "good.py").new_source


def snapshot(folder):
    """Every file under folder (symlinks as their link text), as bytes."""
    found = {}
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            full = os.path.join(root, name)
            key = os.path.relpath(full, folder)
            if os.path.islink(full):
                found[key] = ("link", os.readlink(full))
            elif os.path.isfile(full):
                with open(full, "rb") as handle:
                    found[key] = handle.read()
    return found


def assert_nothing_half_written(before, after, changed=()):
    """Files not in ``changed`` keep their bytes; no temp file is left behind."""
    assert not [k for k in after if k.endswith(".tf-migrate")], after.keys()
    for key, data in before.items():
        if key not in changed:
            assert after.get(key) == data, key


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "good.py").write_text(LEGACY)
    return tmp_path


def run(argv, capsys):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def check_failed(tree, capsys, name, data, where, words, argv=("-w",)):
    """Run -w over the tree with one bad file; it fails (123), the good one is migrated."""
    target = tree / name
    target.write_bytes(data)
    before = snapshot(tree)
    code, _, err = run([*argv, tree], capsys)
    assert code == 123, err
    assert f"{target}:{where}" in err, err
    for word in words:
        assert word in err, err
    assert_nothing_half_written(before, snapshot(tree), changed={"good.py"})
    assert (tree / "good.py").read_text() == MIGRATED  # the others are still processed
    assert "1 failed" in err


FAILING = [
    pytest.param("syntax.py", b"import tensorflow as tf\nx = (\n", "2:", ["syntax error"], id="syntax-error"),
    pytest.param("py2print.py", b"import tensorflow as tf\nprint 'hello'\n", "2:", ["Python 2"], id="py2-print"),
    pytest.param("plain.py", b"import os\n\nprint 'no tensorflow here'\n", "3:", ["Python 2"],
                 id="py2-print-without-tensorflow"),
    pytest.param("undecodable.py", b"import tensorflow as tf\nname = '\xff\xfe'\n", "2:", ["cannot decode"],
                 id="undecodable-bytes"),
    pytest.param("binary.py", bytes(range(256)) * 4, "1:", ["binary file"], id="binary-file"),
    pytest.param("bad_cookie.py", b"# -*- coding: no-such-codec -*-\nimport tensorflow as tf\n", "1:",
                 ["encoding"], id="unknown-coding-cookie"),
    pytest.param("bad.ipynb", b'{\n "cells": [\n  {"cell_type": "code",,}\n ]\n}\n', "3:", ["not JSON"],
                 id="invalid-notebook-json"),
    pytest.param("list.ipynb", b"[1, 2]\n", "1:", ["not a JSON object"], id="notebook-not-an-object"),
    pytest.param("v2.ipynb", json.dumps({"nbformat": 2, "metadata": {}, "worksheets": []}).encode(), "1:",
                 ["nbformat 2", "nbconvert"], id="notebook-nbformat-2"),
    pytest.param("nosource.ipynb", json.dumps({"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": []}]}).encode(), "1:", ["cell 1", "source"],
                 id="notebook-cell-without-source"),
    pytest.param("py2cell.ipynb", nbformat.writes(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import tensorflow as tf\nprint 'x'")])).encode(), "", ["cell 1:2:", "Python 2"],
                 id="notebook-python2-cell"),
    pytest.param("py2except.py", b"import tensorflow as tf\ntry:\n    pass\nexcept ValueError, e:\n    pass\n",
                 "4:", ["Python 2"], id="py2-except-comma"),
    pytest.param("tabs.py", b"import tensorflow as tf\nif True:\n\tx = 1\n        y = 2\n", "4:",
                 ["tabs and spaces"], id="tabs-spaces-mix"),
    pytest.param("quote.py", b"import tensorflow as tf\nx = 1\nname = 'unterminated\n", "3:",
                 ["unterminated string"], id="unterminated-string"),
]


@pytest.mark.parametrize("name, data, where, words", FAILING)
def test_bad_file_fails_alone_and_keeps_its_bytes(tree, capsys, name, data, where, words):
    check_failed(tree, capsys, name, data, where, words)


def test_python2_except_and_tab_mix_still_fail_cleanly(tree, capsys):
    """Together, these fail with 123 and keep their bytes (their messages and lines: FAILING above)."""
    (tree / "py2except.py").write_bytes(b"import tensorflow as tf\ntry:\n    pass\nexcept ValueError, e:\n    pass\n")
    (tree / "tabs.py").write_bytes(b"import tensorflow as tf\nif True:\n\tx = 1\n        y = 2\n")
    before = snapshot(tree)
    code, _, err = run(["-w", tree], capsys)
    assert code == 123 and "py2except.py:" in err and "tabs.py:" in err and "2 failed" in err
    assert_nothing_half_written(before, snapshot(tree), changed={"good.py"})


def test_consistent_tabs_are_valid_and_kept(tree, capsys):
    source = LEGACY.replace("    print(", "\tprint(")
    (tree / "good.py").write_text(source)
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    assert (tree / "good.py").read_text() == migrate_source(source).new_source


MIXED_TABS = (
    "import tensorflow as tf\n\n\n"
    "def main():\n"
    '\t"""A docstring\n'
    '\twith\ta tab."""\n'
    "\tw = tf.Variable(2.0)\n"
    "\tsess = tf.Session()\n"
    "\tsess.run(tf.global_variables_initializer())\n"
    "\tfor step in range(2):\n"
    "\t    if step:\n"
    "\t\t    print(step, sess.run(w))\n"
    "\n\n"
    "main()\n"
)


def test_indentation_mixing_tabs_and_spaces_as_python_reads_it_is_migrated():
    # yungshenglu's tutorials (probe 24): Python reads `\t    ` then `\t\t    `; LibCST's tokenizer refused it
    # ("no matching outer block for dedent") and the file failed. Its indentation is written with spaces, at the
    # columns Python gave it; a string's own lines keep their tabs.
    result = migrate_source(MIXED_TABS, "mixed.py")
    assert result.outcome == "eager", (result.compat_reason, result.findings)
    assert "\n                    print(step, w.numpy())\n" in result.new_source
    assert '\n\twith\ta tab."""\n' in result.new_source
    assert_same_output(run_legacy(MIXED_TABS), run_migrated(result.new_source))


def test_latin1_coding_cookie_is_kept(tree, capsys):
    source = "# -*- coding: latin-1 -*-\n# auteur: Ren\xe9\n" + LEGACY
    (tree / "latin.py").write_bytes(source.encode("latin-1"))
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    data = (tree / "latin.py").read_bytes()
    assert data.decode("latin-1") == migrate_source(source).new_source != source
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # still latin-1 on disk


def test_utf8_bom_and_crlf_are_kept(tree, capsys):
    source = LEGACY.replace("\n", "\r\n")
    (tree / "crlf.py").write_bytes(codecs.BOM_UTF8 + source.encode())
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    data = (tree / "crlf.py").read_bytes()
    assert data.startswith(codecs.BOM_UTF8) and not data.startswith(codecs.BOM_UTF8 * 2)
    assert b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert data[3:].decode() == migrate_source(source).new_source != source


def test_empty_file_and_notebook_without_code_cells_are_left_alone(tree, capsys):
    (tree / "empty.py").write_bytes(b"")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# only words")])
    (tree / "words.ipynb").write_text(nbformat.writes(nb))
    before = snapshot(tree)
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    assert "3 file(s) seen" in err
    assert_nothing_half_written(before, snapshot(tree), changed={"good.py"})


def test_notebook_with_bom_is_read_and_keeps_it(tree, capsys):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(LEGACY)])
    (tree / "bom.ipynb").write_bytes(codecs.BOM_UTF8 + nbformat.writes(nb).encode())
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    data = (tree / "bom.ipynb").read_bytes()
    assert data.startswith(codecs.BOM_UTF8)
    assert "tf.Session" not in nbformat.reads(data.decode("utf-8-sig"), as_version=4).cells[0].source


def test_nbformat3_notebook_is_migrated_and_stays_nbformat3(tree, capsys):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title"),
                                         nbformat.v4.new_code_cell(LEGACY)])
    (tree / "old.ipynb").write_text(nbformat.writes(nb, version=3))
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    data = json.loads((tree / "old.ipynb").read_text())
    assert data["nbformat"] == 3 and "cells" not in data
    cells = data["worksheets"][0]["cells"]
    assert cells[0]["cell_type"] == "heading"  # v3 cell kinds survive the round trip
    assert "tf.Session" not in "".join(cells[1]["input"]) and "def run_y" in "".join(cells[1]["input"])


@pytest.mark.parametrize("header", ["", '"""Tables generated for the tensorflow model."""\n'],
                         ids=["python-parser", "libcst-parser"])
def test_twenty_thousand_line_file(tree, capsys, header):
    """A generated module that does not import TensorFlow is read, parsed and skipped in bounded time.

    A file that never says "tensorflow" is checked by Python's parser; one that does goes through LibCST.
    (One that imports TensorFlow takes minutes: see the report of issue 5.)
    """
    big = tree / "generated.py"
    big.write_text(header + "".join(f"TABLE_{i} = ({i}, {i}.5, 'v{i}')  # row {i}\n" for i in range(20_000)))
    before = snapshot(tree)
    start = time.perf_counter()
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    assert "1 skipped" in err
    assert time.perf_counter() - start < 90
    assert_nothing_half_written(before, snapshot(tree), changed={"good.py"})


def test_symlink_loops(tree, capsys):
    """A file that is a symlink loop fails (ELOOP); a folder loop is skipped with a warning."""
    os.symlink("loop.py", tree / "loop.py")
    os.symlink("b.py", tree / "a.py")
    os.symlink("a.py", tree / "b.py")
    (tree / "sub").mkdir()
    os.symlink("..", tree / "sub" / "up")
    before = snapshot(tree)
    code, _, err = run(["-w", tree], capsys)
    assert code == 123, err
    for name in ("loop.py", "a.py", "b.py"):
        assert f"{tree / name}:0:0: ERROR input: cannot read: Too many levels of symbolic links" in err
    assert f"{tree / 'sub' / 'up'}:0:0: WARNING input: symlink loop, not followed" in err
    assert_nothing_half_written(before, snapshot(tree), changed={"good.py"})
    assert (tree / "good.py").read_text() == MIGRATED


def test_symlink_loop_given_directly(tree, capsys):
    os.symlink("loop.py", tree / "loop.py")
    code, _, err = run(["-w", tree / "loop.py", tree / "good.py"], capsys)
    assert code == 123 and f"{tree / 'loop.py'}:0:0: ERROR input: broken symbolic link or symlink loop" in err
    assert (tree / "good.py").read_text() == MIGRATED


def test_symlinks_out_of_the_tree_are_not_followed(tmp_path, capsys):
    """A link to ``..`` or to a file elsewhere must not let -w rewrite files nobody named."""
    outside = tmp_path / "outside.py"
    outside.write_text(LEGACY)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.py").write_text(LEGACY)
    os.symlink("..", tree / "up")
    os.symlink("../outside.py", tree / "linked.py")
    code, _, err = run(["-w", tree], capsys)
    assert code == 0, err
    assert outside.read_text() == LEGACY
    assert "outside" in err and "not followed" in err


def test_symlinked_file_is_rewritten_through_the_link(tree, capsys):
    os.symlink("good.py", tree / "alias.py")
    code, _, err = run(["-w", tree / "alias.py"], capsys)
    assert code == 0, err
    assert os.readlink(tree / "alias.py") == "good.py"  # still a link
    assert (tree / "good.py").read_text() == MIGRATED


def test_unreadable_file(tree, capsys, monkeypatch):
    """chmod 000 stops everyone but root; as root the read is made to fail the way it would."""
    secret = tree / "secret.py"
    secret.write_text(LEGACY)
    os.chmod(secret, 0)
    if os.geteuid() == 0:
        real_open = builtins.open

        def refusing_open(file, *args, **kwargs):
            if not isinstance(file, int) and os.fspath(file) == os.fspath(secret):
                raise PermissionError(13, "Permission denied", os.fspath(file))
            return real_open(file, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", refusing_open)
        monkeypatch.setattr(io, "open", refusing_open)  # what pathlib calls
    try:
        code, _, err = run(["-w", tree], capsys)
    finally:
        monkeypatch.undo()
        os.chmod(secret, 0o644)
    assert code == 123
    assert f"{secret}:0:0: ERROR input: cannot read: Permission denied" in err
    assert secret.read_text() == LEGACY
    assert (tree / "good.py").read_text() == MIGRATED


def test_read_only_file_is_not_rewritten_even_by_root(tree, capsys):
    target = tree / "readonly.py"
    target.write_text(LEGACY)
    os.chmod(target, 0o444)
    code, _, err = run(["-w", tree], capsys)
    assert code == 123
    assert f"{target}:1:0: ERROR output: not written:" in err and "read-only" in err
    assert target.read_text() == LEGACY and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert (tree / "good.py").read_text() == MIGRATED
    assert main(["--check", str(target)]) == 1  # without -w it is still reported, not refused


def test_output_dir_inside_the_input_tree(tree, capsys):
    out = tree / "out"
    for _ in range(2):  # the second run must not migrate its own output
        code, _, err = run(["-o", out, tree], capsys)
        assert code == 0, err
        assert "1 file(s) seen" in err
    assert sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*")) == ["good.py", "out", "out/good.py"]
    assert (out / "good.py").read_text() == MIGRATED and (tree / "good.py").read_text() == LEGACY


def test_output_dir_usage_errors(tree, capsys):
    (tree / "file").write_text("")
    assert run(["-o", tree, tree], capsys)[0] == 2  # the input folder itself: that is -w
    assert run(["-o", tree / "file", tree], capsys)[0] == 2
    code, _, err = run(["-o", tree, tree / "good.py"], capsys)  # -o would overwrite the input
    assert code == 123 and "is the input itself" in err
    assert (tree / "good.py").read_text() == LEGACY


def test_output_dir_with_two_inputs_of_the_same_name(tmp_path, capsys):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "model.py").write_text(LEGACY.replace("2.0", "3.0") if name == "b" else LEGACY)
    out = tmp_path / "out"
    code, _, err = run(["-o", out, tmp_path / "a" / "model.py", tmp_path / "b"], capsys)
    assert code == 0, err
    assert (out / "a" / "model.py").read_text() == MIGRATED
    assert "3.0" in (out / "b" / "model.py").read_text()


def test_path_given_twice(tree, capsys):
    code, _, err = run(["-w", tree / "good.py", tree, str(tree / "good.py"), tree / "." / "good.py"], capsys)
    assert code == 0, err
    assert "1 file(s) seen" in err
    assert (tree / "good.py").read_text() == MIGRATED


def test_missing_path_and_fifo(tree, capsys):
    os.mkfifo(tree / "pipe.py")  # read() would block forever
    code, _, err = run(["-w", tree, tree / "missing.py"], capsys)
    assert code == 123
    assert f"{tree / 'missing.py'}:0:0: ERROR input: no such file or directory" in err
    assert f"{tree / 'pipe.py'}:0:0: ERROR input: not a regular file" in err
    assert (tree / "good.py").read_text() == MIGRATED


def test_file_changed_while_migrating_is_not_overwritten(tree, capsys, monkeypatch):
    target = tree / "good.py"
    real = engine.migrate_source

    def edit_meanwhile(source, path, **options):
        result = real(source, path, **options)
        target.write_text(LEGACY + "# an edit made meanwhile\n")
        return result

    monkeypatch.setattr(engine, "migrate_source", edit_meanwhile)
    code, _, err = run(["-w", target], capsys)
    assert code == 123 and "changed on disk since it was read" in err
    assert target.read_text().endswith("# an edit made meanwhile\n")


def test_engine_crash_fails_that_file_only(tree, capsys, monkeypatch):
    (tree / "other.py").write_text(LEGACY)
    real = engine.migrate_source

    def crash_on_other(source, path, **options):
        if path.endswith("other.py"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(source, path, **options)

    monkeypatch.setattr(engine, "migrate_source", crash_on_other)
    code, _, err = run(["-w", tree], capsys)
    assert code == 123
    assert f"{tree / 'other.py'}:1:0: ERROR engine: internal error, file left unchanged: RecursionError" in err
    assert (tree / "other.py").read_text() == LEGACY and (tree / "good.py").read_text() == MIGRATED


def test_worker_process_death_fails_files_not_the_run(tree, capsys, monkeypatch):
    """With -j, a worker killed (out of memory, say) costs its files a FAILED outcome, not a traceback."""
    for i in range(4):
        (tree / f"m{i}.py").write_text(LEGACY)
    monkeypatch.setattr(cli, "process", _die_on_m2)  # workers are forked: they see the patch
    code, _, err = run(["-w", "-j", "2", tree], capsys)
    assert code == 123, err
    assert "a worker process died" in err and "Traceback" not in err
    for i in range(4):
        assert (tree / f"m{i}.py").read_text() in (LEGACY, MIGRATED)


def _die_on_m2(path, options):
    if path.name == "m2.py":
        os._exit(9)
    return _REAL_PROCESS(path, options)


_REAL_PROCESS = runner.process


def test_engine_recursion_on_long_expression_does_not_crash_the_cli(tree, capsys):
    """CPython compiles a 1,000-term sum; the engine's visitors may not, but the CLI must not crash."""
    long_sum = "import tensorflow as tf\nx = " + " + ".join(["1"] * 1000) + "\n"
    (tree / "long.py").write_text(long_sum)
    code, _, err = run(["-w", tree], capsys)
    assert code in (0, 123), err
    assert (tree / "long.py").read_text() == long_sum or code == 0
    assert (tree / "good.py").read_text() == MIGRATED


def test_long_expression_is_migrated_and_a_too_deep_one_is_an_input_error():
    graph = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\ny = {}\nwith tf.Session() as sess:\n" \
            "    print(sess.run(y, {{x: 1.0}}))\n"
    long_sum = graph.format(" + ".join(["x"] * 1000))
    compile(long_sum, "long.py", "exec")  # valid Python
    result = migrate_source(long_sum, "long.py")
    assert result.outcome == "eager" and "def run_y(x)" in result.new_source, result.findings
    # Deeper than Python's compiler goes: refused as input (LibCST's native parser would crash the process).
    for body in (" + ".join(["x"] * 50_000), "x" + ".a" * 50_000, "x" + "[0]" * 50_000, "not " * 50_000 + "x"):
        with pytest.raises(engine.InputError, match="nested too deeply"):
            migrate_source(graph.format(body), "deep.py")


def test_report_that_cannot_be_written(tree, capsys):
    code, _, err = run(["--report", tree / "no" / "such" / "dir" / "r.json", tree], capsys)
    assert code == 123 and "report not written" in err and "Traceback" not in err


def test_diff_to_an_ascii_only_stdout(tree, capsys, monkeypatch):
    (tree / "good.py").write_text(LEGACY.replace("print(sess.run", 'print("r\xe9sultat \u2713", sess.run'))
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stream)
    assert main([str(tree)]) == 0
    stream.flush()
    assert b"def run_y" in stream.buffer.getvalue() and b"r\\xe9sultat \\u2713" in stream.buffer.getvalue()
