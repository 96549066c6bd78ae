"""Rewrite rules: one module per transform, each registers itself.

A rule is a subclass of :class:`Rule` with a ``RULE_ID`` and a
``DESCRIPTION``; every module in this package is imported by
:func:`all_rules`, so adding a rule means adding one module (and its test
module), with no central list to edit.
"""
from __future__ import annotations

import difflib
import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.cst.text import known_module_code, module_code
from tf_migrate.positions import Span, node_spans
from tf_migrate.report import Finding
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import remember

EAGER = "eager"
COMPAT = "compat"


@dataclass
class RuleContext:
    """What a rule may read and where it reports, for one file."""

    path: str
    names: TFNames
    mode: str
    functions: str = "compiled"  # generated run functions: "compiled" (tf.function) or "eager"
    findings: List[Finding] = field(default_factory=list)
    original_source: str = ""
    # What a local rule found it cannot convert and that must keep the file out of eager mode.
    blockers: List[Tuple[Optional[cst.CSTNode], str]] = field(default_factory=list)
    # Hoisted layer objects -> the TF1 scoped name their variables had ("generator/dense").
    layer_scopes: Dict[str, str] = field(default_factory=dict)
    # Keras rnn layers whose weights a Saver keeps under TF1's names (codegen.rnn_weights.RNNCheckpoint).
    rnn_checkpoints: List[object] = field(default_factory=list)
    # Classes whose objects run their graph in the session their caller passes, when it passes one (optional-sessions):
    # class name -> (the parameter of __init__, ``#position`` after self).
    given_sessions: Dict[str, Tuple[str, str]] = field(default_factory=dict)
    # Locals of a class's __init__ that a Saver outside the class reaches through its object (saver-var-list): the
    # converted class keeps them on the object. Class name -> locals.
    kept_for_savers: Dict[str, Set[str]] = field(default_factory=dict)
    # Whether tf1-variable-names gave every variable made in a scope block its TF1 name with the scope's prefix
    # (``name="generator/W"``): scoped-variable-names then has nothing to keep compat for.
    scoped_names_given: bool = False
    # Whether variable-name-filters wrote variables of tf.layers calls as markers layers-to-keras resolves.
    layer_markers: bool = False
    # Whether saver-var-list wrote variables of layer helpers as markers helper-modules resolves.
    helper_markers: bool = False
    # Savers (by name) of programs that train after a restore -> the blocker saver-var-list raised for each, which
    # saver-slots lifts where it lists the optimizers' slots too.
    slot_savers: Dict[str, Tuple[Optional[cst.CSTNode], str]] = field(default_factory=dict)
    # The parsed input: its nodes that survive the rules (unchanged subtrees keep their identity) are
    # reported at their position in the user's file, computed once.
    original_module: Optional[cst.Module] = None
    _original_positions: Optional[Dict[int, Span]] = None
    _positions: Dict[int, Span] = field(default_factory=dict)
    _positions_module: Optional[cst.Module] = None
    _line_map: Optional[Dict[int, int]] = None

    def use_module(self, module: cst.Module) -> None:
        """Positions reported from now on refer to ``module``."""
        if module is not self._positions_module:
            self._positions_module = module
            self._positions = {}
            self._line_map = None

    def _position(self, node: cst.CSTNode) -> Optional[Span]:
        if not self._positions and self._positions_module is not None:
            self._positions = _resolve_positions(self._positions_module)
        return self._positions.get(id(node))

    def report(self, node: Optional[cst.CSTNode], rule: str, severity: str, message: str) -> None:
        line, col = 1, 0
        pos = self._input_position(node) if node is not None else None
        if pos is not None:
            line, col = pos[0], pos[1]
        else:
            pos = self._position(node) if node is not None else None
            if pos is not None:
                line, col = self._original_line(pos[0]), pos[1]
        self.findings.append(Finding(self.path, line, col, rule, severity, message))

    def _input_position(self, node: cst.CSTNode) -> Optional[Span]:
        if self.original_module is None:
            return None
        if self._original_positions is None:
            self._original_positions = _resolve_positions(self.original_module)
        return self._original_positions.get(id(node))

    def _original_line(self, line: int) -> int:
        """Line of the user's file that line ``line`` of the module being rewritten came from."""
        if not self.original_source or self._positions_module is None:
            return line
        if self._line_map is None:
            self._line_map = original_lines(self.original_source, module_code(self._positions_module))
        return self._line_map.get(line, line)

    def block(self, node: Optional[cst.CSTNode], why: str) -> None:
        """Keep this file out of eager mode (a rule left TF1 code whose meaning differs in TF2)."""
        self.blockers.append((node, why))

    @property
    def tf(self) -> str:
        """The name generated code uses for the tensorflow module."""
        return self.names.tf_alias or "tf"


class Rule:
    """Base class of every rewrite rule."""

    RULE_ID = ""
    DESCRIPTION = ""
    ORDER = 100  # lower runs first
    MODES = (EAGER,)
    # Strings one of which the input file must contain for the rule to have anything to do (empty:
    # always run). Only names the user writes and no earlier rule emits; the engine skips the rule
    # otherwise, which saves its walks (tests/test_rule_triggers.py checks it changes no output).
    TRIGGERS: Tuple[str, ...] = ()
    # Runs, whatever its triggers, on a module of a tree that imports functions of the tree or is asked to
    # export helpers to it (rules/_tree_helpers).
    TREE_WORK = False

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        raise NotImplementedError


def _resolve_positions(module: cst.Module) -> Dict[int, Span]:
    """Code range of every node of ``module``, by ``id``; computed once per module object for the file (the
    eager pass and the decision report on the same input)."""
    def compute() -> Dict[int, Span]:
        spans, text = node_spans(module)
        known_module_code(module, text)  # what the line map of its findings reads
        return spans

    return remember(("positions", id(module)), module, compute)


def original_lines(original: str, rewritten: str) -> Dict[int, int]:
    """Map 1-based lines of ``rewritten`` to the line of ``original`` they came from (or stand in for)."""
    old, new = original.splitlines(), rewritten.splitlines()
    mapping: Dict[int, int] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        for offset, j in enumerate(range(j1, j2)):
            mapping[j + 1] = (i1 + offset if tag == "equal" else min(i1 + offset, max(i2 - 1, i1))) + 1
    return mapping


def _import_rule_modules() -> None:
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def all_rules() -> List[Rule]:
    """Every registered rule, in the order the engine applies them."""
    _import_rule_modules()
    rules = [cls() for cls in _subclasses(Rule) if cls.RULE_ID]
    return sorted(rules, key=lambda rule: (rule.ORDER, rule.RULE_ID))


def rule_ids() -> Set[str]:
    return {rule.RULE_ID for rule in all_rules()}
