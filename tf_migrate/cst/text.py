"""The source text of a node, and of a whole module (rendered once per module object)."""
from __future__ import annotations

import contextlib

import libcst as cst
from libcst._nodes.internal import CodegenState

from tf_migrate.traversal import remember

_DEFAULTS = cst.Module([])


def code(node: cst.CSTNode) -> str:
    """``node`` as source, with LibCST's default module settings (4-space indent, ``\\n``)."""
    return _render(node, _DEFAULTS)


def module_code(module: cst.Module) -> str:
    """``module.code``, rendered once per module object for the file being migrated.

    Each ``module.code`` renders the whole tree; the rules' pre-checks, the positions of findings and the
    engine's output read the same modules (a rule that changes nothing hands its input on)."""
    return remember(("module code", id(module)), module, lambda: _render(module, module))


def known_module_code(module: cst.Module, text: str) -> None:
    """Remember ``text`` as ``module``'s code (a pass that rendered it for another purpose)."""
    remember(("module code", id(module)), module, lambda: text)


class _PlainState(CodegenState):
    """LibCST's code generation state, without the generator-based context manager it enters for every
    node's syntactic position (only position providers record anything there)."""

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        return _NOTHING


_NOTHING = contextlib.nullcontext()


def _render(node: cst.CSTNode, settings: cst.Module) -> str:
    """What ``settings.code_for_node(node)`` returns."""
    state = _PlainState(default_indent=settings.default_indent, default_newline=settings.default_newline)
    node._codegen(state)
    return "".join(state.tokens)
