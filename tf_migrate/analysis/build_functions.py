"""Module-level functions that build a graph around placeholders of their own, and are called once.

    def autoencoder(dimensions=[784, 512, 256, 64]):
        x = tf.placeholder(tf.float32, [None, dimensions[0]])
        ...
        return {'x': x, 'z': z, 'y': y, 'cost': cost}

    def test_mnist():
        ae = autoencoder(dimensions=[784, 256, 64])
        optimizer = tf.train.AdamOptimizer(0.001).minimize(ae['cost'])
        with tf.Session() as sess: ... sess.run(optimizer, feed_dict={ae['x']: batch})

Such a function is the first half of a program whose second half (the session) is its caller:
its placeholders are fed and its tensors fetched there. Running its body where the call stands
(``codegen/inline_calls``, as for build methods) puts the whole graph in the caller's scope, which
the session rule converts. A call qualifies when:

- the function is defined at module level, is not decorated, takes plain (or keyword-only) parameters, and its
  only ``return`` ends its body (inside ``with`` blocks is fine) and returns what it built; its
  body makes a placeholder (or reads variable collections and makes no variable: a DQN's ``get_copy_var_ops``,
  whose scopes are the call's literals in place; or variables, where the module saves every variable with a
  ``tf.train.Saver()``: the saver rule names them by TF1's names, which it knows for variables
  made in the scope it sees; or a part of a queue pipeline, a reader or batcher, which queue-pipelines
  converts where the whole pipeline stands in one block) and opens no session (a function that runs its own graph is a
  program of its own, converted where it stands);
- the module names it exactly once besides its ``def``: the call, as a statement or the value
  of one assignment at the top level of the module, of a module-level function, or of a main
  guard; every parameter is bound (defaults filled in);
- the names the body reads from the module are not bound in the calling function.

A returned dict literal of locals keyed by strings, bound to a name that is only ever read as
``name['key']``, is taken apart: each ``name['key']`` becomes the local itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis.build_methods import BuildCall, inlinable, tail_return
from tf_migrate.analysis.main_guard import is_main_guard
from tf_migrate.analysis.statement_facts import call_statement
from tf_migrate.analysis.symbols import all_calls, reads, writes
from tf_migrate.cst.arguments import bind_with_defaults
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit


@dataclass
class BuildFunctionCall:
    """The one call of a graph-building function that can run in place."""

    site: BuildCall
    caller: Optional[cst.CSTNode]  # the module-level function or main guard the call is in (None: module code)
    unpacked: Dict[str, str]  # a returned dict taken apart: key -> the returned local ({} when it is not)


def build_function_calls(module: cst.Module, names: TFNames) -> List[BuildFunctionCall]:
    saves_all = _saves_every_variable(module, names)
    functions = {s.name.value: s for s in module.body
                 if isinstance(s, cst.FunctionDef) and _eligible(s, names, saves_all)}
    runners = {s.name.value: s for s in module.body
               if isinstance(s, cst.FunctionDef) and s.name.value not in functions and _runs_given_graph(s, names)}
    if not functions and not runners:
        return []
    mentions = _name_mentions(module, set(functions) | set(runners))
    found = []
    for caller, statements in _blocks(module):
        graph_values = _graph_values(statements, names, set(functions))
        for statement in statements:
            pair = call_statement(statement)
            if pair is None:
                continue
            target, call = pair
            name = call.func.value if isinstance(call.func, cst.Name) else None
            function = functions.get(name)
            if function is None and name in runners and any(reads(a.value) & graph_values for a in call.args):
                function = runners[name]  # a session run on the caller's graph: one scope once in place
            if function is None or mentions.get(function.name.value) != 2 or function is caller:
                continue
            site = _site(statement, target, call, function)
            if site is None or (caller is not None and _free_reads(function) & set(writes(caller))):
                continue
            found.append(BuildFunctionCall(site, caller, _unpackable(site, module, caller)))
    return found


def _eligible(function: cst.FunctionDef, names: TFNames, saves_all: bool) -> bool:
    params = function.params
    bare_star = isinstance(params.star_arg, cst.ParamStar)  # (keyword-only parameters follow: bound by keyword)
    if (function.decorators or function.asynchronous or isinstance(params.star_arg, cst.Param)
            or (bare_star and not params.kwonly_params) or params.star_kwarg is not None or params.posonly_params):
        return False
    qualnames = {names.call_name(c) for c in all_calls(function.body)}
    builds = (qualnames & api.PLACEHOLDERS or qualnames & api.QUEUE_PIPELINE_PARTS
              or (saves_all and qualnames & api.VARIABLE_CONSTRUCTORS)
              or (qualnames & api.VARIABLE_COLLECTIONS and not qualnames & api.VARIABLE_CONSTRUCTORS))
    if not builds or qualnames & api.SESSIONS:
        return False  # a program of its own (it runs its graph) is converted where it stands
    returned = tail_return(list(function.body.body))
    return returned is not None and returned.value is not None and inlinable(function)


def _runs_given_graph(function: cst.FunctionDef, names: TFNames) -> bool:
    """A function that opens a session to run what it was given (``def generate_batches(data, labels): with
    tf.Session() as sess: ... sess.run([data, labels])``): the second half of a program whose graph its caller
    builds. It must run the same in place (plain parameters, no early return), and build no placeholder (a
    program of its own is converted where it stands)."""
    params = function.params
    if (function.decorators or function.asynchronous or isinstance(params.star_arg, (cst.Param, cst.ParamStar))
            or params.kwonly_params or params.star_kwarg is not None or params.posonly_params or not params.params):
        return False
    qualnames = {names.call_name(c) for c in all_calls(function.body)}
    return bool(qualnames & api.SESSIONS) and not qualnames & api.PLACEHOLDERS and inlinable(function)


def _graph_values(statements, names: TFNames, builders: Set[str]) -> Set[str]:
    """Names the statements bind to what a TensorFlow call made, or to what a graph-building function returned."""
    found: Set[str] = set()
    for statement in statements:
        pair = call_statement(statement) if isinstance(statement, cst.SimpleStatementLine) else None
        line = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            else None
        if isinstance(line, cst.Assign) and any((names.call_name(c) or "").startswith("tf.")
                                                for c in all_calls(line.value)):
            found |= set(writes(line))
        elif pair is not None and pair[0] is not None and isinstance(pair[1].func, cst.Name) \
                and pair[1].func.value in builders:
            found |= set(writes(statement))
    return found


def _saves_every_variable(module: cst.Module, names: TFNames) -> bool:
    """Whether the module builds a ``tf.train.Saver()`` of every variable: it saves them under their TF1
    names, which the saver rule can write only for variables made where it sees them (not in a helper)."""
    return any(names.call_name(call) in api.SAVERS and not call.args for call in all_calls(module))


def _blocks(module: cst.Module):
    """(caller, its statements run once): the top-level statements of the module, of each module-level function
    and of each main guard, and those of ``with`` blocks among them (``with tf.Graph().as_default():``)."""
    yield None, _run_once(module.body)
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) or is_main_guard(statement):
            yield statement, _run_once(statement.body.body)


def _run_once(statements) -> list:
    found = []
    for statement in statements:
        found.append(statement)
        if isinstance(statement, cst.With):
            found.extend(_run_once(statement.body.body))
    return found


def _name_mentions(module: cst.Module, wanted: Set[str]) -> Dict[str, int]:
    counts: Dict[str, int] = {}

    class _Count(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value in wanted:
                counts[node.value] = counts.get(node.value, 0) + 1

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)  # (`tf.train.X` does not name a function `train`)
            return False

    visit(module, _Count())
    return counts


def _site(statement, target, call: cst.Call, function: cst.FunctionDef) -> Optional[BuildCall]:
    positional = [arg for arg in call.args if arg.keyword is None]
    if len(positional) > len(function.params.params):
        return None  # (more than the positional parameters take: Python refuses the call)
    bound = bind_with_defaults(call, [*function.params.params, *function.params.kwonly_params])
    if bound is None:
        return None
    returned = tail_return(list(function.body.body))
    if target is not None and (returned is None or returned.value is None):
        return None
    if target is not None and not _simple_target(target.target):
        return None
    return BuildCall(statement, target.target if target is not None else None, function, bound)


def _simple_target(target) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and _simple_target(e.value) for e in target.elements)
    return isinstance(target, cst.Name)


def _free_reads(function: cst.FunctionDef) -> Set[str]:
    """The names the body reads but does not bind: the module's (or builtins)."""
    bound = set(writes(function.body)) | {p.name.value for p in function.params.params}
    return {key.split(".")[0] for key in reads(function.body)} - bound


def _unpackable(site: BuildCall, module: cst.Module, caller: Optional[cst.CSTNode]) -> Dict[str, str]:
    """key -> returned local, when the call returns a dict literal of distinct locals keyed by strings, bound to
    a name that the rest of the program only reads as ``name['key']`` ({} otherwise)."""
    returned = tail_return(list(site.method.body.body))
    value = returned.value if returned is not None else None
    if not (isinstance(site.target, cst.Name) and isinstance(value, cst.Dict)):
        return {}
    unpacked: Dict[str, str] = {}
    for element in value.elements:
        if not (isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)
                and isinstance(element.value, cst.Name)):
            return {}
        unpacked[element.key.evaluated_value] = element.value.value
    if len(set(unpacked.values())) != len(unpacked):
        return {}
    name = site.target.value
    scope = module if caller is None or is_main_guard(caller) else caller
    if scope is module and any(name in writes(s.body) for s in module.body if isinstance(s, cst.FunctionDef)):
        return {}  # a function's own `name` is another value
    if not _only_subscripted(scope, name, set(unpacked), site.statement):
        return {}
    return unpacked


def _only_subscripted(scope: cst.CSTNode, name: str, keys: Set[str], binding: cst.CSTNode) -> bool:
    """Whether every mention of ``name`` in ``scope`` but the binding statement reads ``name['key']``."""
    class _Uses(cst.CSTVisitor):
        def __init__(self) -> None:
            self.bad = self.subscripts = self.names = 0
            self.targets: Set[int] = set()

        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
            return node is not binding

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self.targets.add(id(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self.targets.add(id(node.target))

        def visit_Subscript(self, node: cst.Subscript) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == name:
                index = node.slice[0].slice if len(node.slice) == 1 else None
                key = index.value if isinstance(index, cst.Index) else None
                if (id(node) in self.targets or not isinstance(key, cst.SimpleString)
                        or key.evaluated_value not in keys):
                    self.bad += 1
                else:
                    self.subscripts += 1

        def visit_Name(self, node: cst.Name) -> None:
            self.names += node.value == name

    uses = _Uses()
    visit(scope, uses)
    return not uses.bad and uses.names == uses.subscripts
