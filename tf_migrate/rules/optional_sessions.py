"""A session a class makes only when its caller passes none -> the branch that makes it.

    def __init__(self, n_actions, sess=None):            def __init__(self, n_actions, sess=None):
        ...                                                  ...
        if sess is None:                          ->         self.sess = tf.Session()
            self.sess = tf.Session()                         self.sess.run(tf.global_variables_initializer())
            self.sess.run(tf.global_variables_initializer())
        else:
            self.sess = sess

RL agents let a driver share one session between two agents (MorvanZhou's double, dueling and prioritized-replay
DQNs). The branches differ only in which session runs the class's graph and who initializes its variables. Eager
code has no session, and its variables hold their initial values from creation, so both branches come to the same
thing; the one that makes the session is the form the session rewrite converts: the runs become the class's
methods, the initializer run goes, then the unused session parameter and the arguments that fed it
(``codegen/session_params``; in other modules of a tree, ``project.session_imports``).

Only this shape is rewritten: the test is ``param is None`` / ``param is not None`` / ``not param`` on a parameter
of ``__init__``, at the top level of ``__init__``; the branch for a missing session only binds one attribute to a
new session and runs initializers on it; the other branch only binds that attribute to the parameter. Eager mode
only: a file that stays compat keeps its branch.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.statement_facts import call_statement
from tf_migrate.analysis.symbols import all_calls
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.tfnames import dotted_name

RULE_ID = "optional-sessions"
_SESSION_PARAMETERS = ("sess", "session")  # what the session analysis takes a parameter to be a session by


class OptionalSessions(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("`if sess is None: self.sess = tf.Session(); <init runs> else: self.sess = sess` in __init__ -> "
                   "the branch that makes the session (eager code has none to pass)")
    ORDER = 3  # before the rules that convert what __init__ builds
    TRIGGERS = ("None", "not ", "sess")

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        body, changed = [], False
        for statement in module.body:
            if isinstance(statement, cst.ClassDef):
                new = _class(statement, ctx)
                changed |= new is not statement
                statement = new
            body.append(statement)
        return module.with_changes(body=body) if changed else module


def _class(cls: cst.ClassDef, ctx: RuleContext) -> cst.ClassDef:
    init = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
    if init is None or not isinstance(init.body, cst.IndentedBlock):
        return cls
    positions = {p.name.value: f"#{index}" for index, p in enumerate(init.params.params[1:])}
    params = set(positions)
    statements: List[cst.BaseStatement] = []
    makes_sessions = any(ctx.names.call_name(call) in api.SESSIONS for call in all_calls(init))
    for statement in init.body.body:
        given = _assignment(statement)
        if given is not None and given[1] in params and given[1] in _SESSION_PARAMETERS and not makes_sessions:
            ctx.given_sessions[cls.name.value] = (given[1], positions[given[1]])  # self.sess = sess: always given
        made = _session_made(statement, params, ctx) if isinstance(statement, cst.If) else None
        if made is None:
            statements.append(statement)
            continue
        param = _missing_test(statement.test)[0]
        ctx.given_sessions[cls.name.value] = (param, positions[param])
        made[0] = made[0].with_changes(leading_lines=[*statement.leading_lines, *made[0].leading_lines])
        statements.extend(made)
        ctx.report(statement, RULE_ID, INFO, "the session the class makes when none is passed: eager code has no "
                                             "session to pass, and its variables are initialized where they are made")
    if len(statements) == len(init.body.body) and all(a is b for a, b in zip(statements, init.body.body)):
        return cls
    new_init = init.with_changes(body=init.body.with_changes(body=statements))
    return cls.with_changes(body=cls.body.with_changes(
        body=[new_init if member is init else member for member in cls.body.body]))


def _session_made(branch: cst.If, params, ctx: RuleContext) -> Optional[List[cst.BaseStatement]]:
    """The statements of the branch that makes the session, when ``branch`` has the shape of the docstring."""
    tested = _missing_test(branch.test)
    if tested is None or tested[0] not in params or not isinstance(branch.orelse, cst.Else):
        return None
    param, missing_first = tested
    made, given = (branch.body, branch.orelse.body) if missing_first else (branch.orelse.body, branch.body)
    made_statements, given_statements = list(made.body), list(given.body)
    attribute = _makes_session(made_statements, ctx)
    if attribute is None or len(given_statements) != 1:
        return None
    found = _assignment(given_statements[0])
    if found is None or found != (attribute, param):
        return None
    return made_statements


def _missing_test(test: cst.BaseExpression) -> Optional[Tuple[str, bool]]:
    """(parameter, True) for ``p is None`` / ``not p``; (parameter, False) for ``p is not None``."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and isinstance(test.expression,
                                                                                                  cst.Name):
        return test.expression.value, True
    if isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.comparator, cst.Name) and target.comparator.value == "None":
            if isinstance(target.operator, cst.Is):
                return test.left.value, True
            if isinstance(target.operator, cst.IsNot):
                return test.left.value, False
    return None


def _makes_session(statements: List[cst.BaseStatement], ctx: RuleContext) -> Optional[str]:
    """``self.sess`` when the statements bind it to a new session, then only run initializers on it."""
    first = _assignment(statements[0]) if statements else None
    if first is None or not isinstance(_value(statements[0]), cst.Call) \
            or ctx.names.call_name(_value(statements[0])) not in api.SESSIONS - api.SESSIONS_WITH_HOOKS:
        return None
    attribute = first[0]
    for statement in statements[1:]:
        found = call_statement(statement)
        if found is None or found[0] is not None:
            return None
        run = found[1]
        if dotted_name(run.func) != f"{attribute}.run" or len(run.args) != 1 or run.args[0].keyword is not None \
                or not isinstance(run.args[0].value, cst.Call) \
                or ctx.names.call_name(run.args[0].value) not in api.INITIALIZER_OPS:
            return None
    return attribute


def _assignment(statement: cst.BaseStatement) -> Optional[Tuple[str, Optional[str]]]:
    """(``self.x``, the name assigned or None) of ``self.x = value``."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Assign) and len(statement.body[0].targets) == 1):
        return None
    target = dotted_name(statement.body[0].targets[0].target)
    if target is None or not target.startswith("self.") or target.count(".") != 1:
        return None
    value = statement.body[0].value
    return target, value.value if isinstance(value, cst.Name) else None


def _value(statement: cst.BaseStatement) -> cst.BaseExpression:
    return statement.body[0].value
