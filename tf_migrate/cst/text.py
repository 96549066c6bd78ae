"""The source text of a node, and of a whole module (rendered once per module object)."""
from __future__ import annotations

import libcst as cst

from tf_migrate.traversal import remember

_EMPTY = cst.Module([])


def code(node: cst.CSTNode) -> str:
    """``node`` as source, with LibCST's default module settings (4-space indent, ``\\n``)."""
    return _EMPTY.code_for_node(node)


def module_code(module: cst.Module) -> str:
    """``module.code``, rendered once per module object for the file being migrated.

    Each ``module.code`` renders the whole tree; the rules' pre-checks, the positions of findings and the
    engine's output read the same modules (a rule that changes nothing hands its input on)."""
    return remember(("module code", id(module)), module, lambda: module.code)


def known_module_code(module: cst.Module, text: str) -> None:
    """Remember ``text`` as ``module``'s code (a pass that rendered it for another purpose)."""
    remember(("module code", id(module)), module, lambda: text)
