"""Compares what two runs printed, for ``tf_migrate.verify``.

Outputs are split into tokens: numbers (``-1.5e-03``, ``2.``, ``nan``, ``inf``)
and runs of other non-blank characters. Whitespace, line breaks included, only
separates tokens: numpy wraps and pads arrays by the width of their values, so
``[[ 8.  8. 50.]`` and ``[[8. 8. 50.]`` hold the same numbers. Text tokens must
be equal (``?`` and ``None`` count as the same unknown dimension: TF1 prints
``TensorShape`` as ``(?, 3)``, TF2 as ``(None, 3)``, and an unknown dimension alone as ``?``, TF2
as ``None``; a shape's repr ``TensorShape([Dimension(2), Dimension(None)])`` is TF2's ``TensorShape([2, None])``;
object addresses such as
``0x7f77f270e340`` count as the same address, since every run has others); numbers must satisfy ``|a - b| <= atol + rtol * |b|``, or differ by at
most one unit in the last printed digit when printed with decimals (two values
within tolerance can round to neighbours: ``0.1235`` and ``0.1236``). ``nan``
equals ``nan``; infinities equal when their signs do.

A graph tensor or variable printed by TF1 shows no value (``Tensor("Add:0", shape=(),
dtype=int32)``, ``<tf.Variable 'w:0' shape=(2,) dtype=float32_ref>``); the same print in TF2
shows the value too (``tf.Tensor(5, shape=(), dtype=int32)``), or, printed from a trace, the same
graph form with TF2's op name and ``None`` for ``?``; inside a printed list they show as reprs
(``<tf.Tensor 'unstack:0' shape=(2,) dtype=float64>``, ``<tf.Tensor: shape=(2,), dtype=float64, numpy=...>``).
Such descriptions are paired in
order and compared by what both show, dtype and shape (a TF1 ``?`` matches any size); the value
TF1 never printed is not compared (:func:`align_descriptions`).

Lines TF's runtime prints when asked to log device placement (``Neg: (Neg): /job:localhost/...``,
``log_device_placement=True``, ``tf.debugging.set_log_device_placement``) are no output of the
program: TF1 logs the graph's ops when a session first runs them, TF2 each op or function as it
runs, with its own argument and return nodes. They are left out of both sides.
"""

import math
import re
from dataclasses import dataclass
from typing import Optional

_TOKEN = re.compile(
    r"(?P<num>[-+]?(?:\b(?:nan|inf)\b|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?))"
    r"|(?P<text>[^\s\d.+-]+|[.+-])",
    re.IGNORECASE,
)


# `?` where a dimension stands: "(?, 3)", "[?, 10]".
# A ``?`` standing alone at the end of a line: an unknown ``Dimension`` printed by itself (``print(x.shape[0])``).
_UNKNOWN_DIMENSION = re.compile(r"(?<=[(\[,\s])\?(?=\s*[,)\]])|(?<!\S)\?(?=\s*$)")
# An object's address in its repr ("<... Graph object at 0x7f77f270e340>"): another in every run.
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
# A TensorFlow module printed (``print(tf)``): the legacy run's ``tf`` is ``tensorflow.compat.v1`` under the name
# ``tensorflow`` (the verifier's TF1 semantics), the migrated run's TF2's own; a TF1 install printed the first.
_TF_MODULE = re.compile(r"<module 'tensorflow[\w.]*' from '[^'\n]*'>")
# The class of a tensor or variable printed (``print(type(x))``): TF1's graph tensor (``SymbolicTensor``, ``Tensor``
# on TF1 installs) is TF2's ``EagerTensor``, a ``RefVariable`` a ``ResourceVariable`` (as ``print(t)`` shows a
# value where TF1 showed a description, a known difference of the eager program, compared by what both say).
_TENSOR_CLASS = re.compile(r"<class 'tensorflow\.python\.framework\.ops\.(?:SymbolicTensor|EagerTensor|Tensor)'>")
_VARIABLE_CLASS = re.compile(r"<class 'tensorflow\.python\.ops\.(?:(?:ref_variable|variables)\.RefVariable|"
                             r"variables\.VariableV1|resource_variable_ops\.ResourceVariable)'>")
# A variable's dtype printed (``print(W.dtype)``): TF1's reference variables give ``<dtype: 'float32_ref'>``, TF2's
# resource variables (and TF1's, with resource variables on) ``<dtype: 'float32'>``: the same dtype.
_REF_DTYPE = re.compile(r"<dtype: '(\w+)_ref'>")
# A dimension's repr (``TensorShape([Dimension(2), Dimension(None)])``, a notebook cell showing ``x.get_shape()`` or
# ``x.shape[0]``): TF1's shapes hold ``Dimension`` objects, TF2's plain ints and None (``TensorShape([2, None])``),
# and their strs agree (``(2, ?)`` and ``(2, None)``): the same static shape.
_DIMENSION_REPR = re.compile(r"\bDimension\((\d+|None)\)")
# A device placement log entry of TF's runtime: "gradients/Neg_grad/Neg: (Neg): /job:localhost/.../device:CPU:0".
# Matched anywhere, not only as a whole line: the runtime writes it through C's buffer and the program's prints
# through Python's, and on a busy machine the two can meet inside one line.
_PLACEMENT_LOG = re.compile(r"[^\s:]+: \([^\s()]+\): /job:[\w/:.-]*?/device:[A-Z_]+:\d+\n?")


@dataclass(frozen=True)
class Token:
    text: str
    line: int
    value: Optional[float] = None
    quantum: float = 0.0


def _quantum(text):
    """One unit in the last printed digit of a number with decimals, else 0."""
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa:
        return 0.0
    decimals = len(mantissa.split(".", 1)[1])
    if decimals == 0:
        return 0.0
    return 10.0 ** (int(exponent or 0) - decimals)


def tokenize(output):
    tokens = []
    for number, line in enumerate(output.splitlines(), start=1):
        line = _TF_MODULE.sub("<module 'tensorflow'>", _ADDRESS.sub("0xADDRESS", _UNKNOWN_DIMENSION.sub("None", line)))
        line = _VARIABLE_CLASS.sub("<class 'tf.Variable'>", _TENSOR_CLASS.sub("<class 'tf.Tensor'>", line))
        line = _DIMENSION_REPR.sub(r"\1", _REF_DTYPE.sub(r"<dtype: '\1'>", line))
        for match in _TOKEN.finditer(line):
            text = match.group(0)
            if match.group("num") is not None:
                tokens.append(Token(text, number, float(text), _quantum(text)))
            else:
                tokens.append(Token(text, number))
    return tokens


def _close(a, b, rtol, atol):
    if math.isnan(a.value) or math.isnan(b.value):
        return math.isnan(a.value) and math.isnan(b.value)
    if math.isinf(a.value) or math.isinf(b.value):
        return a.value == b.value
    difference = abs(a.value - b.value)
    if difference <= atol + rtol * abs(b.value):
        return True
    return difference <= max(a.quantum, b.quantum) * (1 + 1e-9)


def _line(output, number):
    lines = output.splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


# A graph tensor: TF1's, or a TF2 trace's (a ``tf.function``'s outputs); unknown rank shows no shape.
_GRAPH_TENSOR = re.compile(r'(?<![\w.])Tensor\("[^"\n]*"(?:, shape=(?P<shape>\([^)]*\)))?, dtype=(?P<dtype>\w+)\)')
_EAGER_TENSOR = re.compile(r'\btf\.Tensor\((?:.(?!\btf\.Tensor\())*?, shape=(?P<shape>\([^)]*\)), dtype=(?P<dtype>\w+)\)', re.S)
# The same as a repr (an element of a printed list): TF1 ``<tf.Tensor 'unstack:0' shape=(2,) dtype=float64>``,
# eager TF2 ``<tf.Tensor: shape=(2,), dtype=float64, numpy=array([...])>``.
_GRAPH_TENSOR_REPR = re.compile(
    r"<tf\.Tensor '[^'\n]*' shape=(?:(?P<shape>\([^)]*\))|<unknown>) dtype=(?P<dtype>\w+)>")
_EAGER_TENSOR_REPR = re.compile(r"<tf\.Tensor: shape=(?P<shape>\([^)]*\)), dtype=(?P<dtype>\w+), numpy=[^>]*>", re.S)
_GRAPH_VARIABLE = re.compile(r"<tf\.Variable '(?P<name>[^']*)' shape=(?P<shape>\([^)]*\)) dtype=(?P<dtype>\w+?)_ref>")
_EAGER_VARIABLE = re.compile(
    r"<tf\.Variable '(?P<name>[^']*)' shape=(?P<shape>\([^)]*\)) dtype=(?P<dtype>\w+), numpy=[^>]*>", re.S)


def _dimensions(shape):
    return [d.strip() for d in shape.strip("()").split(",") if d.strip()]


def _same_spec(graph, eager):
    """Whether a TF1 description and a TF2 one agree on what both show."""
    # (a TF1 tensor an assignment returns has a reference dtype, ``float32_ref``: TF2 has none)
    if graph["dtype"].removesuffix("_ref") != eager["dtype"] \
            or graph.groupdict().get("name") != eager.groupdict().get("name"):
        return False
    if graph["shape"] is None or eager["shape"] is None:
        return graph["shape"] is None  # unknown rank (TF1) matches any shape
    static, actual = _dimensions(graph["shape"]), _dimensions(eager["shape"])
    return len(static) == len(actual) and all(s in ("?", "None") or s == a for s, a in zip(static, actual))


def align_descriptions(legacy, migrated):
    """Both outputs with each TF1 tensor/variable description and its TF2 counterpart (the same
    one in print order, same dtype and shape) replaced by one marker; line breaks are kept."""
    for graph_pattern, eager_pattern, marker in ((_GRAPH_TENSOR, _EAGER_TENSOR, "<tensor {dtype} {shape}>"),
                                                 (_GRAPH_TENSOR_REPR, _EAGER_TENSOR_REPR, "<tensor {dtype} {shape}>"),
                                                 (_GRAPH_VARIABLE, _EAGER_VARIABLE, "<variable {dtype} {shape}>")):
        graphs, eagers = list(graph_pattern.finditer(legacy)), list(eager_pattern.finditer(migrated))
        if graph_pattern in (_GRAPH_TENSOR, _GRAPH_TENSOR_REPR):  # a traced tensor printed by the migrated program
            # shows what TF1's did
            eagers = sorted(eagers + list(graph_pattern.finditer(migrated)), key=lambda match: match.start())
        if not graphs or len(graphs) != len(eagers):
            continue
        pairs = [(g, e) for g, e in zip(graphs, eagers) if _same_spec(g, e)]
        if len(pairs) != len(graphs):
            continue
        legacy = _replace(legacy, [(g, marker.format(**g.groupdict())) for g, _ in pairs])
        migrated = _replace(migrated, [(e, marker.format(**g.groupdict())) for g, e in pairs])
    return legacy, migrated


def _replace(text, replacements):
    for match, marker in reversed(replacements):
        kept_lines = "\n" * match.group(0).count("\n")
        # spaced: the breaks a long TF2 description had are kept after it, where TF1's went on on the same line
        text = text[:match.start()] + " " + marker.replace(" ", "_") + " " + kept_lines + text[match.end():]
    return text


def first_difference(legacy, migrated, *, rtol, atol):
    """Describes the first difference between two outputs, or returns None."""
    legacy, migrated = _PLACEMENT_LOG.sub("", legacy), _PLACEMENT_LOG.sub("", migrated)
    legacy_text, migrated_text = legacy, migrated
    legacy, migrated = align_descriptions(legacy, migrated)
    a, b = tokenize(legacy), tokenize(migrated)
    legacy, migrated = legacy_text, migrated_text
    for x, y, what in _differing_tokens(a, b, rtol, atol):
        return (
            f"{what}: legacy output line {x.line} {_line(legacy, x.line)!r}, "
            f"migrated output line {y.line} {_line(migrated, y.line)!r}"
        )
    if len(a) > len(b):
        x = a[len(b)]
        return f"the migrated output ends where the legacy one goes on with line {x.line} {_line(legacy, x.line)!r}"
    if len(b) > len(a):
        y = b[len(a)]
        return f"the legacy output ends where the migrated one goes on with line {y.line} {_line(migrated, y.line)!r}"
    return None


def differing_tokens(legacy, migrated, *, rtol, atol):
    """[(token index, legacy line)] of the tokens that differ (as ``first_difference`` compares them), in order;
    where the tokens both outputs have agree, none."""
    legacy, migrated = align_descriptions(_PLACEMENT_LOG.sub("", legacy), _PLACEMENT_LOG.sub("", migrated))
    pairs = list(zip(tokenize(legacy), tokenize(migrated)))
    return [(index, x.line) for index, (x, y) in enumerate(pairs) if _differ(x, y, rtol, atol)]


def _differing_tokens(a, b, rtol, atol):
    """(legacy token, migrated token, what differs) for each pair of tokens that differ, in order."""
    for x, y in zip(a, b):
        if _differ(x, y, rtol, atol):
            yield x, y, f"value {x.text} != {y.text}" if x.value is not None and y.value is not None \
                else f"text {x.text!r} != {y.text!r}"


def _differ(x, y, rtol, atol):
    if x.value is not None and y.value is not None:
        return not _close(x, y, rtol, atol)
    return x.text != y.text
