"""Every sample runs under the legacy bootstrap that ``--verify`` uses, and prints.

TensorFlow's import costs ~3 s a process, so the samples share two worker
processes (one per core), each prepared once like a legacy ``--verify`` run
(``verify/child/boot.py``: ``prepare``) and running its samples one after another, each in
a fresh default graph, working directory and temp dir, with stdout captured.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

from tf_migrate.verify.child import notebook as child_notebook

# Its tests share a module fixture that runs every sample: one worker runs them all, the fixture once.
pytestmark = pytest.mark.xdist_group("samples-legacy")

ROOT = pathlib.Path(__file__).resolve().parents[1]
SAMPLES_DIR = ROOT / "samples"
SAMPLES = sorted(p for p in SAMPLES_DIR.iterdir() if re.match(r"\d\d_.*\.(py|ipynb)$", p.name))
BROKEN = "03_seed_jacobian_map_fn_broken.py"
NEEDS_TF_KERAS = {p.name for p in SAMPLES if "tf.layers." in p.read_text()}

_WORKER = textwrap.dedent(
    """
    import contextlib, importlib.util, io, json, os, sys, tempfile, traceback, types
    config = json.load(open(sys.argv[1]))
    spec = importlib.util.spec_from_file_location("_tf_migrate_verify_boot", config["boot"])
    boot = importlib.util.module_from_spec(spec)
    sys.modules["_tf_migrate_verify_boot"] = boot
    spec.loader.exec_module(boot)
    boot.prepare("legacy", program_dir=config["program_dir"],
                 user_files=[c["filename"] for s in config["samples"] for c in s["cells"]])
    tf = sys.modules["tensorflow"]
    results = {}
    for sample in config["samples"]:
        tf.reset_default_graph()
        work = tempfile.mkdtemp()
        os.chdir(work)
        tempfile.tempdir = work
        module = types.ModuleType("__main__")
        module.__file__ = sample["path"]
        sys.modules["__main__"] = module
        out, error = io.StringIO(), None
        try:
            with contextlib.redirect_stdout(out):
                for cell in sample["cells"]:
                    boot.run_cell(cell["source"], cell["filename"], module.__dict__, sample["interactive"])
        except BaseException:
            error = traceback.format_exc()
        results[sample["name"]] = {"stdout": out.getvalue(), "error": error}
        tempfile.tempdir = None
    json.dump(results, open(config["out"], "w"))
    """
)


def _sample_config(path):
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        cells, interactive = child_notebook.script_cells(source, str(path)), True
    else:
        cells, interactive = [{"filename": str(path), "source": source}], False
    return {"name": path.name, "path": str(path), "cells": cells, "interactive": interactive}


@pytest.fixture(scope="session")
def legacy_runs(tmp_path_factory):
    """{sample name: {"stdout": ..., "error": traceback or None}} for every sample."""
    tmp = tmp_path_factory.mktemp("samples")
    env = dict(os.environ, TMPDIR=str(tmp), TF_CPP_MIN_LOG_LEVEL="2", KERAS_HOME=str(tmp / "keras"))
    env.pop("TF_USE_LEGACY_KERAS", None)
    if NEEDS_TF_KERAS and _tf_keras_installed():
        env["TF_USE_LEGACY_KERAS"] = "1"
    runnable = [p for p in SAMPLES if p.name not in NEEDS_TF_KERAS or _tf_keras_installed()]
    workers = []
    for index in range(2):
        config = {
            "boot": str(ROOT / "tf_migrate" / "verify" / "child" / "boot.py"),
            "program_dir": str(SAMPLES_DIR),
            "samples": [_sample_config(p) for p in runnable[index::2]],
            "out": str(tmp / f"results-{index}.json"),
        }
        config_path = tmp / f"config-{index}.json"
        config_path.write_text(json.dumps(config))
        process = subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(config_path)], cwd=tmp, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        )
        workers.append((process, pathlib.Path(config["out"])))
    results = {}
    for process, out in workers:
        _, stderr = process.communicate(timeout=600)
        assert process.returncode == 0, stderr.decode(errors="replace")[-3000:]
        results.update(json.loads(out.read_text()))
    return results


def _tf_keras_installed():
    import importlib.util

    return importlib.util.find_spec("tf_keras") is not None


@pytest.mark.parametrize("name", [p.name for p in SAMPLES if p.name != BROKEN])
def test_sample_runs_and_prints(legacy_runs, name):
    if name not in legacy_runs:
        pytest.skip("tf.layers needs tf-keras (pip install tf-keras) for the legacy run")
    run = legacy_runs[name]
    assert run["error"] is None, run["error"]
    assert re.search(r"\d", run["stdout"]), f"{name} printed no numbers: {run['stdout']!r}"


def test_broken_sample_fails_with_the_tensorarray_error(legacy_runs):
    run = legacy_runs[BROKEN]
    assert run["error"] is not None
    assert "Could not write to TensorArray index" in run["error"]
    assert "because it has already been read" in run["error"]


def test_seed_samples_print_what_the_seeds_describe(legacy_runs):
    gradients_sum = legacy_runs["01_seed_gradients_sum.py"]["stdout"]
    dy = re.search(r"dy/dx = \n(.*?)dz/dx", gradients_sum, re.S).group(1)
    dz = re.search(r"dz/dx = \n(.*?)len", gradients_sum, re.S).group(1)
    to_numbers = lambda text: [float(n) for n in re.findall(r"-?\d+\.?\d*", text)]  # noqa: E731
    assert to_numbers(dz) == [2 * v for v in to_numbers(dy)]
    assert "len(dz_dx_val) = 1" in gradients_sum
    loop = legacy_runs["02_seed_jacobian_loop.py"]["stdout"]
    assert loop.startswith("(12, 1, 1, 5, 1)")
    assert "row sums of A match: True" in loop


def test_compat_sample_runs_its_queue_to_the_end(legacy_runs):
    assert "epochs done, total length 38" in legacy_runs["21_queue_runner_compat.py"]["stdout"]


def test_samples_cover_issue_6():
    names = [p.name for p in SAMPLES]
    assert len(names) >= 22
    assert sum(name.endswith(".ipynb") for name in names) >= 4
    assert len({name[:2] for name in names}) == len(names), "numeric prefixes must be unique"
    readme = (SAMPLES_DIR / "README.md").read_text()
    missing = [name for name in names if f"`{name}`" not in readme]
    assert not missing, f"samples/README.md does not describe {missing}"


@pytest.mark.parametrize("path", [p for p in SAMPLES if p.suffix == ".ipynb"], ids=lambda p: p.name)
def test_notebook_samples_use_magics_and_split_state(path):
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    sources = ["".join(c["source"]) for c in cells]
    assert any(re.search(r"^\s*[%!]", s, re.M) for s in sources), "no IPython magic"
    graph_cell = next(i for i, s in enumerate(sources) if "tf.placeholder" in s or "tf.Variable" in s)
    assert any(re.search(r"\.run\(|\.eval\(", s) for s in sources[graph_cell + 1:]), "no later session cell"
