"""Migrate a small tree of modules with the CLI, as a user would, and read what came out."""
from __future__ import annotations

import json

from tf_migrate.cli import main


def migrate(tmp_path, files, *extra):
    """(exit code, {file name: outcome}, {file name: compat reason}) of ``tf-migrate SRC -o OUT`` over ``files``."""
    (tmp_path / "src").mkdir()
    for name, text in files.items():
        (tmp_path / "src" / name).write_text(text)
    report = tmp_path / "report.json"
    code = main([str(tmp_path / "src"), "-q", "--report", str(report), "-o", str(tmp_path / "out"), *extra])
    result = json.loads(report.read_text())
    outcomes = {name.rsplit("/", 1)[1]: outcome for name, outcome in result["files"].items()}
    reasons = {name.rsplit("/", 1)[1]: why for name, why in result["compat_reasons"].items()}
    return code, outcomes, reasons


def output(tmp_path, name):
    """The migrated text of ``name``."""
    return (tmp_path / "out" / name).read_text()
