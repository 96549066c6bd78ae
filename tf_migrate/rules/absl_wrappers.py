"""tf.app.flags / tf.flags, tf.app.run and tf.logging -> absl.flags, absl.app.run and absl.logging.

TF1's versions are thin wrappers around absl. Where they differ, the
rewrite keeps TF1's behaviour explicit:

* ``tf.app.run`` parses with ``known_only=True`` (unknown flags reach
  ``main``'s argv instead of aborting): the same parser is passed to
  ``app.run``. ``tf.app.run()`` without ``main`` runs ``__main__.main``.
* ``tf.flags.DEFINE_*`` accept ``flag_name`` / ``default_value`` /
  ``docstring``: they become ``name`` / ``default`` / ``help``.
* TF's ``FLAGS`` parses ``sys.argv`` on the first read when nothing parsed
  it yet; absl's raises. A module that reads a flag outside any function, or
  never parses (no ``tf.app.run``, no ``FLAGS(argv)``), keeps
  ``tf.compat.v1.flags.FLAGS`` (TF2 has no ``tf.flags``; TF2's compat.v1
  FLAGS still parses on the first read), with a warning. Everything else in
  the module is absl's already: ``DEFINE_*`` and friends still move to
  ``absl.flags``, so no flag definition looks like a graph op to drop.
* ``tf.logging`` levels are Python's (INFO=20), absl's its own (INFO=0):
  a level constant is mapped only where it is passed to a mapped call.
  ``fatal`` (absl aborts, TF only logs), ``vlog``, ``get_verbosity`` (absl
  orders levels the other way) and calls with a computed level are left to
  the rename tables (``tf.compat.v1.logging``).
"""
from __future__ import annotations

from typing import Dict, Optional, Set

import libcst as cst

from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.cst.arguments import keyword
from tf_migrate.cst.imports import insert_after_tensorflow_import
from tf_migrate.cst.names import fresh
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.tfnames import dotted_name
from tf_migrate.traversal import visit

RULE_ID = "absl-wrappers"

_FLAG_MODULES = {"tf.app.flags", "tf.flags"}
_FLAG_VALUES = {m + ".FLAGS" for m in _FLAG_MODULES}
_DEFINE_KEYWORDS = {"flag_name": "name", "default_value": "default", "docstring": "help"}
_PARSE_METHODS = {"mark_as_parsed", "is_parsed", "unparse_flags"}

_LOGGING_CALLS = {"debug": "debug", "info": "info", "warn": "warning", "warning": "warning", "error": "error",
                  "flush": "flush", "set_verbosity": "set_verbosity", "log": "log", "log_every_n": "log_every_n",
                  "log_first_n": "log_first_n", "log_if": "log_if"}
_LEVEL_FIRST = {"set_verbosity", "log", "log_every_n", "log_first_n", "log_if"}
_LEVELS = {"DEBUG": "DEBUG", "INFO": "INFO", "WARN": "WARNING", "ERROR": "ERROR", "FATAL": "FATAL"}


class AbslWrappers(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("tf.app.flags/tf.flags, tf.app.run and tf.logging -> absl.flags, absl.app.run (TF's tolerant "
                   "flag parser kept) and absl.logging (levels mapped)")
    ORDER = 15

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        plan = _Plan.of(module, ctx)
        if not plan.touches_anything:
            return module
        module = visit(module, _Rewrite(ctx, plan))
        imports = []
        if plan.app_used:
            imports.append(_import_line("app", plan.app))
        if plan.flags_used:
            imports.append(_import_line("flags", plan.flags))
        if plan.logging_used:
            imports.append(_import_line("logging", plan.logging))
        return insert_after_tensorflow_import(module, imports) if imports else module


def _import_line(name: str, local: str) -> str:
    return f"from absl import {name}" + ("" if local == name else f" as {local}")


class _FlagNames:
    """Which expressions are the tf.app.flags module or its FLAGS object, however they are reached."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.module_alias: Optional[str] = None  # `flags = tf.app.flags` at module level
        self.alias_statement: Optional[cst.SimpleStatementLine] = None
        self.values_names: Set[str] = set()  # `FLAGS = tf.app.flags.FLAGS`

    def is_module(self, node: cst.BaseExpression) -> bool:
        return self.ctx.names.qualname(node) in _FLAG_MODULES or (
            isinstance(node, cst.Name) and node.value == self.module_alias)

    def is_values(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name):
            return node.value in self.values_names or self.ctx.names.qualname(node) in _FLAG_VALUES
        return isinstance(node, cst.Attribute) and node.attr.value == "FLAGS" and self.is_module(node.value)


class _Plan:
    """What to convert in one module, decided before anything is rewritten."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.convert_flags = False
        self.flags_alias_statement: Optional[cst.SimpleStatementLine] = None  # removed: the name is absl's now
        self.flags = self.app = self.logging = ""
        self.level_args: Set[int] = set()  # ids of tf.logging.X constants passed to mapped calls
        self.skipped_calls: Set[int] = set()  # ids of tf.logging calls left to the rename tables
        self.main_defined = False
        self.flags_used = self.app_used = self.logging_used = False
        self.touches_anything = False
        self.fallback_reason = ""
        self.flag_names: Optional[_FlagNames] = None

    @classmethod
    def of(cls, module: cst.Module, ctx: RuleContext) -> "_Plan":
        plan = cls(ctx)
        survey = _Survey(ctx)
        visit(module, survey)
        plan.touches_anything = survey.found_flags or survey.found_run or survey.found_logging
        if not plan.touches_anything:
            return plan
        taken = reads(module) | set(writes(module))
        plan.main_defined = any(isinstance(s, cst.FunctionDef) and s.name.value == "main" for s in module.body)
        plan.level_args, plan.skipped_calls = survey.level_args, survey.skipped_calls
        plan.flag_names = survey.flags
        if survey.found_flags or survey.found_run:
            plan._decide_flags(module, survey, taken)
        plan.app = _fresh("app", taken)
        plan.logging = _fresh("logging", taken)
        return plan

    def _decide_flags(self, module: cst.Module, survey: "_Survey", taken: Set[str]) -> None:
        if _read_before_parse(module, survey.flags):
            self.fallback_reason = "a flag is read outside any function, where TF's FLAGS parses sys.argv itself"
        elif survey.reads_flag_values and not (survey.found_run or survey.explicit_parse):
            self.fallback_reason = "flags are read but never parsed (no tf.app.run): TF's FLAGS parses on first read"
        self.convert_flags = not self.fallback_reason
        if not self.convert_flags:
            self.flags = _fresh("flags", taken)  # DEFINE_* and friends: absl's, only FLAGS stays TF's
            return
        alias = survey.flags.module_alias
        if alias is not None and _bound_once(module, alias):
            self.flags_alias_statement = survey.flags.alias_statement
            self.flags = alias
        else:
            self.flags = _fresh("flags", taken)


def _bound_once(module: cst.Module, name: str) -> bool:
    return sum(1 for stmt in module.body if name in writes(stmt)) == 1


def _fresh(stem: str, taken: Set[str]) -> str:
    """``stem`` when free, else ``absl_stem``, ``absl_stem_2``, ..."""
    return fresh(stem if stem not in taken else f"absl_{stem}", taken)


class _Survey(cst.CSTVisitor):
    """Find the TF wrappers a module uses and the names bound to tf.app.flags / FLAGS."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.flags = _FlagNames(ctx)
        self.found_flags = self.found_run = self.found_logging = False
        self.reads_flag_values = self.explicit_parse = False
        self.level_args: Set[int] = set()
        self.skipped_calls: Set[int] = set()
        self.depth = 0

    def visit_FunctionDef(self, node) -> None:
        self.depth += 1

    def leave_FunctionDef(self, node) -> None:
        self.depth -= 1

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if self.depth or len(node.body) != 1 or not isinstance(node.body[0], cst.Assign):
            return
        assign = node.body[0]
        if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
            return
        name = assign.targets[0].target.value
        if self.ctx.names.qualname(assign.value) in _FLAG_MODULES:
            self.flags.module_alias, self.flags.alias_statement = name, node
        elif self.flags.is_values(assign.value):
            self.flags.values_names.add(name)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        qualname = self.ctx.names.qualname(node) or ""
        if qualname.split(".FLAGS")[0] in _FLAG_MODULES or qualname.startswith(tuple(m + "." for m in _FLAG_MODULES)):
            self.found_flags = True
        if qualname.startswith("tf.logging."):
            self.found_logging = True
        if self.flags.is_values(node.value):
            if node.attr.value in _PARSE_METHODS:
                self.explicit_parse = True
            else:
                self.reads_flag_values = True

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.ctx.names.call_name(node) or ""
        if qualname == "tf.app.run":
            self.found_run = True
        if self.flags.is_values(node.func):
            self.explicit_parse = True
        if qualname.startswith("tf.logging."):
            method = qualname[len("tf.logging."):]
            level = _first_argument(node, "level") if method in _LEVEL_FIRST else None
            level_name = (self.ctx.names.qualname(level) or "") if level is not None else ""
            if method not in _LOGGING_CALLS or (method in _LEVEL_FIRST and
                                                level_name[len("tf.logging."):] not in _LEVELS):
                self.skipped_calls.add(id(node))
            elif level is not None:
                self.level_args.add(id(level))


def _first_argument(call: cst.Call, keyword_name: str) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword_name:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[0].value if positional else None


def _read_before_parse(module: cst.Module, flags: _FlagNames) -> bool:
    """Whether code outside functions reads a flag before anything parsed the command line."""
    finder = _FirstFlagEvent(flags)
    for stmt in module.body:
        if not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            visit(stmt, finder)
        if finder.first is not None:
            return finder.first == "read"
    return False


class _FirstFlagEvent(cst.CSTVisitor):
    def __init__(self, flags: _FlagNames) -> None:
        self.flags = flags
        self.first: Optional[str] = None

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def _seen(self, event: str) -> None:
        if self.first is None:
            self.first = event

    def visit_Call(self, node: cst.Call) -> None:
        if self.flags.is_values(node.func) or self.flags.ctx.names.call_name(node) == "tf.app.run":
            self._seen("parse")

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.flags.is_values(node.value):
            self._seen("parse" if node.attr.value in _PARSE_METHODS else "read")


class _Rewrite(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, plan: _Plan) -> None:
        self.ctx, self.plan = ctx, plan
        self.reported_fallback = False
        self.absorbed: Set[int] = set()  # tf.flags inside tf.flags.DEFINE_x: replaced whole, by absl's

    def _absl_in_fallback(self, node: cst.Attribute) -> bool:
        """tf.flags.X other than FLAGS where FLAGS stays TF's: X is absl's own."""
        names = self.plan.flag_names
        return (not self.plan.convert_flags and bool(self.plan.flags) and node.attr.value != "FLAGS"
                and names is not None and names.is_module(node.value))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self._absl_in_fallback(node):
            self.absorbed.add(id(node.value))

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        alias = self.plan.flags_alias_statement
        if alias is None:
            return updated
        # `flags = tf.app.flags` goes: the name is absl's module now. Its blank lines stay.
        body = list(updated.body)
        index = next(i for i, stmt in enumerate(original.body) if stmt is alias)
        self.ctx.report(alias, RULE_ID, INFO, f"`{self.plan.flags}` is now absl.flags")
        removed = body.pop(index)
        if index < len(body):
            body[index] = body[index].with_changes(
                leading_lines=list(removed.leading_lines) + list(body[index].leading_lines))
        return updated.with_changes(body=body)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        qualname = self.ctx.names.qualname(original)
        if self._absl_in_fallback(original):
            # tf.flags.DEFINE_integer is absl's (keywords renamed below): a Python call, not a graph op
            self.plan.flags_used = True
            return _attribute(self.plan.flags, original.attr.value, updated)
        if qualname in _FLAG_MODULES and id(original) not in self.absorbed:
            return self._flags_module(original, updated, qualname)
        if qualname is None or not qualname.startswith("tf.logging."):
            return updated
        attr = qualname[len("tf.logging."):]
        if attr in _LEVELS and id(original) in self.plan.level_args:
            self.plan.logging_used = True
            return _attribute(self.plan.logging, _LEVELS[attr], updated)
        return updated

    def _flags_module(self, original, updated, qualname: str) -> cst.BaseExpression:
        if self.plan.convert_flags:
            self.plan.flags_used = True
            return cst.Name(self.plan.flags, lpar=updated.lpar, rpar=updated.rpar)
        if not self.reported_fallback:
            self.reported_fallback = True
            self.ctx.report(original, RULE_ID, WARNING, f"kept tf.compat.v1.flags: {self.plan.fallback_reason}")
        if qualname == "tf.flags" and ".compat.v1" not in (dotted_name(original) or ""):
            # TF2 has no tf.flags, and the rename tables have no entry for it.
            return cst.parse_expression(f"{self.ctx.tf}.compat.v1.flags").with_changes(
                lpar=updated.lpar, rpar=updated.rpar)
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.ctx.names.call_name(original) or ""
        if qualname == "tf.app.run" and self.plan.convert_flags:
            return self._app_run(original, updated)
        if qualname.startswith("tf.logging.") and id(original) not in self.plan.skipped_calls:
            self.plan.logging_used = True
            method = _LOGGING_CALLS[qualname[len("tf.logging."):]]
            self.ctx.report(original, RULE_ID, INFO, f"{qualname} -> absl logging.{method}")
            return updated.with_changes(func=_attribute(self.plan.logging, method, updated.func))
        if self.plan.flags and isinstance(updated.func, cst.Attribute) and \
                updated.func.attr.value.startswith("DEFINE") and self._is_absl_flags(updated.func.value):
            args = [a.with_changes(keyword=cst.Name(_DEFINE_KEYWORDS[a.keyword.value]))
                    if a.keyword is not None and a.keyword.value in _DEFINE_KEYWORDS else a for a in updated.args]
            return updated.with_changes(args=args)
        return updated

    def _is_absl_flags(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value == self.plan.flags

    def _app_run(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        bound: Dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(updated.args):
            key = arg.keyword.value if arg.keyword is not None else ("main", "argv")[index] if index < 2 else None
            if arg.star or key is None:
                return updated
            bound[key] = arg.value
        if "main" not in bound:
            if not self.plan.main_defined:
                return updated
            bound["main"] = cst.Name("main")
        self.plan.app_used = self.plan.flags_used = True
        args = [cst.Arg(bound["main"])]
        if "argv" in bound:
            args.append(keyword("argv", bound["argv"]))
        parser = cst.parse_expression(f"lambda argv: {self.plan.flags}.FLAGS(argv, known_only=True)")
        args.append(keyword("flags_parser", parser))
        self.ctx.report(original, RULE_ID, INFO, "tf.app.run -> absl app.run with TF's parser (unknown flags reach "
                        "main's argv)")
        return cst.Call(cst.Attribute(cst.Name(self.plan.app), cst.Name("run")), args)


def _attribute(module_name: str, attr: str, like: cst.BaseExpression) -> cst.Attribute:
    return cst.Attribute(cst.Name(module_name), cst.Name(attr), lpar=getattr(like, "lpar", ()),
                         rpar=getattr(like, "rpar", ()))
