"""``slim.model_analyzer.analyze_vars`` -> a helper that prints what slim printed, in compat output.

    import tensorflow.contrib.slim as slim
    slim.model_analyzer.analyze_vars(tf.trainable_variables(), print_info=True)
becomes
    def analyze_vars(variables, print_info=False): ...    # the same header, lines and totals
    analyze_vars(tf.trainable_variables(), print_info=True)

TF2 has no ``tf.contrib.slim``, so compat output that imports it does not run.
Many TF1 projects import slim only to print their variables' table (DCGAN's
``show_all_variables``). That table is a few lines of Python over each
variable's name, dtype, shape and size (``contrib/slim/python/slim/
model_analyzer.py``), so the output gets it as a module-level helper and
loses the import. The rule acts only when every use of the slim alias is such
a call: any other slim use keeps the import, and compat-mode reports it.
"""
from __future__ import annotations

from typing import List, Set

import libcst as cst

from tf_migrate.cst.names import all_names, fresh
from tf_migrate.cst.text import code
from tf_migrate.report import INFO
from tf_migrate.rules import COMPAT, Rule, RuleContext
from tf_migrate.rules._edits import with_module_helper
from tf_migrate.traversal import visit

RULE_ID = "slim-model-analyzer"
_SLIM = "tensorflow.contrib.slim"
_ANALYZE_VARS = "tf.contrib.slim.model_analyzer.analyze_vars"

_HELPER = '''
def {name}(variables, print_info=False):
    """slim.model_analyzer.analyze_vars (TF2 has no tf.contrib.slim): the variables' total size and bytes;
    with print_info, slim's table of each variable's name, dtype, shape and size."""
    if print_info:
        print("---------")
        print("Variables: name (type shape) [size]")
        print("---------")
    total_size = total_bytes = 0
    for variable in variables:
        size = variable.get_shape().num_elements() or 0
        size_bytes = size * variable.dtype.size
        total_size += size
        total_bytes += size_bytes
        if print_info:
            shape = "x".join(str(dimension) for dimension in variable.get_shape())
            print(variable.name, f"({{variable.dtype.name}} {{shape}})", f"[{{size}}, bytes: {{size_bytes}}]")
    if print_info:
        print(f"Total size of variables: {{total_size}}")
        print(f"Total bytes of variables: {{total_bytes}}")
    return total_size, total_bytes
'''


class SlimModelAnalyzer(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "slim.model_analyzer.analyze_vars -> a helper printing slim's variable table (compat)"
    ORDER = 10  # before compat-mode (100) reports what contrib is left
    MODES = (COMPAT,)
    TRIGGERS = ("model_analyzer",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        aliases = {local for local, full in ctx.names.aliases.items() if full == _SLIM}
        imports = _SlimImports(aliases)
        visit(module, imports)
        if imports.other:  # slim bound some other way (in a function, with other names): left alone
            return module
        helper = fresh("analyze_vars", all_names(module))
        rewrite = _Calls(ctx, helper, aliases)
        new = visit(module, rewrite)
        if not rewrite.count or rewrite.other_uses:
            return module
        new = visit(new, _DropImports(aliases))
        return with_module_helper(new, _HELPER.format(name=helper))


class _SlimImports(cst.CSTVisitor):
    """Whether the slim aliases are bound by anything but a module-level import of slim alone."""

    def __init__(self, aliases: Set[str]) -> None:
        self.aliases, self.other, self.depth = aliases, False, 0

    def visit_FunctionDef(self, node) -> None:
        self.depth += 1

    def leave_FunctionDef(self, node) -> None:
        self.depth -= 1

    def visit_Import(self, node: cst.Import) -> None:
        self._check(node, [a for a in node.names if (a.evaluated_alias or a.evaluated_name) in self.aliases])

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        self._check(node, [a for a in node.names if (a.evaluated_alias or a.evaluated_name) in self.aliases])

    def _check(self, node, binding: List[cst.ImportAlias]) -> None:
        if binding and (self.depth or len(binding) != len(node.names)):
            self.other = True


class _Calls(cst.CSTTransformer):
    def __init__(self, ctx: RuleContext, helper: str, aliases: Set[str]) -> None:
        self.ctx, self.helper, self.aliases = ctx, helper, aliases
        self.count = self.other_uses = 0

    def visit_Import(self, node) -> bool:
        return False

    def visit_ImportFrom(self, node) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if self.ctx.names.call_name(node) == _ANALYZE_VARS:
            for arg in node.args:
                arg.visit(self)  # slim inside the arguments still counts
            return False
        return True

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.ctx.names.call_name(original) != _ANALYZE_VARS:
            return updated
        self.count += 1
        self.ctx.report(original, RULE_ID, INFO, f"{code(original.func)} -> `{self.helper}`, slim's variable "
                        "table written out (TF2 has no tf.contrib.slim)")
        return updated.with_changes(func=cst.Name(self.helper))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.aliases:
            self.other_uses += 1

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if code(node).startswith(f"{self.ctx.tf}.contrib.slim"):
            self.other_uses += 1
            return False
        return True


class _DropImports(cst.CSTTransformer):
    def __init__(self, aliases: Set[str]) -> None:
        self.aliases = aliases

    def leave_SimpleStatementLine(self, original, updated):
        small = updated.body[0] if len(updated.body) == 1 else None
        if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar) and all(
                (a.evaluated_alias or a.evaluated_name) in self.aliases for a in small.names):
            return cst.RemoveFromParent()
        return updated
