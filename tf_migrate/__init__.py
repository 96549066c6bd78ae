"""tf-migrate: move TF1 programs to Session-free, GradientTape-based TF2 code.

The Python API migrates a source string and returns the new text and findings:

>>> from tf_migrate import migrate_source
>>> result = migrate_source(source, "train.py")
>>> result.new_source, result.outcome, result.findings

Names are imported on first use, so the CLI starts fast.
"""
import importlib

_EXPORTS = {
    "InputError": "tf_migrate.engine",
    "MigrationResult": "tf_migrate.engine",
    "migrate_source": "tf_migrate.engine",
    "NotebookResult": "tf_migrate.notebook",
    "migrate_notebook": "tf_migrate.notebook",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'tf_migrate' has no attribute {name!r}")
