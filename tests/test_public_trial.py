"""The public-code trial's harness (``benchmarks/public_trial.py``) without the network or the repositories.

Manifest schema, file selection, what counts as a silent wrong eager rewrite,
the report, the Session-free check, and the stubs (run in a subprocess the way
the trial runs them, without TensorFlow).
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import public_trial as trial  # noqa: E402
import public_trial_report as report  # noqa: E402

SHA = "0123456789abcdef0123456789abcdef01234567"


def _record(**changes):
    record = {
        "repo": "someone/tutorials", "path": "lab.py", "kind": "py", "stubs": ["mnist"], "outcome": "eager",
        "compat_reason": "", "legacy_runs": True, "legacy_timeout": False, "migrated_runs": True,
        "migrated_timeout": False, "session_free": True, "verdict": "equivalent", "detail": "equal output",
        "legacy_error": "", "migrated_error": "", "legacy_seconds": 5.0, "migrated_seconds": 6.0,
    }
    # the fields recheck adds
    assert set(changes) <= set(record) | {"legacy_reproducible", "rechecked", "legacy_rounding_stable", "rounding_detail"}
    record.update(changes)
    return record


def test_the_committed_manifest_is_valid_and_large_enough():
    manifest = json.loads(trial.MANIFEST.read_text(encoding="utf-8"))
    trial.validate_manifest(manifest)
    assert len(manifest["repositories"]) >= 15


@pytest.mark.parametrize("change, message", [
    (lambda e: e.update(commit="6dcbe14"), "full 40-hex sha"),
    (lambda e: e.update(repo="no-slash"), "owner/name"),
    (lambda e: e.update(files=[]), "non-empty list of globs"),
    (lambda e: e.update(exclude={"a.py": ""}), "needs a reason"),
    (lambda e: e.update(stubs=["pandas"]), "unknown stub set 'pandas'"),
    (lambda e: e.update(notes={"a.py": {"argv": ["-x"]}}), "may only set"),
    (lambda e: e.update(branch="main"), "unknown keys ['branch']"),
], ids=["short sha", "repo", "no files", "exclude without reason", "unknown stub", "bad note", "unknown key"])
def test_manifest_problems_are_named(change, message):
    entry = {"repo": "someone/tutorials", "commit": SHA, "files": ["*.py"]}
    change(entry)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        trial.validate_manifest({"default_stubs": ["mnist"], "repositories": [entry]})


def test_selection_keeps_programs_support_and_reasons_apart():
    paths = ["a/train.py", "a/utils.py", "a/old.py", "data.csv", "nb/x.ipynb", "README.md"]
    entry = {"files": ["a/*.py", "*.ipynb"], "support": ["a/*.py", "*.csv"],
             "exclude": {"a/utils.py": "helper module", "a/old.py": "Python 2"}}
    chosen = trial.select(paths, entry)
    assert chosen["programs"] == ["a/train.py", "nb/x.ipynb"]
    assert chosen["support"] == ["a/utils.py", "a/old.py", "data.csv"]
    assert chosen["excluded"] == [("a/utils.py", "helper module"), ("a/old.py", "Python 2")]


@pytest.mark.parametrize("changes, expected", [
    ({}, None),
    ({"migrated_runs": False, "verdict": "migrated-fails", "migrated_error": "NameError: sess"},
     report.SILENT_WRONG_EAGER),
    ({"verdict": "different", "detail": "value 1.5 != 2.5: ..."}, report.SILENT_WRONG_EAGER),
    ({"migrated_runs": False, "migrated_timeout": True, "verdict": "migrated-fails"}, report.SILENT_WRONG_EAGER),
    ({"verdict": "not-comparable"}, None),
    ({"outcome": "compat", "migrated_runs": False, "verdict": "migrated-fails"}, report.COMPAT_FAILS),
    ({"outcome": "compat", "verdict": "different", "detail": "text 'a' != 'b'"}, report.COMPAT_DIFFERENT),
    ({"outcome": "unchanged", "migrated_runs": False, "verdict": "migrated-fails"}, report.OTHER_FAILS),
    ({"legacy_runs": False, "legacy_timeout": True, "migrated_runs": False, "verdict": "legacy-fails"}, None),
    ({"legacy_runs": False, "verdict": "legacy-fails", "legacy_error": "ModuleNotFoundError: x"}, None),
    ({"verdict": "different", "detail": "value 1 != 2", "legacy_reproducible": False}, None),
    ({"verdict": "different", "detail": "value 1 != 2", "legacy_reproducible": True}, report.SILENT_WRONG_EAGER),
    ({"verdict": "different", "detail": "value 1 != 2", "legacy_reproducible": True, "legacy_rounding_stable": True},
     report.SILENT_WRONG_EAGER),
    ({"verdict": "different", "detail": "value 1 != 2", "legacy_reproducible": True, "legacy_rounding_stable": False,
      "rounding_detail": "value 1 != 1.00002"}, None),
], ids=["equivalent", "eager crash", "eager other numbers", "eager too slow", "not comparable", "compat crash",
        "compat differs", "unchanged crash", "legacy timeout", "legacy fails", "legacy not reproducible",
        "legacy reproducible, eager differs", "rounding-stable legacy, eager differs",
        "legacy rounding-sensitive"])
def test_what_counts_as_a_problem(changes, expected):
    assert report.problem(_record(**changes)) == expected


def test_headline_leaves_legacy_timeouts_out_of_the_denominator():
    records = [
        _record(path="ok.py"),
        _record(path="crash.py", migrated_runs=False, verdict="migrated-fails"),
        _record(path="differs.py", verdict="different", detail="value 1 != 2: ..."),
        _record(path="compat.py", outcome="compat", session_free=False, migrated_runs=False, verdict="migrated-fails"),
        _record(path="slow.py", legacy_runs=False, legacy_timeout=True, migrated_runs=False, verdict="legacy-fails"),
        _record(path="broken.py", legacy_runs=False, verdict="legacy-fails", legacy_error="NameError: x"),
    ]
    h = report.headline(records)
    assert (h["files"], h["legacy_runs"], h["legacy_timeouts"], h["legacy_fails"]) == (6, 4, 1, 1)
    assert h["runs_after_migration"] == 2
    assert (h["silent_wrong_eager"], h["silent_crashes"], h["silent_timeouts"], h["silent_different_values"]) == (
        2, 1, 0, 1)
    assert (h["compat_fails"], h["eager_of_ran"], h["session_free_of_ran"]) == (1, 3, 3)


def test_report_renders_from_a_tiny_json_and_keeps_hand_written_notes(tmp_path):
    results = {
        "meta": {"command": "python benchmarks/public_trial.py run", "commit": "abc1234", "tensorflow": "2.21.0",
                 "python": "3.11.7", "machine": "2 CPU cores", "timeout": "90", "jobs": "2", "wall": "1.0 min",
                 "date": "2026-01-01"},
        "repos": [{"repo": "someone/tutorials", "commit": SHA, "dir": "someone__tutorials"}],
        "excluded": [{"repo": "someone/tutorials", "path": "old.py", "reason": "Python 2 syntax"}],
        "records": [
            _record(path="ok.py"),
            _record(path="crash.py", migrated_runs=False, verdict="migrated-fails",
                    detail="Traceback ...\nNameError: name 'sess' is not defined",
                    migrated_error="NameError: name 'sess' is not defined"),
            _record(path="slow.py", legacy_runs=False, legacy_timeout=True, migrated_runs=False, verdict="legacy-fails",
                    detail="timed out after 90 s; the process was killed"),
            _record(path="long.py", verdict="different", detail="value 4.7831 != 4.7832", legacy_reproducible=True,
                    legacy_rounding_stable=False, rounding_detail="value 4.7831 != 4.78318"),
        ],
    }
    json_path, md_path = tmp_path / "r.json", tmp_path / "r.md"
    json_path.write_text(json.dumps(results))
    md_path.write_text("old table\n" + report.HAND_WRITTEN + "\n\nThe lead's note.\n")
    trial.write_report(json_path, md_path)
    text = md_path.read_text()
    assert "old table" not in text and text.rstrip().endswith("The lead's note.")
    assert "| **legacy-running files that also run after migration** | **2/3 (66.7%)** | 100% |" in text
    assert "## Rounding-sensitive legacy output (1; not comparable, not counted as wrong)" in text
    assert "| someone/tutorials: `long.py` | eager | value 4.7831 != 4.7832 | value 4.7831 != 4.78318 |" in text
    assert "| someone/tutorials: `crash.py` | eager | migrated-fails | NameError: name 'sess' is not defined |" in text
    assert "| 1 | timed out | someone: `slow.py` |" in text
    assert "| 1 | Python 2 syntax | someone: `old.py` |" in text
    assert "| someone/tutorials | `0123456789` | 4 | 4 | 0 | 0 | 3 | 1 | 2 | 1 | 1 | 0 | 1 | 0 |" in text


def test_session_free_reads_code_not_comments():
    eager = "import tensorflow as tf\n# was: with tf.Session() as sess:\nprint(tf.constant(1.0).numpy())\n"
    compat = "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nx = tf.placeholder(tf.float32)\n"
    assert trial.session_free(eager, "py")
    assert not trial.session_free(compat, "py")
    notebook = {"cells": [{"cell_type": "markdown", "source": ["We used to open a tf.Session here."]},
                          {"cell_type": "code", "source": ["%matplotlib inline\n", "sess = tf.Session()"]}]}
    assert not trial.session_free(json.dumps(notebook), "ipynb")
    notebook["cells"][1]["source"] = ["print(1)"]
    assert trial.session_free(json.dumps(notebook), "ipynb")
    # code kept in a string (a docstring, a triple-quoted block of old code) does not run
    assert trial.session_free(eager + '"""\nX = tf.placeholder("float", [None, 2])\n"""\n', "py")


def _run_with_stubs(sets, code):
    env = dict(os.environ, PYTHONPATH=str(trial.STUBS), TRIAL_STUBS=",".join(sets))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=60)


def test_stubs_import_and_return_the_right_shapes():
    done = _run_with_stubs(["mnist", "matplotlib", "gym", "sklearn"], """
        import numpy as np, socket
        print("seeded", np.random.RandomState(0).rand() == np.random.rand())
        import input_data
        mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
        images, labels = mnist.train.next_batch(100)
        assert images.shape == (100, 784) and images.dtype == np.float32 and labels.shape == (100, 10)
        assert (mnist.train.num_examples, mnist.validation.num_examples, mnist.test.images.shape) == (550, 50, (1000, 784))
        assert input_data.read_data_sets("x", reshape=False).test.images.shape == (1000, 28, 28, 1)
        assert input_data.read_data_sets("x").train.labels.dtype == np.uint8
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt, matplotlib.gridspec
        from mpl_toolkits.mplot3d import Axes3D
        fig, axes = plt.subplots(2, 3)
        line, = axes[1, 2].plot([1, 2])
        assert axes.shape == (2, 3) and plt.show() is not None
        import gym
        env = gym.make("CartPole-v0")
        state = env.reset()
        state, reward, done, info = env.step(env.action_space.sample())
        assert state.shape == (4,) and reward == 1.0 and env.observation_space.shape == (4,)
        pendulum = gym.make("Pendulum-v0").unwrapped
        assert pendulum.reset().shape == (3,) and pendulum.action_space.high[0] == 2.0
        from sklearn import datasets
        from sklearn.metrics import confusion_matrix
        from sklearn.model_selection import train_test_split
        iris = datasets.load_iris()
        assert iris.data.shape == (150, 4) and sorted(set(iris.target)) == [0, 1, 2]
        a, b = train_test_split(np.arange(10), test_size=0.3)
        assert len(a) == 7 and len(b) == 3
        assert confusion_matrix([0, 1, 1], [0, 1, 0]).tolist() == [[1, 0], [1, 1]]
        try:
            socket.getaddrinfo("example.com", 80)
        except OSError as error:
            assert "no network" in str(error)
        else:
            raise AssertionError("the network was reachable")
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["seeded", "True"]


def test_step_budget_ends_the_program_and_unchosen_sets_are_not_served():
    done = _run_with_stubs(["mnist"], """
        import input_data
        data = input_data.read_data_sets("x")
        for step in range(1000):
            data.train.next_batch(50)
            last = step
        print("not reached")
    """)
    assert done.returncode == 0 and done.stdout == "" and "step budget (100 batches)" in done.stderr
    other = _run_with_stubs(["mnist"], "try:\n    import gym\n    print(gym.__version__)\nexcept ImportError:\n    print('absent')")
    assert other.returncode == 0 and "public-trial-stub" not in other.stdout


def _dies_once(task):
    marker = Path(task["marker"])
    if not marker.exists():
        marker.write_text("died")
        os._exit(1)
    return _record(path=task["path"])


def test_a_dead_worker_does_not_lose_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(trial, "verify_one", _dies_once)
    tasks = [{"repo": "someone/tutorials", "path": f"p{i}.py", "marker": str(tmp_path / "marker")} for i in range(3)]
    records = trial._verify_all(tasks, 1, tmp_path / "records.jsonl")
    assert sorted(r["path"] for r in records) == ["p0.py", "p1.py", "p2.py"]
    assert len((tmp_path / "records.jsonl").read_text().splitlines()) == 3


def test_records_keep_no_quoted_program_lines():
    tail = ('Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n    x = tf.placeholder(tf.float32)\n'
            '        ^^^^^^^^^^^^^^\nAttributeError: module \'tensorflow\' has no attribute \'placeholder\'')
    assert trial.without_source(tail).splitlines() == [
        "Traceback (most recent call last):", '  File "x.py", line 3, in <module>',
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'"]


def test_only_a_full_run_of_the_committed_manifest_writes_the_committed_results(tmp_path):
    """A held-out probe (another manifest) or a subset writes under --work: a probe's results once replaced the
    trial's in the repository."""
    import argparse
    def paths(**changes):
        args = argparse.Namespace(**{"manifest": trial.MANIFEST, "only": None, "work": tmp_path, **changes})
        return trial.results_paths(args)
    assert paths() == (trial.RESULTS_JSON, trial.RESULTS_MD)
    assert paths(only="mnist") == (tmp_path / "results_only.json", tmp_path / "results_only.md")
    assert paths(manifest=tmp_path / "probe.json") == (tmp_path / "results.json", tmp_path / "results.md")
