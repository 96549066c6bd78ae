"""``tf.contrib`` and other TF1 APIs that TF2 does not have at all, in compat output.

``tensorflow.compat.v1`` has no ``contrib`` (nor ``estimator``, gone in TF
2.16), so compat output that names one crashes. A contrib symbol whose TF2
home has the same meaning moves there:

* tf_upgrade_v2's own rename table (read from the wheel, :mod:`tf_migrate.tf_tables`),
  without ``tf.contrib.summary.*`` (the table's targets need other arguments:
  tf_upgrade_v2 calls that port "best-effort") and without targets TF 2.21 lacks;
* the cells ``tf.contrib.rnn`` re-exported from core (listed "From core" in TF 1.x's
  ``tensorflow/contrib/rnn/__init__.py``, tensorflow/tensorflow@00927dc2): the very same classes
  as ``tf.nn.rnn_cell.*``;
* ``xavier_initializer`` / ``xavier_initializer_conv2d`` / ``variance_scaling_initializer``
  become TF core's ``glorot_uniform_initializer`` / ``variance_scaling_initializer`` with
  arguments that draw the same values (contrib's formula: ``tensorflow/contrib/layers/python/
  layers/initializers.py`` at tensorflow/tensorflow@1681cd91; the tests run both).

Anything else is an ERROR finding at its first use: the output will not run.
"""
from __future__ import annotations

import ast
import functools
from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate import tf_tables
from tf_migrate.report import ERROR, INFO
from tf_migrate.rules import RuleContext
from tf_migrate.cst.arguments import bind
from tf_migrate.cst.text import code
from tf_migrate.rules._edits import Edits
from tf_migrate.rules._tf_references import Reference, references
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

CONTRIB = "tf.contrib"
REMOVED = {"tf.estimator": "was removed in TF 2.16"}
_NOT_FROM_TABLE = ("tf.contrib.summary.",)
# Targets of the table that TF 2.21 does not have (each target is resolved in tests/rules/test_compat_mode.py).
_ABSENT_TARGETS = frozenset({
    "tf.distribute.cluster_resolver.UnionClusterResolver", "tf.data.experimental.CheckpointInputPipelineHook",
    "tf.data.experimental.StatsAggregator", "tf.data.experimental.assert_element_shape",
    "tf.data.experimental.latency_stats", "tf.data.experimental.set_stats_aggregator",
    "tf.compat.v1.keras.experimental.load_from_saved_model", "tf.compat.v1.keras.experimental.export_saved_model",
})
_CORE_RNN_WRAPPERS = ("DropoutWrapper", "DeviceWrapper", "ResidualWrapper")
# name -> (parameters, defaults) of contrib's initializer factories.
_INITIALIZERS = {
    "tf.contrib.layers.xavier_initializer": (("uniform", "seed", "dtype"), {"factor": "1.0", "mode": "FAN_AVG"}),
    "tf.contrib.layers.xavier_initializer_conv2d": (("uniform", "seed", "dtype"), {"factor": "1.0", "mode": "FAN_AVG"}),
    "tf.contrib.layers.variance_scaling_initializer": (
        ("factor", "mode", "uniform", "seed", "dtype"), {"factor": "2.0", "mode": "FAN_IN", "uniform": False}),
}
# contrib's truncated normal has stddev sqrt(1.3 * factor / n); TF core's is sqrt(scale / n) / 0.8796...
_TRUNCATED_SCALE = "1.3 * 0.87962566103423978 ** 2"


@functools.lru_cache(maxsize=1)
def contrib_renames() -> Dict[str, str]:
    """contrib symbol -> its TF2 name (``tf.…`` or ``tf.compat.v1.…``), where the meaning is the same."""
    table = {old: new for old, new in tf_tables.load().symbol_renames.items()
             if old.startswith(CONTRIB + ".") and not old.startswith(_NOT_FROM_TABLE) and new not in _ABSENT_TARGETS}
    table.update({f"tf.contrib.rnn.{name}": f"tf.compat.v1.nn.rnn_cell.{name}" for name in _CORE_RNN_WRAPPERS})
    return table


def _target(qualname: str) -> Optional[str]:
    """The TF2 name of a contrib name, or of the longest mapped prefix of it (``Cls.attr``)."""
    key, suffix = qualname, ""
    while key.startswith(CONTRIB + "."):
        target = contrib_renames().get(key)
        if target is not None:
            return target + suffix
        key, _, last = key.rpartition(".")
        suffix = f".{last}{suffix}"
    return None


def _is_under(qualname: str, prefix: str) -> bool:
    return qualname == prefix or qualname.startswith(prefix + ".")


def rename_contrib(module: cst.Module, ctx: RuleContext, v1_alias: str) -> cst.Module:
    """Moves contrib names to their TF2 home under ``v1_alias`` (the tensorflow.compat.v1 module); reports the rest."""
    refs = references(module, TFNames.scan(module))
    if not any(_is_under(r.qualname, CONTRIB) or any(_is_under(r.qualname, p) for p in REMOVED) for r in refs):
        return module
    edits, reported, stuck = Edits(), set(), set()
    calls = _calls_by_function(module)

    def report_once(node, key, severity, message):
        if key not in reported:
            reported.add(key)
            ctx.report(node, "compat-mode", severity, message)

    for ref in refs:
        if isinstance(ref.node, (cst.Import, cst.ImportFrom)):
            continue  # the names they bind are references of their own; the imports go below
        removed = next((p for p in REMOVED if _is_under(ref.qualname, p)), None)
        if removed is not None:
            report_once(ref.node, removed, ERROR, f"`{removed}` {REMOVED[removed]}: this output will not run on TF2")
            continue
        if not _is_under(ref.qualname, CONTRIB):
            continue
        call = calls.get(id(ref.node))
        if ref.qualname in _INITIALIZERS and call is not None:
            new, note = _initializer(call, ref.qualname, v1_alias)
            if new is not None:
                edits.expressions[id(call)] = new
                report_once(call, ref.qualname, INFO, note)
                continue
        target = _target(ref.qualname)
        keywords = _renamed_keywords(call, ref.qualname) if call is not None else {}
        if target is not None and keywords is not None:
            short = _in_compat(target, v1_alias)
            edits.expressions[id(ref.node)] = cst.parse_expression(short).with_changes(
                lpar=ref.node.lpar, rpar=ref.node.rpar)
            edits.expressions.update(keywords)
            report_once(ref.node, ref.qualname, INFO, f"`{ref.qualname}` -> `{short}`, its TF2 home")
            continue
        stuck.add(ref.local)
        report_once(ref.node, ref.qualname, ERROR,
                    f"`{ref.qualname}` has no TF2 equivalent: this output will not run on TF2")
    _drop_contrib_imports(module, refs, stuck, edits, ctx)
    return visit(module, edits) if edits else module


def _in_compat(target: str, v1_alias: str) -> str:
    for prefix in ("tf.compat.v1.", "tf."):
        if target.startswith(prefix):
            return f"{v1_alias}.{target[len(prefix):]}"
    return target


def _calls_by_function(module: cst.Module) -> Dict[int, cst.Call]:
    """Every call, by the id of the expression it calls."""
    found: Dict[int, cst.Call] = {}

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found[id(node.func)] = node

    visit(module, _Calls())
    return found


def _renamed_keywords(call: cst.Call, qualname: str) -> Optional[Dict[int, cst.Name]]:
    """New names of the keywords TF2 renamed (tf_upgrade_v2's table), by node id; None if one has none."""
    renames = tf_tables.load().keyword_renames.get(qualname, {})
    new: Dict[int, cst.Name] = {}
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in renames:
            if renames[arg.keyword.value] is None:
                return None
            new[id(arg.keyword)] = cst.Name(renames[arg.keyword.value])
    return new


def _initializer(call: cst.Call, qualname: str, v1_alias: str):
    """(TF core initializer call drawing the same values as contrib's, a note) or (None, None)."""
    params, defaults = _INITIALIZERS[qualname]
    bound = bind(call, params)
    if bound is None:
        return None, None
    uniform = _bool_literal(bound["uniform"]) if "uniform" in bound else defaults.get("uniform", True)
    mode = _mode(bound.get("mode"), defaults["mode"])
    if uniform is None or mode is None:
        return None, None
    rest = [f"{key}={code(bound[key])}" for key in ("seed", "dtype") if key in bound]
    if qualname != "tf.contrib.layers.variance_scaling_initializer" and uniform and "dtype" not in bound:
        # GlorotUniform ignores a dtype given to its constructor: with one, the general form below keeps it.
        new = f"{v1_alias}.glorot_uniform_initializer({', '.join(rest)})"
        return cst.parse_expression(new), f"`{qualname}` -> `{v1_alias}.glorot_uniform_initializer`: the same draws"
    factor = code(bound["factor"]) if "factor" in bound else defaults["factor"]
    if not uniform:
        factor = f"{_operand(bound.get('factor'), factor)} * {_TRUNCATED_SCALE}"
    distribution = '"uniform"' if uniform else '"truncated_normal"'
    args = [f"scale={factor}", f"mode={mode}", f"distribution={distribution}", *rest]
    new = cst.parse_expression(f"{v1_alias}.variance_scaling_initializer({', '.join(args)})")
    note = f"`{qualname}` -> `{v1_alias}.variance_scaling_initializer`: the same draws"
    if not uniform:
        note += (" (contrib's truncated normal has stddev sqrt(1.3 * factor / n), TF's sqrt(scale / n) / "
                 "0.8796..., hence the scale)")
    return new, note


def _bool_literal(node: cst.BaseExpression) -> Optional[bool]:
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def _mode(node: Optional[cst.BaseExpression], default: str) -> Optional[str]:
    """TF core's spelling of contrib's mode ('FAN_IN' -> "fan_in")."""
    if node is None:
        return f'"{default.lower()}"'
    if isinstance(node, cst.SimpleString):
        value = ast.literal_eval(node.value)
        return f'"{value.lower()}"' if value in ("FAN_IN", "FAN_OUT", "FAN_AVG") else None
    return f"({code(node)}).lower()"


def _operand(node: Optional[cst.BaseExpression], text: str) -> str:
    simple = node is None or isinstance(node, (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.Call))
    return text if simple else f"({text})"


def _drop_contrib_imports(module, refs: List[Reference], stuck: Set[str], edits: Edits, ctx: RuleContext) -> None:
    """Imports of contrib paths whose names were all moved are removed; the others fail, and say so."""
    top_level = {id(small): line for line in module.body if isinstance(line, cst.SimpleStatementLine)
                 for small in line.body}
    dropped: Dict[int, List[cst.ImportAlias]] = {}
    statements: Dict[int, cst.CSTNode] = {}
    for ref in refs:
        if not isinstance(ref.node, (cst.Import, cst.ImportFrom)):
            continue
        if any(_is_under(ref.qualname, p) for p in REMOVED):
            ctx.report(ref.node, "compat-mode", ERROR, f"`{ref.qualname}` is not in TF2: this import fails on TF2")
            continue
        if not _is_under(ref.qualname, CONTRIB):
            continue
        if ref.alias is None or ref.local in stuck:
            ctx.report(ref.node, "compat-mode", ERROR,
                       f"`{ref.qualname}` has no TF2 equivalent: this import fails on TF2")
            continue
        dropped.setdefault(id(ref.node), []).append(ref.alias)
        statements[id(ref.node)] = ref.node
    for key, node in statements.items():
        kept = [a for a in node.names if not any(a is d for d in dropped[key])]
        if kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            edits.expressions[key] = node.with_changes(names=kept)
        elif key in top_level and len(top_level[key].body) == 1:
            edits.statements[id(top_level[key])] = []
        else:
            edits.expressions[key] = cst.Pass()
