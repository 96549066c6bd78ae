"""The public-projects benchmark: its manifest, synthetic data and Session-free check (no project is run here)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import public_projects  # noqa: E402


def test_the_manifest_cites_each_project_at_a_commit_with_an_entry_and_known_stub_sets():
    manifest = json.loads((BENCHMARKS / "public_projects_manifest.json").read_text())
    stubs = (BENCHMARKS / "project_stubs" / "sitecustomize.py").read_text()
    assert len(manifest["projects"]) >= 6
    assert len({p["name"] for p in manifest["projects"]}) == len(manifest["projects"])
    for project in manifest["projects"]:
        assert re.fullmatch(r"[0-9a-f]{40}", project["commit"]), project["name"]
        assert project["entry"].split()[0].endswith(".py")
        for stub_set in project["project_stubs"]:
            assert f'"{stub_set}"' in stubs, stub_set
        for kind in project["data"].values():
            assert kind in ("sentences:pos", "sentences:neg", "text", "mnist-idx")


def test_synthetic_data_is_deterministic(tmp_path):
    public_projects.write_data(tmp_path / "a.txt", "sentences:pos")
    public_projects.write_data(tmp_path / "b.txt", "sentences:pos")
    assert (tmp_path / "a.txt").read_text("latin-1") == (tmp_path / "b.txt").read_text("latin-1")
    assert len((tmp_path / "a.txt").read_text("latin-1").splitlines()) == 64


def test_session_free_counts_code_not_comments(tmp_path):
    (tmp_path / "a.py").write_text("import tensorflow as tf\n# no tf.Session() any more\nx = tf.ones([2])\n")
    (tmp_path / "b.py").write_text("import tensorflow as tf\nsess = tf.Session()\n")
    (tmp_path / "c.py").write_text("print('no tf here: Session')\n")
    assert public_projects.session_free_files(tmp_path) == {"a.py": True, "b.py": False}
