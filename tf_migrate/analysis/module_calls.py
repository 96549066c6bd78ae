"""How a module's top-level code calls names (for the project index, with the stdlib ``ast``).

- how often it calls each name, a call in a loop, a comprehension or a variable-sharing scope counting
  twice (:func:`count_calls`: a class built once);
- the attributes it names once in all, in a call its top-level code makes once (:func:`attributes_called_once`:
  ``agent.run()``, a method that runs once), where attributes of values TensorFlow made (``sess.run``,
  ``self.train_step.run()``) are TensorFlow's and not the program's;
- the sessions it passes to the names it calls (:func:`session_arguments`: ``model.train(sess)``).
"""
from __future__ import annotations

import ast
from typing import Dict, Optional, Set


def module_sessions(tree: ast.Module) -> Set[str]:
    """Names the module binds once, at its top level, to a new session (``sess = tf.Session()``), and nowhere else."""
    made = {node.targets[0].id for node in tree.body
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call) and _called_name(node.value).endswith("Session")}
    if not made:
        return set()
    bound: Dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] = bound.get(node.id, 0) + 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update((name, 2) for name in node.names)
    return {name for name in made if bound.get(name) == 1}


def _made_by_tensorflow(tree: ast.Module, modules: Set[str]) -> Set[str]:
    """Names and ``self.`` attributes every binding of which, anywhere in the module, is a value TensorFlow made
    (``with tf.Session() as sess``, ``self.train_step = tf.train.AdamOptimizer(lr).minimize(loss)``): their
    attributes are TensorFlow's, not methods of the program's objects."""
    kinds: Dict[str, Set[bool]] = {}
    judged: Set[int] = set()
    for node in ast.walk(tree):
        target, value = None, None
        if isinstance(node, ast.withitem) and isinstance(node.optional_vars, (ast.Name, ast.Attribute)):
            target, value = node.optional_vars, node.context_expr
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], (ast.Name, ast.Attribute)):
            target, value = node.targets[0], node.value
        key = _receiver_key(target) if target is not None else None
        if key is not None:
            judged.add(id(target))
            kinds.setdefault(key, set()).add(isinstance(value, ast.Call) and _rooted_at(value.func, modules))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Store) and id(node) not in judged:
            key = _receiver_key(node)
            if key is not None:
                kinds.setdefault(key, set()).add(False)  # a loop target, an unpacking, an augmented assignment
        elif isinstance(node, ast.arg):
            kinds.setdefault(node.arg, set()).add(False)
    return {key for key, made in kinds.items() if made == {True}}


def _receiver_key(node: ast.AST) -> Optional[str]:
    """``sess`` for a name, ``self.train_step`` for an attribute of ``self``; else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def _rooted_at(func: ast.AST, modules: Set[str]) -> bool:
    """Whether a called expression starts at a TensorFlow module name (``tf.Session``, ``tf.train.X(...).minimize``)."""
    while isinstance(func, (ast.Attribute, ast.Call)):
        func = func.value if isinstance(func, ast.Attribute) else func.func
    return isinstance(func, ast.Name) and func.id in modules


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def session_arguments(tree: ast.AST, sessions: Set[str], found, top: bool = True) -> None:
    """ModuleInfo.session_arguments of ``tree``'s calls by name."""
    for child in ast.iter_child_nodes(tree):
        inside = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
            passed = {(arg.id, f"#{index}") for index, arg in enumerate(child.args)
                      if isinstance(arg, ast.Name) and arg.id in sessions}
            passed |= {(keyword.value.id, keyword.arg) for keyword in child.keywords
                       if keyword.arg and isinstance(keyword.value, ast.Name) and keyword.value.id in sessions}
            found.setdefault(child.func.id, set()).add(passed.pop() if top and len(passed) == 1 else None)
        session_arguments(child, sessions, found, inside)


_REPEATING = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
_SHARING = ("reuse", "custom_getter")  # keywords of a variable scope that shares or wraps variables made before


def count_calls(tree: ast.AST, counts: Dict[str, int], repeated: bool = False) -> None:
    """How often each name is called; a call that may run more than once (a loop, a comprehension) or in a
    ``with`` block whose variable scope shares variables (``reuse=``, ``custom_getter=``: what the class makes
    there is not what a first build made) counts as 2."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
            counts[child.func.id] = counts.get(child.func.id, 0) + (2 if repeated else 1)
        sharing = isinstance(child, (ast.With, ast.AsyncWith)) and any(
            isinstance(item.context_expr, ast.Call) and any(k.arg in _SHARING or k.arg is None
                                                            for k in item.context_expr.keywords)
            for item in child.items)
        count_calls(child, counts, repeated or sharing or isinstance(child, _REPEATING))


def attributes_called_once(tree: ast.Module, modules: Set[str]) -> Set[str]:
    """See ``ModuleInfo.called_once`` (``modules``: the names bound to TensorFlow modules, whose attributes, such as
    ``tf.train``, name no method)."""
    mentions: Dict[str, int] = {}
    made_by_tf = _made_by_tensorflow(tree, modules)  # (`sess.run`, `self.train_step.run()` name TF's methods)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id in modules) \
                and _receiver_key(node.value) not in made_by_tf:
            mentions[node.attr] = mentions.get(node.attr, 0) + 1
    once: Set[str] = set()
    pending = [node for node in tree.body if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                   ast.ClassDef))]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda) + _REPEATING):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and mentions.get(node.func.attr) == 1:
            once.add(node.func.attr)
        pending.extend(ast.iter_child_nodes(node))
    return once
