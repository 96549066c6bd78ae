"""TensorFlow's own TF1 -> TF2 rename tables, read from the installed wheel.

tf_upgrade_v2 ships its tables in ``tensorflow/tools/compatibility``. They
are plain dict literals, so we read them with :mod:`ast` instead of retyping
them, and without importing TensorFlow (which costs seconds).
"""
from __future__ import annotations

import ast
import functools
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional


@dataclass(frozen=True)
class Tables:
    symbol_renames: Dict[str, str] = field(default_factory=dict)
    keyword_renames: Dict[str, Dict[str, str]] = field(default_factory=dict)
    reorders: Dict[str, List[str]] = field(default_factory=dict)
    source: Optional[Path] = None


def _compat_dir() -> Optional[Path]:
    try:
        spec = importlib.util.find_spec("tensorflow")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "tools" / "compatibility"
        if (candidate / "renames_v2.py").is_file():
            return candidate
    return None


def _module_dicts(path: Path) -> Dict[str, object]:
    """Module-level and ``self.x = {...}`` dict literals of a Python file, by name."""
    found: Dict[str, object] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Dict):
            target = node.targets[0]
            name = target.id if isinstance(target, ast.Name) else (
                target.attr if isinstance(target, ast.Attribute) else None)
            if name is None or name in found:
                continue
            try:
                found[name] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return found


@functools.lru_cache(maxsize=1)
def load() -> Tables:
    """The tables of the installed TensorFlow; empty tables if it is not installed."""
    directory = _compat_dir()
    if directory is None:
        return Tables()
    renames = dict(_module_dicts(directory / "renames_v2.py").get("renames", {}))
    renames.update(_module_dicts(directory / "all_renames_v2.py").get("manual_symbol_renames", {}))
    upgrade = _module_dicts(directory / "tf_upgrade_v2.py")
    reorders = dict(_module_dicts(directory / "reorders_v2.py").get("reorders", {}))
    reorders.update(upgrade.get("manual_function_reorders", {}))
    return Tables(renames, dict(upgrade.get("function_keyword_renames", {})), reorders, directory)
