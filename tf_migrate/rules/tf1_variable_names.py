"""Variables keep the names TF1 gave them, in a program that reads variable names.

TF1's graph made every name unique: a second ``tf.Variable(..., name="W")`` was ``W_1:0``, unnamed
variables were ``Variable:0``, ``Variable_1:0``... Eager TF2 does not: both are ``W:0``, every unnamed
one is ``Variable:0``. A program that prints or selects by ``v.name`` would see other names:

    w1 = tf.Variable(tf.ones([2]), name="W")          w1 = tf.Variable(tf.ones([2]), name="W")
    w2 = tf.Variable(tf.ones([2]), name="W")    ->    w2 = tf.Variable(tf.ones([2]), name="W_1")
    b = tf.Variable(tf.zeros([2]))                    b = tf.Variable(tf.zeros([2]))
    c = tf.Variable(tf.zeros([2]))                    c = tf.Variable(tf.zeros([2]), name="Variable_1")

Where the text gives every variable's TF1 name (``analysis/variable_names``: straight-line
``tf.Variable`` / ``get_variable`` statements, literal names), each ``tf.Variable`` whose TF1 name is
not the one eager TF2 would give gets it as ``name=``. Where it does not (variables made in loops,
by helpers called more than once, with computed names), and more than one variable is made, the file
stays in compat mode with the reason at the first constructor. So does a file whose variables a
layer makes (``tf.layers``, Keras layers, rnn cells: TF1 named them ``dense_1/kernel:0``, Keras 3 names
them ``kernel``). Variables in scope blocks are ``scoped-variable-names``' case; files that read no
``.name`` are left alone.
"""
from __future__ import annotations

from typing import Dict

import libcst as cst

from tf_migrate.analysis.symbols import all_calls
from tf_migrate.analysis.variable_names import (CONSTRUCTORS, TF1Names, prints_variables, reads_names,
                                                scoped_constructors)
from tf_migrate.cst.arguments import argument
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._program_scopes import graph_scopes
from tf_migrate.traversal import visit

RULE_ID = "tf1-variable-names"
# APIs whose variables TF1 named after their layer (``dense_1/kernel:0``) and Keras 3 after the attribute alone.
_RENAMED_BY_KERAS = ("tf.layers.", "tf.keras.layers.", "tf.nn.rnn_cell.", "tf.contrib.rnn.", "tf.contrib.layers.",
                     "tf.nn.dynamic_rnn", "tf.nn.bidirectional_dynamic_rnn", "tf.nn.static_rnn")


class TF1VariableNames(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("in a program that reads `v.name`, tf.Variable(..., name='W') made twice -> name='W_1' on the "
                   "second (and unnamed ones -> name='Variable_1'...): the unique names TF1 gave them")
    ORDER = 5  # after variable-name-filters (the selections it writes out read no name), before the rules that
    # unwrap scopes or turn get_variable into tf.Variable
    TRIGGERS = (".name", "print", "format", "str(", "repr(")  # (printing a variable shows its name too)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        calls = all_calls(module)
        constructors = [c for c in calls if ctx.names.call_name(c) in CONSTRUCTORS]
        layers = [c for c in calls if (ctx.names.call_name(c) or "").startswith(_RENAMED_BY_KERAS)]
        if not (constructors or layers) or not (reads_names(module) or prints_variables(module, ctx.names)):
            return module
        scoped = scoped_constructors(module, ctx.names)
        if scoped and not all(_unwrapped_at_module_level(block, module) for block, _ in scoped):
            return module  # variables named by scopes: scoped-variable-names keeps the file in compat mode
        if layers:
            ctx.block(layers[0], "the program reads variable names (`.name`, or prints a variable), and the "
                                 f"variables of `{ctx.names.call_name(layers[0])}` are named by their layer in TF1 "
                                 "(`dense/kernel:0`) but by their attribute alone in Keras 3 (`kernel`)")
            return module
        scope = next(graph_scopes(module, ctx))  # the module's own statements
        if scoped and not scope.is_graph_program:
            return module  # (its scope blocks stay: the scopes would name the variables again)
        names = TF1Names(ctx.names)
        variables, why = names.variables(scope, before=len(scope.statements))
        if not why and names.constructors_seen != len(constructors):
            why = "variables made inside functions"
        if scoped and (why or any(variable.call is None and not _named_by_the_store(variable, scope, ctx)
                                  for variable in variables)):
            return module  # (a get_variable's name is the variable-store rule's to give)
        if why:
            if len(constructors) > 1 or _repeated(module, constructors[0]):
                ctx.block(constructors[0], "the program reads variable names (`.name`, or prints a variable), and "
                                           "TF1 made each variable's name unique (`W`, `W_1`) where eager TF2 does "
                                           f"not; the text does not give every name here: {why}")
            return module
        renamed: Dict[int, str] = {}
        for variable in variables:
            if variable.call is None:
                continue
            given = argument(variable.call, "name")
            eager_name = given.evaluated_value if isinstance(given, cst.SimpleString) else "Variable"
            if variable.tf_name != eager_name:
                renamed[id(variable.call)] = variable.tf_name
                ctx.report(variable.call, RULE_ID, INFO, f"`{variable.expr}` keeps the name TF1 gave it "
                           f"(`{variable.tf_name}:0`; eager TF2 does not make variable names unique)")
        ctx.scoped_names_given = bool(scoped)  # the session rewrite unwraps the module's scope blocks
        return visit(module, _Rename(renamed)) if renamed else module


def _named_by_the_store(variable, scope, ctx: RuleContext) -> bool:
    """Whether ``variable`` is a ``v = tf.get_variable("v", ...)`` line of the module, which variable-store names
    in full (``"a_variable_scope/v"``) where the program reads names, or a lookup of one."""
    if variable.made_at < 0:
        return False
    node = scope.statements[variable.made_at].node
    small = node.body[0] if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 else None
    return isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) \
        and ctx.names.call_name(small.value) == "tf.get_variable"


def _unwrapped_at_module_level(block: cst.With, module: cst.Module) -> bool:
    """Whether the scope ``block`` stands at the module's top level, or in such blocks only: in eager mode the
    session rewrite unwraps it, and the names given to its variables are theirs alone."""
    def within(body) -> bool:
        return any(statement is block or (isinstance(statement, cst.With) and within(statement.body.body))
                   for statement in body)

    return within(module.body)


def _repeated(module: cst.Module, constructor: cst.Call) -> bool:
    """Whether the one constructor may run more than once: inside a function or a loop."""
    found = []

    class _Enclosing(cst.CSTVisitor):
        def __init__(self) -> None:
            self.depth = 0

        def visit_FunctionDef(self, node) -> None:
            self.depth += 1

        def leave_FunctionDef(self, node) -> None:
            self.depth -= 1

        visit_For = visit_While = visit_Lambda = visit_ListComp = visit_GeneratorExp = visit_FunctionDef
        leave_For = leave_While = leave_Lambda = leave_ListComp = leave_GeneratorExp = leave_FunctionDef

        def visit_Call(self, node: cst.Call) -> None:
            if node is constructor and self.depth:
                found.append(node)

    visit(module, _Enclosing())
    return bool(found)


class _Rename(cst.CSTTransformer):
    def __init__(self, renamed: Dict[int, str]) -> None:
        self.renamed = renamed

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        name = self.renamed.get(id(original))
        if name is None:
            return updated
        literal = cst.SimpleString(repr(name).replace("'", '"'))
        args = list(updated.args)
        for i, arg in enumerate(args):
            if arg.keyword is not None and arg.keyword.value == "name":
                args[i] = arg.with_changes(value=literal)
                return updated.with_changes(args=args)
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        args.append(cst.Arg(literal, keyword=cst.Name("name"),
                            equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                  whitespace_after=cst.SimpleWhitespace(""))))
        return updated.with_changes(args=args)
