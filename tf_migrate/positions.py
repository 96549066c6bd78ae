"""Line and column of every node of a module: LibCST's PositionProvider, about twice as fast.

Findings need the position of the node they are about. ``MetadataWrapper(module)
.resolve(PositionProvider)`` generates the module's code while recording each
node's range; most of its cost is a generator-based context manager entered
for every node. :func:`node_positions` runs the same code generation with the
same recording, through a plain context-manager class (a test checks the
ranges are identical to PositionProvider's on the samples).
"""
from __future__ import annotations

from typing import Dict, Tuple

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import PositionProvidingCodegenState


class _Computed:
    __slots__ = ("_computed",)

    def __init__(self) -> None:
        self._computed: Dict[cst.CSTNode, CodeRange] = {}


class _SyntacticRange:
    """What PositionProvidingCodegenState.record_syntactic_position records, without a generator."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state, node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = CodePosition(self.state.line, self.state.column)

    def __exit__(self, *exc) -> bool:
        state = self.state
        computed = state.provider._computed
        start = computed[self.start_node].start if self.start_node is not None else self.start
        end = computed[self.end_node].end if self.end_node is not None else CodePosition(state.line, state.column)
        computed[self.node] = CodeRange(start, end)
        return False


class _State(PositionProvidingCodegenState):
    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        return _SyntacticRange(self, node, start_node, end_node)


def node_positions(module: cst.Module) -> Dict[cst.CSTNode, CodeRange]:
    """Every node of ``module`` -> its range, as ``PositionProvider`` gives it."""
    return positions_and_code(module)[0]


def positions_and_code(module: cst.Module) -> Tuple[Dict[cst.CSTNode, CodeRange], str]:
    """:func:`node_positions`, and ``module.code``, which the same code generation produces."""
    computed = _Computed()
    state = _State(default_indent=module.default_indent, default_newline=module.default_newline, provider=computed)
    module._codegen(state)
    return computed._computed, "".join(state.tokens)
