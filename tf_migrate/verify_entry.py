"""``--verify-entry "train.py --steps 5"``: run a project's entry command before and after migration.

The original tree runs under TF1 graph semantics and the migrated tree under plain TF2, each
in a temporary copy of its tree as working directory (so a run that writes checkpoints or logs
leaves the user's folders alone), with the entry script's folder first on ``sys.path``, then
the tree's root; then what they print is compared, as ``--verify`` does for one file
(``tf_migrate.verify.verify_program``). The migrated tree is the original with every migrated
file replaced by its new text, whether or not the migration was written anywhere.
"""
from __future__ import annotations

import shlex
import shutil
import tempfile
from pathlib import Path
from typing import List, Tuple

from tf_migrate import files, verify
from tf_migrate.runner import FileOutcome


class EntryError(ValueError):
    """An entry command that cannot be run (no script, a script outside the tree)."""


def parse_entry(command: str, root: Path) -> Tuple[Path, List[str]]:
    """The entry script under ``root`` and its arguments: ``"train.py --steps 5"`` -> (root/train.py, [...])."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise EntryError(f"--verify-entry {command!r}: {error}") from None
    if words[:1] == ["python"] or words[:1] == ["python3"]:
        words = words[1:]
    if not words or not words[0].endswith(".py"):
        raise EntryError(f"--verify-entry {command!r}: give a script of the tree and its arguments, "
                         "such as \"train.py --steps 5\"")
    script = (root / words[0]).resolve()
    if root.resolve() not in script.parents or not script.is_file():
        raise EntryError(f"--verify-entry: {words[0]} is not a file inside {root}")
    return script, words[1:]


def migrated_tree(root: Path, outcomes: List[FileOutcome], destination: Path) -> None:
    """``destination``: a copy of ``root`` with each changed file's migrated text."""
    shutil.copytree(root, destination, symlinks=True, ignore=shutil.ignore_patterns(*files.SKIP_DIRS))
    top = root.resolve()
    for outcome in outcomes:
        source = Path(outcome.path).resolve()
        if outcome.changed and outcome.kind == "py" and top in source.parents:
            (destination / source.relative_to(top)).write_text(outcome.new_source, encoding="utf-8")


def verify_entry(command: str, root: Path, outcomes: List[FileOutcome], timeout: float) -> verify.VerifyResult:
    """Run ``command`` in the original tree (TF1 semantics) and in the migrated one (TF2), compare output."""
    parse_entry(command, root)  # a bad command fails before any copy
    with tempfile.TemporaryDirectory(prefix="tf-migrate-entry-") as tmp:
        new_root = Path(tmp) / "migrated"
        migrated_tree(root, outcomes, new_root)
        return verify_trees(command, root, new_root, timeout)


def verify_trees(command: str, original: Path, migrated: Path, timeout: float) -> verify.VerifyResult:
    """Run ``command`` in ``original`` under TF1 semantics and in ``migrated`` under TF2; compare output.

    Each run's working directory is a copy of its tree, which is also on ``sys.path`` after the
    script's folder (``cd TREE && PYTHONPATH=. python SCRIPT ARGS``: a project's packages import
    from its root); the original's modules are only read.
    """
    script, args = parse_entry(command, original)
    relative = script.relative_to(original.resolve())
    return verify.verify_program(script.read_text(encoding="utf-8"), (migrated / relative).read_text(encoding="utf-8"),
                                 path=script, migrated_path=migrated / relative, workdir=original,
                                 migrated_workdir=migrated, args=args, timeout=timeout, workdir_on_path=True)
