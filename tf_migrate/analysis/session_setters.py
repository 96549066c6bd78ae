"""Methods that only hand an object the session its other methods run the graph in.

    class ValueModel:
        def __init__(self, D):
            self.X = tf.placeholder(tf.float32, (None, D))
            ...
        def set_session(self, session):
            self.session = session
        def predict(self, X):
            return self.session.run(self.predict_op, feed_dict={self.X: X})

    model = ValueModel(4)
    session = tf.InteractiveSession()
    model.set_session(session)

The RL-course shape: the driver opens the session after building the models and gives it to each. The
class's runs become its generated methods (:mod:`tf_migrate.analysis.class_scope`); then nothing reads the
attribute, and eager code has no session to give: the call ``model.set_session(session)`` goes (it is
classified as session plumbing) and so does the setter (the class's conversion, ``rules/_class_graphs``).

A setter is a method with one parameter besides ``self`` whose body is the one assignment
``self.<attribute> = <parameter>``, the attribute named as a session (``session``, ``sess``, ``..._sess``),
and every other mention of that attribute in the class the receiver of a ``.run(...)`` call. Anything else
the method does (giving the session on to sub-objects, running initializers) keeps the session's uses
visible, and the call stays a session passed to code that still needs it.
"""
from __future__ import annotations

from typing import Callable, Mapping, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.run_sites import session_named
from tf_migrate.traversal import visit

SETTER = -1  # the position an importer is told for a setter the eager class dropped: its calls go, not an argument


def setter_attribute(cls: cst.ClassDef, method_name: str) -> Optional[str]:
    """The session attribute ``cls``'s method ``method_name`` sets, when the method is a session setter."""
    method = next((m for m in cls.body.body if isinstance(m, cst.FunctionDef) and m.name.value == method_name), None)
    if method is None or method.decorators or not isinstance(method.body, cst.IndentedBlock):
        return None
    params = method.params
    if len(params.params) != 2 or params.params[0].name.value != "self" or isinstance(params.star_arg, cst.Param) \
            or params.kwonly_params or params.star_kwarg or params.posonly_params:
        return None
    parameter = params.params[1].name.value
    body = [s for s in method.body.body if not _docstring(s)]
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        return None
    assign = body[0].body[0]
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.value, cst.Name)
            and assign.value.value == parameter):
        return None
    target = assign.targets[0].target
    if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self"
            and session_named(target.attr.value)):
        return None
    attribute = target.attr.value
    others = [m for m in cls.body.body if m is not method]
    return attribute if all(_only_run_receiver(other, attribute) for other in others) else None


def sets_session(call: cst.Call, scope: "pm.Scope", is_session: Callable[[cst.BaseExpression], bool],
                 given: Mapping[str, Tuple[int, str]]) -> bool:
    """Whether ``call`` is ``obj.setter(session)``: ``obj`` an object of a local class, the method a session setter
    (:func:`setter_attribute`), or of a class of another module of the tree whose eager form dropped that setter
    (``given``: ``Class#method`` -> (SETTER, parameter), project.session_imports), and its one argument a session
    of the scope."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)) or len(call.args) != 1:
        return False
    owner = scope.instances.get(func.value.value)
    arg = call.args[0]
    if owner is None or arg.star or not is_session(arg.value):
        return False
    if owner in scope.class_defs:
        return setter_attribute(scope.class_defs[owner], func.attr.value) is not None
    return given.get(f"{owner}#{func.attr.value}", (None,))[0] == SETTER


def _docstring(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 and isinstance(
        statement.body[0], cst.Expr) and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _only_run_receiver(node: cst.CSTNode, attribute: str) -> bool:
    """Whether every ``self.<attribute>`` in ``node`` is the receiver of a ``.run(...)`` call."""
    counts = {"mentions": 0, "runs": 0}

    class _Uses(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            counts["mentions"] += _is_self_attribute(node, attribute)

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            counts["runs"] += isinstance(func, cst.Attribute) and func.attr.value == "run" and _is_self_attribute(
                func.value, attribute)

    visit(node, _Uses())
    return counts["mentions"] == counts["runs"]


def _is_self_attribute(node: cst.CSTNode, attribute: str) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value == attribute and isinstance(node.value, cst.Name) \
        and node.value.value == "self"
