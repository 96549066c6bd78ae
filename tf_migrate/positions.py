"""Line and column of every node of a module: LibCST's PositionProvider, several times faster.

Findings need the position of the node they are about. ``MetadataWrapper(module)
.resolve(PositionProvider)`` generates the module's code while recording each
node's range; most of its cost is a generator-based context manager entered
for every node, a regular expression run on every token, and frozen dataclasses
made for every position. :func:`node_spans` runs the same code generation with
the same recording into plain tuples, keyed by ``id`` (the module holds its
nodes), and keeps the code it generated (a test checks the ranges are identical
to PositionProvider's on the samples).
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import NEWLINE_RE

# (line, column, end line, end column), as PositionProvider's CodeRange: lines from 1, columns from 0.
Span = Tuple[int, int, int, int]


class _SpanState(CodegenState):
    """What PositionProvidingCodegenState records, into ``spans``."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.line, self.column = 1, 0
        self.spans: Dict[int, Span] = {}
        self.starts: List[Tuple[int, int]] = []

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self._advance(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        if "\n" in value or "\r" in value:
            self._advance(value)
        else:
            self.column += len(value)

    def _advance(self, value: str) -> None:
        segments = NEWLINE_RE.split(value)
        if len(segments) == 1:
            self.column += len(value)
        else:
            self.line += len(segments) - 1
            self.column = len(segments[-1])

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.starts.pop()
        if id(node) not in self.spans:  # a syntactic range recorded inside the node's code generation stays
            self.spans[id(node)] = (start[0], start[1], self.line, self.column)

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        return _SyntacticRange(self, node, start_node, end_node)


class _SyntacticRange:
    """What PositionProvidingCodegenState.record_syntactic_position records, without a generator."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: _SpanState, node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = (self.state.line, self.state.column)

    def __exit__(self, *exc) -> bool:
        state = self.state
        spans = state.spans
        start = spans[id(self.start_node)][:2] if self.start_node is not None else self.start
        end = spans[id(self.end_node)][2:] if self.end_node is not None else (state.line, state.column)
        spans[id(self.node)] = start + end
        return False


def node_spans(module: cst.Module) -> Tuple[Dict[int, Span], str]:
    """``id`` of every node of ``module`` -> its range as PositionProvider gives it; and ``module.code``."""
    state = _SpanState(module)
    module._codegen(state)
    return state.spans, "".join(state.tokens)


class _NodesToo(_SpanState):
    def __init__(self, module: cst.Module) -> None:
        super().__init__(module)
        self.nodes: Dict[int, cst.CSTNode] = {}

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.nodes[id(node)] = node
        super().before_codegen(node)


def node_positions(module: cst.Module) -> Dict[cst.CSTNode, CodeRange]:
    """Every node of ``module`` -> its range, as ``PositionProvider`` gives it (its API: nodes, CodeRanges)."""
    state = _NodesToo(module)
    module._codegen(state)
    return {state.nodes[key]: CodeRange(CodePosition(*span[:2]), CodePosition(*span[2:]))
            for key, span in state.spans.items()}
