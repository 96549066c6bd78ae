"""The output self-check: faults the rewrite put into the output, and the rule that put each there.

The engine compile-checks every output; this check goes one step further, statically, for the faults a
rewrite typically makes and that only show when the program reaches them:

- a name read where nothing binds it, or read in a function before the function binds it (pyflakes);
- a call of a function the output defines with arguments its signature refuses (tf_migrate/call_check.py);
- in eager output, a graph-only API still named (:func:`graph_only_call`) or an ``x.eval()`` left
  (:func:`unconverted_eval`): the engine then keeps the file compat.

A fault the input has too is the user's, not the rewrite's. Faults are matched by kind and name, since
line numbers move. The common path costs one check of the output; the input is checked only when the
output has a fault, and only then are the modules the rules produced checked in turn, to name the first
rule whose output has it.
"""
from __future__ import annotations

import ast
import difflib
import io
import re
import tokenize
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import libcst as cst
from pyflakes import checker, messages

from tf_migrate.call_check import bad_calls
from tf_migrate.cst.text import module_code
from tf_migrate.report import ERROR, Finding

RULE_ID = "self-check"

# pyflakes messages that mean Python raises when it reaches the line. Left out: unused imports and
# variables and redefinitions (harmless), ImportStarUsage (pyflakes cannot tell whether `*` binds the
# name), and messages for code that does not compile, which the engine's compile check refuses already.
_CRASHES = (
    messages.UndefinedName,  # NameError
    messages.UndefinedLocal,  # UnboundLocalError
    messages.UndefinedExport,  # `from module import *` raises AttributeError
    messages.StringDotFormatMissingArgument, messages.StringDotFormatInvalidFormat,  # IndexError, KeyError,
    messages.StringDotFormatMixingAutomatic, messages.PercentFormatMissingArgument,  # ValueError or
    messages.PercentFormatInvalidFormat, messages.PercentFormatUnsupportedFormatCharacter,  # TypeError
    messages.PercentFormatPositionalCountMismatch, messages.PercentFormatExpectedMapping,
    messages.PercentFormatExpectedSequence, messages.PercentFormatStarRequiresSequence,
)

Step = Tuple[str, cst.Module]  # a rule's id and the module it returned


@dataclass(frozen=True)
class Fault:
    """Code that raises when Python reaches it."""

    kind: str  # the pyflakes message's class, or "call"
    name: str  # what faults are matched by across versions of the program: the name, or the call's problem
    line: int
    message: str

    @property
    def key(self) -> Tuple[str, str]:
        return self.kind, self.name


def check(path: str, source: str, output: str, steps: Sequence[Step], *, after: str) -> List[Finding]:
    """Error findings for the faults the rewrite of ``source`` into ``output`` introduced; empty when none.

    ``steps`` are the rules that changed the module, in order, with what each returned: the rule a fault
    is blamed on is the first whose output has it. ``after`` ends each message: what the engine does about it.

    >>> [finding] = check("a.py", "x = 1\\n", "x = y\\n", [("some-rule", cst.parse_module("x = y\\n"))],
    ...                   after="file kept in compat mode")
    >>> finding.message
    "undefined name 'y' (line 1 of the output), introduced by rule `some-rule`; file kept in compat mode"
    """
    if output == source:
        return []
    found = faults(output)
    if not found:
        return []
    known = {fault.key for fault in faults(source)}
    found = [fault for fault in found if fault.key not in known]
    if not found:
        return []
    blamed = _first_rule_with(found, known, steps)
    return [Finding(path, _input_line(source, output, fault.line), 0, RULE_ID, ERROR,
                    f"{fault.message} (line {fault.line} of the output), introduced by rule "
                    f"`{blamed.get(fault.key, 'unknown')}`; {after}") for fault in found]


def faults(source: str) -> List[Fault]:
    """Every fault in ``source``.

    None when it does not parse (the engine's compile check says why) or is nested too deeply to walk
    (the compile check is then the only one).
    """
    try:
        tree = ast.parse(source)
        reported = checker.Checker(tree, withDoctest=False).messages
        calls = list(bad_calls(tree))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found = []
    for message in reported:
        if isinstance(message, _CRASHES):
            # UndefinedLocal gives a bare name, not a tuple, when the name is also a builtin
            args = message.message_args if isinstance(message.message_args, tuple) else (message.message_args,)
            found.append(Fault(type(message).__name__, str(args[0]) if args else "", message.lineno,
                               message.message % args))
    found += [Fault("call", f"{call.function}: {call.problem}", call.line, f"{call.function}() {call.problem}")
              for call in calls]
    return found


def _first_rule_with(found: List[Fault], known, steps: Sequence[Step]) -> Dict[Tuple[str, str], str]:
    """Fault key -> id of the first rule whose output has that fault (``known``: the input's faults)."""
    wanted = {fault.key for fault in found}
    blamed: Dict[Tuple[str, str], str] = {}
    for rule_id, module in steps:
        for key in wanted & {fault.key for fault in faults(module_code(module))} - known - blamed.keys():
            blamed[key] = rule_id
        if len(blamed) == len(wanted):
            break
    return blamed


def _input_line(source: str, output: str, line: int) -> int:
    """The line of ``source`` that line ``line`` of ``output`` came from: the same line where it is unchanged,
    else the most similar line of the lines it replaced (or the line before, for lines the rewrite added)."""
    old, new = source.splitlines(), output.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if not j1 < line <= j2:
            continue
        if tag == "equal":
            return i1 + line - j1
        if i1 == i2:
            return max(i1, 1)
        text = new[line - 1].strip()
        return 1 + max(range(i1, i2), key=lambda i: difflib.SequenceMatcher(None, old[i].strip(), text).ratio())
    return line


# tf.compat.v1 APIs that raise under eager execution: eager output naming one falls back to compat mode
# (also as tf.<name>: input whose tf name the engine could not resolve, say one missing its import).
_GRAPH_ONLY_TOP = r"Session|InteractiveSession|placeholder(?:_with_default)?|contrib"
_GRAPH_ONLY = re.compile(r"\btensorflow\.contrib\b|"  # TF2 has no contrib at all
                         r"\bcompat\.v1\.(?:Session|InteractiveSession|placeholder(?:_with_default)?|"
                         r"get_default_graph|summary\.(?:FileWriter|merge_all|merge)|train\.(?:start_queue_runners|"
                         r"Coordinator|MonitoredSession|MonitoredTrainingSession|replica_device_setter)|"
                         r"global_variables_initializer|initialize_all_variables|data\.make_one_shot_iterator|"
                         r"data\.make_initializable_iterator|"
                         # graph collections: an eager program has none, so these read an empty list
                         r"trainable_variables|global_variables|all_variables|local_variables|model_variables|"
                         r"get_collection|get_collection_ref|losses\.get_regularization_loss(?:es)?)\b")


def graph_only_call(code: str, tf_names: List[str]):
    """The first graph-only API the code names (comments and strings do not count), or None."""
    prefixes = "|".join(re.escape(name) for name in tf_names)
    top = re.compile(rf"\b(?:{prefixes})\.(?:{_GRAPH_ONLY_TOP})\b")
    if not (_GRAPH_ONLY.search(code) or top.search(code)):
        return None  # the common case, without tokenizing
    names = " ".join(t.string for t in tokenize.generate_tokens(io.StringIO(code).readline)
                     if t.type in (tokenize.NAME, tokenize.OP))
    names = re.sub(r"\s*\.\s*", ".", names)
    return _GRAPH_ONLY.search(names) or top.search(names)


def removed_namespace(code: str, tf_names: List[str]):
    """``tf.layers`` named through TF2's module (comments and strings do not count), or None: TF2 has no such
    namespace (a helper whose layers no rule converted kept the TF1 call, an AttributeError at its first run)."""
    prefixes = "|".join(re.escape(name) for name in tf_names)
    found = re.compile(rf"\b(?:{prefixes})\s*\.\s*layers\b")
    if not found.search(code):
        return None
    names = " ".join(t.string for t in tokenize.generate_tokens(io.StringIO(code).readline)
                     if t.type in (tokenize.NAME, tokenize.OP))
    return found.search(re.sub(r"\s*\.\s*", ".", names))


def unconverted_eval(code: str):
    """A ``x.eval()`` the session rule left (on a value the analysis did not know: a loop or comprehension
    variable over tensors): it raises in eager mode. None when the file defines its own ``eval``."""
    if not _EVAL_CALL.search(code):
        return None  # the common case, without tokenizing
    names = " ".join(t.string for t in tokenize.generate_tokens(io.StringIO(code).readline)
                     if t.type in (tokenize.NAME, tokenize.OP))  # comments and strings do not count
    found = _EVAL_CALL.search(re.sub(r"\s*([.()])\s*", r"\1", names))
    if found is None or re.search(r"\bdef eval\b", names):
        return None
    return found


_EVAL_CALL = re.compile(r"\.\s*eval\s*\(\s*\)")
