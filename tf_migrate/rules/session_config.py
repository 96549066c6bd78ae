"""A session's ``tf.ConfigProto`` becomes the ``tf.config`` calls that set the same thing in TF2.

    config = tf.ConfigProto(log_device_placement=True)      import tensorflow as tf
    config.gpu_options.allow_growth = True             ->   for gpu in tf.config.list_physical_devices("GPU"):
    sess = tf.Session(config=config)                            tf.config.experimental.set_memory_growth(gpu, True)
                                                            ...
                                                            tf.debugging.set_log_device_placement(True)
                                                            sess = tf.Session()

Eager code has no session to hand a configuration to; the session rule removes the session, and the
configuration went with it (``log_device_placement=True`` printed nothing any more), or stayed behind as
``tf.compat.v1.ConfigProto``. Each setting TF2 has moves to its ``tf.config`` call:

- ``log_device_placement``: ``tf.debugging.set_log_device_placement``, where the session was configured
  (TF2 logs each op as it runs, in the form TF1 logged the graph's ops);
- ``allow_soft_placement=False``: ``tf.config.set_soft_device_placement(False)`` (``True`` is TF2's default);
- ``gpu_options.allow_growth=True`` (also as ``gpu_options=tf.GPUOptions(allow_growth=True)``), literal
  ``intra_op_parallelism_threads`` / ``inter_op_parallelism_threads``, and ``device_count={"GPU": 0}``:
  memory growth, thread pools and visible devices, which TF2 only accepts before its runtime starts, so they
  go right after the tensorflow import (TF1 applied them when the session started, before anything ran).

A configuration with any other setting (``per_process_gpu_memory_fraction``, ``graph_options``, a value
the runtime settings cannot take before the program runs), or one used other than as a session's
``config=`` and by setting lines in its block, is left as it was.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.cst.arguments import argument
from tf_migrate.cst.imports import insert_after_tensorflow_import
from tf_migrate.cst.names import name_mentions
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._edits import statement
from tf_migrate.traversal import visit

RULE_ID = "session-config"
_CONFIGS = {"tf.ConfigProto", "tf.compat.v1.ConfigProto"}
_GPU_OPTIONS = {"tf.GPUOptions", "tf.compat.v1.GPUOptions"}
_SESSIONS = {"tf.Session", "tf.compat.v1.Session", "tf.InteractiveSession", "tf.compat.v1.InteractiveSession"}
_THREADS = ("intra_op_parallelism_threads", "inter_op_parallelism_threads")


class SessionConfig(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "a session's tf.ConfigProto -> the tf.config calls that set the same in TF2"
    ORDER = 17  # on TF1 code, before the session rule removes the sessions
    TRIGGERS = ("ConfigProto",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        rewriter = _Rewriter(ctx, module)
        module = visit(module, rewriter)
        if rewriter.startup:
            module = insert_after_tensorflow_import(module, list(dict.fromkeys(rewriter.startup)))
        return module


class _Settings:
    """The TF2 form of one configuration: lines where it was made, and lines before anything runs."""

    def __init__(self, tf: str) -> None:
        self.tf = tf
        self.here: List[str] = []
        self.startup: List[str] = []

    def add(self, path: str, value: cst.BaseExpression, names) -> bool:
        """Adds the setting ``path`` (``log_device_placement``, ``gpu_options.allow_growth``) = ``value``;
        False where TF2 has no form for it here."""
        tf = self.tf
        truth = _literal_bool(value)
        if path == "log_device_placement":
            if truth is not False:
                self.here.append(f"{tf}.debugging.set_log_device_placement({code(value)})")
            return True
        if path == "allow_soft_placement":
            if truth is not True:
                self.here.append(f"{tf}.config.set_soft_device_placement({code(value)})")
            return True
        if path == "gpu_options" and isinstance(value, cst.Call) and names.call_name(value) in _GPU_OPTIONS:
            return all(arg.keyword is not None and self.add("gpu_options." + arg.keyword.value, arg.value, names)
                       for arg in value.args)
        if path == "gpu_options.allow_growth" and truth is not None:
            if truth:
                self.startup.append(f'for gpu in {tf}.config.list_physical_devices("GPU"):\n'
                                    f"    {tf}.config.experimental.set_memory_growth(gpu, True)")
            return True
        if path in _THREADS and isinstance(value, cst.Integer):
            self.startup.append(f"{tf}.config.threading.set_{path[:-len('_threads')]}_threads({value.value})")
            return True
        if path == "device_count" and _no_gpus(value):
            self.startup.append(f'{tf}.config.set_visible_devices([], "GPU")')
            return True
        return False


def _literal_bool(value: cst.BaseExpression) -> Optional[bool]:
    if isinstance(value, cst.Name) and value.value in ("True", "False"):
        return value.value == "True"
    return None


def _no_gpus(value: cst.BaseExpression) -> bool:
    """``{"GPU": 0}``: no GPU for the session (other device counts have no TF2 form here)."""
    return isinstance(value, cst.Dict) and len(value.elements) == 1 and isinstance(value.elements[0], cst.DictElement) \
        and isinstance(value.elements[0].key, cst.SimpleString) \
        and value.elements[0].key.evaluated_value.upper() == "GPU" \
        and isinstance(value.elements[0].value, cst.Integer) and value.elements[0].value.value == "0"


def _attribute_path(target: cst.BaseExpression, name: str) -> Optional[str]:
    """``gpu_options.allow_growth`` for ``config.gpu_options.allow_growth`` (None: not an attribute of ``name``)."""
    parts: List[str] = []
    while isinstance(target, cst.Attribute):
        parts.append(target.attr.value)
        target = target.value
    if not (isinstance(target, cst.Name) and target.value == name and parts):
        return None
    return ".".join(reversed(parts))


class _Rewriter(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx = ctx
        self.module = module
        self.startup: List[str] = []
        self.dropped_configs: Dict[str, int] = {}  # names whose sessions lose their config= (name -> sessions)

    def _config_call(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and self.ctx.names.call_name(node) in _CONFIGS

    def _settings(self, call: cst.Call, lines: List[Tuple[str, cst.BaseExpression]]) -> Optional[_Settings]:
        settings = _Settings(self.ctx.tf)
        for arg in call.args:
            if arg.keyword is None or not settings.add(arg.keyword.value, arg.value, self.ctx.names):
                return None
        for path, value in lines:
            if not settings.add(path, value, self.ctx.names):
                return None
        return settings

    def _block(self, body) -> list:
        out: list = []
        skip: set = set()
        for index, stmt in enumerate(body):
            if id(stmt) in skip:
                continue
            bound = self._named_config(stmt, body[index + 1:])
            if bound is not None:
                name, settings, setting_lines = bound
                skip |= {id(line) for line in setting_lines}
                self._report(stmt, settings)
                out.extend(self._statements(settings.here, stmt))
                self.dropped_configs[name] = 1
                continue
            out.extend(self._inline_configs(stmt))
        return out

    def _named_config(self, stmt, later):
        """(name, settings, its setting lines) for ``name = tf.ConfigProto(...)`` whose every use is a setting
        line after it in this block or a session's ``config=name``; else None."""
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1
                and isinstance(stmt.body[0].targets[0].target, cst.Name)
                and self._config_call(stmt.body[0].value)):
            return None
        name = stmt.body[0].targets[0].target.value
        setting_lines, paths = [], []
        for line in later:
            if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 \
                    and isinstance(line.body[0], cst.Assign) and len(line.body[0].targets) == 1:
                path = _attribute_path(line.body[0].targets[0].target, name)
                if path is not None and name_mentions(line.body[0].value, name) == 0:
                    setting_lines.append(line)
                    paths.append((path, line.body[0].value))
        sessions = _SessionConfigs(self.ctx, name)
        visit(self.module, sessions)
        if name_mentions(self.module, name) != 1 + len(setting_lines) + sessions.count or not sessions.count:
            return None
        settings = self._settings(stmt.body[0].value, paths)
        return None if settings is None else (name, settings, setting_lines)

    def _inline_configs(self, stmt) -> list:
        """``stmt``, after the lines of the configurations it gives its sessions inline (``config=`` dropped)."""
        finder = _SessionConfigs(self.ctx, None)
        if isinstance(stmt, cst.SimpleStatementLine):
            visit(stmt, finder)
        elif isinstance(stmt, cst.With):  # `with tf.Session(config=...) as sess:` (its body is a block of its own)
            for item in stmt.items:
                visit(item, finder)
        here: List[str] = []
        for call in finder.inline:
            settings = self._settings(call, [])
            if settings is None:
                return [stmt]
            self._report(call, settings)
            here += settings.here
        if not finder.inline:
            return [stmt]
        if isinstance(stmt, cst.With):
            dropped = stmt.with_changes(items=[visit(item, _DropConfig(self.ctx, None)) for item in stmt.items])
        else:
            dropped = visit(stmt, _DropConfig(self.ctx, None))
        return [*self._statements(here, stmt), dropped.with_changes(leading_lines=()) if here else dropped]

    def _report(self, node, settings: _Settings) -> None:
        self.startup += settings.startup
        moved = "; the runtime settings go right after the tensorflow import" if settings.startup else ""
        self.ctx.report(node, RULE_ID, INFO, "the session's tf.ConfigProto becomes TF2's tf.config calls" + moved)

    @staticmethod
    def _statements(lines: List[str], anchor) -> list:
        made = [statement(line) for line in lines]
        if made and hasattr(anchor, "leading_lines"):
            made[0] = made[0].with_changes(leading_lines=anchor.leading_lines)
        return made

    def leave_IndentedBlock(self, original, updated):
        return updated.with_changes(body=self._block(updated.body))

    def leave_Module(self, original, updated):
        body = self._block(updated.body)
        module = updated.with_changes(body=body)
        for name in self.dropped_configs:
            module = visit(module, _DropConfig(self.ctx, name))
        return module


class _SessionConfigs(cst.CSTVisitor):
    """Sessions given ``config=name`` (counted) or an inline ``tf.ConfigProto(...)`` (listed)."""

    def __init__(self, ctx: RuleContext, name: Optional[str]) -> None:
        self.ctx = ctx
        self.name = name
        self.count = 0
        self.inline: List[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.names.call_name(node) not in _SESSIONS:
            return
        config = argument(node, "config")
        if config is None:
            return
        if self.name is not None and isinstance(config, cst.Name) and config.value == self.name:
            self.count += 1
        elif self.name is None and isinstance(config, cst.Call) \
                and self.ctx.names.call_name(config) in _CONFIGS:
            self.inline.append(config)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return self.name is not None  # inline configs: only the statement's own sessions


class _DropConfig(cst.CSTTransformer):
    """Removes ``config=`` from the sessions given ``name`` (or, for None, an inline configuration)."""

    def __init__(self, ctx: RuleContext, name: Optional[str]) -> None:
        self.ctx = ctx
        self.name = name

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if self.ctx.names.call_name(original) not in _SESSIONS:
            return updated
        args = [arg for arg in updated.args if not (arg.keyword is not None and arg.keyword.value == "config" and (
            isinstance(arg.value, cst.Name) and arg.value.value == self.name if self.name is not None
            else isinstance(arg.value, cst.Call) and self.ctx.names.call_name(arg.value) in _CONFIGS))]
        if len(args) == len(updated.args):
            return updated
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(args=args)
