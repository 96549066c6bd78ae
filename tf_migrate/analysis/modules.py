"""User ``tf.Module`` subclasses whose variables are all made in ``__init__`` (or in ``build``, at the first call).

An instance of such a class owns its variables from its construction, as a
Keras layer that was built: the program model gives it the ``layer`` kind,
built. Its variables are listed one by one (``net.w, net.b``) wherever TF1
listed variables (``tf.trainable_variables()``, ``minimize`` without
``var_list``), because ``tf.Module.trainable_variables`` orders them by
attribute name and TF1 by creation, which gradients lists and optimizer slots
follow.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.symbols import all_calls, callee_name, writes
from tf_migrate.analysis.variable_holders import is_variable_holder
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames

# (attribute, trainable, loop) in creation order; loop: 0 for ``self.w = ...``, else the number of the
# ``for`` loop of ``__init__`` that appends it to the list ``self.w`` (its variables interleave per iteration),
# or CELL for a Keras rnn cell (``self.cell = tf.keras.layers.LSTMCell(...)``: its variables, made at its first call),
# or OPTIONAL for one made in an ``if`` without ``else`` (``if use_bias: self.b = tf.Variable(...)``): an object has it
# when its ``__init__`` took the branch, and the attribute is bound nowhere else.
Members = Tuple[Tuple[str, bool, int], ...]
CELL = -1
OPTIONAL = -2
# A Keras layer built where it was made (split_build_loops builds each one a loop makes): its variables are its own
# ``trainable_variables`` / ``variables`` (Keras lists them in creation order), whatever its class.
KERAS = -3
KERAS_LAYER: Members = (("variables", True, KERAS),)
# A list of Keras layers a loop of ``__init__`` appends to (``self.dense.append(tf.keras.layers.Dense(h))``, a layer
# helper's hidden layers): each layer's variables, made at its first call, layer by layer.
CELL_LIST = -4


def keras_variables(key: str, trainable_only: bool) -> str:
    """The variables of the Keras layer ``key`` as a starred list item (``weights``: ``variables`` would hold a
    Dropout's seed state, which TF1 had not)."""
    return f"*{key}.{'trainable_variables' if trainable_only else 'weights'}"


def _creates_variables(call: cst.Call, names: TFNames, variable_functions: Set[str]) -> bool:
    qualname = names.call_name(call)
    return qualname in api.VARIABLE_CONSTRUCTORS or api.is_keras_layer_with_variables(qualname) or (
        callee_name(call) in variable_functions)


def _member(line: cst.BaseStatement, names: TFNames, variable_functions: Set[str]) -> Optional[Tuple[str, bool]]:
    """``self.w = tf.Variable(...)`` (or ``= helper(...)`` that returns a variable): (``w``, trainable)."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)):
        return None
    assign = line.body[0]
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self"
            and isinstance(assign.value, cst.Call) and _creates_variables(assign.value, names, variable_functions)):
        return None
    trainable = argument(assign.value, "trainable")
    return target.attr.value, not (isinstance(trainable, cst.Name) and trainable.value == "False")


def _appended(line: cst.BaseStatement, names: TFNames, variable_functions: Set[str]) -> Optional[Tuple[str, bool]]:
    """``self.w.append(tf.Variable(...))`` (or of a helper that returns a variable): (``w``, trainable)."""
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)):
        return None
    call = line.body[0].value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append"
            and len(call.args) == 1 and isinstance(call.args[0].value, cst.Call)):
        return None
    owner = call.func.value
    made = call.args[0].value
    if not (isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self"
            and _creates_variables(made, names, variable_functions)):
        return None
    trainable = argument(made, "trainable")
    return owner.attr.value, not (isinstance(trainable, cst.Name) and trainable.value == "False")


def _appended_layer(line: cst.BaseStatement, names: TFNames) -> bool:
    """Whether the line appends a Keras layer with variables (made at its first call) to a list."""
    call = line.body[0].value if isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Expr) \
        else None
    made = call.args[0].value if isinstance(call, cst.Call) and call.args else None
    return isinstance(made, cst.Call) and api.is_keras_layer_with_variables(names.call_name(made))


def module_members(cls: cst.ClassDef, names: TFNames, variable_functions: Set[str]) -> Optional[Members]:
    """The variables of a ``tf.Module`` subclass, when ``__init__`` makes every one of them at its top level
    (``self.w = ...``) or at the top of a loop at its top level (``self.w.append(...)``), directly or through a
    function of the module or of ``__init__`` (``with`` blocks count as the level they stand in)."""
    if not any(names.qualname(base.value) == "tf.Module" for base in cls.bases) and not is_variable_holder(cls, names):
        return None
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None:
        return None
    build = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "build"), None)
    makers_of = [init] + ([build] if build is not None else [])  # build: at the first call (rules._module_split)
    makers = set(variable_functions)
    inner_defs = [line for method in makers_of for line in method.body.body if isinstance(line, cst.FunctionDef)]
    for inner in inner_defs:
        if any(_creates_variables(c, names, makers) for c in all_calls(inner.body)):
            makers.add(inner.name.value)
    members: List[Tuple[str, bool, int]] = []
    mixed: List[cst.For] = []
    loops = 0

    def scan(lines) -> None:  # `with` blocks (name scopes) run their body in place
        nonlocal loops
        for line in lines:
            member = _member(line, names, makers)
            if member is not None:
                members.append((*member, 0))
            elif isinstance(line, cst.With):
                scan(line.body.body)
            elif isinstance(line, cst.If) and line.orelse is None and isinstance(line.body, cst.IndentedBlock):
                members.extend((*m, OPTIONAL) for m in (_member(inner, names, makers) for inner in line.body.body)
                               if m)
            elif isinstance(line, cst.For):
                loops += 1
                appended = [(m, _appended_layer(inner, names)) for inner in line.body.body
                            if (m := _appended(inner, names, makers))]
                layers = [m for m, layer in appended if layer]
                if layers and len(layers) != len(appended):
                    mixed.append(line)  # (a list of layers and one of variables: TF1 interleaved them)
                members.extend((*m, CELL_LIST if layer else loops) for m, layer in appended)

    for method in makers_of:
        scan(method.body.body)
    if mixed:
        return None
    members = [(attr, trainable, CELL if _is_cell(init, attr, names) else loop) for attr, trainable, loop in members]
    outside_inner = [m for m in cls.body.body if m not in makers_of] + [
        line for method in makers_of for line in method.body.body if not isinstance(line, cst.FunctionDef)]
    made = [c for part in outside_inner for c in all_calls(part) if _creates_variables(c, names, makers)]
    bound = [key for method in cls.body.body if isinstance(method, cst.FunctionDef)
             for key in writes(method.body) if key.startswith("self.")]
    if any(loop == OPTIONAL and bound.count(f"self.{attr}") != 1 for attr, _, loop in members):
        return None  # (bound again elsewhere: whether an object has it is not known from the attribute)
    return tuple(members) if members and len(made) == len(members) else None


def variable_makers(module: cst.Module, names: TFNames) -> Set[str]:
    """The module's functions that make variables, themselves or through others of its functions."""
    makers: Set[str] = set()
    functions = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    while True:
        more = {f.name.value for f in functions if f.name.value not in makers
                and any(_creates_variables(call, names, makers) for call in all_calls(f.body))}
        if not more:
            return makers
        makers |= more


def variable_holders(module: cst.Module, names: TFNames) -> Dict[str, Members]:
    """The module's plain classes whose objects hold variables (analysis/variable_holders), with those variables."""
    makers = variable_makers(module, names)
    found = {}
    for statement in module.body:
        if isinstance(statement, cst.ClassDef):
            members = module_members(statement, names, makers) if is_variable_holder(statement, names) else None
            if members is not None:
                found[statement.name.value] = members
    return found


def _is_cell(init: cst.FunctionDef, attr: str, names: TFNames) -> bool:
    """Whether ``__init__`` binds ``self.attr`` to a Keras rnn cell."""
    for line in init.body.body:
        if isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Assign):
            assign = line.body[0]
            target = assign.targets[0].target
            if isinstance(target, cst.Attribute) and target.attr.value == attr and isinstance(assign.value, cst.Call):
                return api.is_keras_layer_with_variables(names.call_name(assign.value))
    return False


def instance_members(call: cst.Call, scope: "pm.Scope", names: TFNames) -> Optional[Members]:
    """The variables of the object ``call`` builds, when it is such a module of this file, or the class of a
    helper of another module of the tree (``rules/_tree_helpers``: its variables are known from its split)."""
    if not isinstance(call.func, cst.Name):  # ``model.Inference()``: a helper's class of a module imported whole
        return names.tree_helpers.classes.get(callee_name(call) or "")
    if call.func.value not in scope.class_defs:  # (a class's __init__ reads the module's classes too)
        return names.tree_helpers.classes.get(call.func.value) or (
            names.variable_holders.get(call.func.value) if scope.is_class else None)
    return module_members(scope.class_defs[call.func.value], names, scope.variable_functions)


def member_list(key: str, symbol: "pm.Symbol", trainable_only: bool) -> List[str]:
    """``net.w``, ``net.b``...: the instance's variables as code, in creation order (``*net.w`` for a list made in
    a loop; the lists one loop makes together, interleaved as the loop made them)."""
    out: List[str] = []
    chosen = [(attr, loop) for attr, trainable, loop in symbol.members if trainable or not trainable_only]
    index = 0
    while index < len(chosen):
        attr, loop = chosen[index]
        if loop == KERAS:
            out.append(keras_variables(key, trainable_only))
            index += 1
            continue
        if loop == CELL:  # made at the cell's first call: listed where the list is read
            out.append(f"*{key}.{attr}.{'trainable_variables' if trainable_only else 'variables'}")
            index += 1
            continue
        if loop == CELL_LIST:  # layers made at their first calls, each listing its own in creation order
            which = "trainable_variables" if trainable_only else "variables"
            out.append(f"*(v for layer in {key}.{attr} for v in layer.{which})")
            index += 1
            continue
        if loop in (0, OPTIONAL):
            out.append(f"{key}.{attr}" if loop == 0 else f'*([{key}.{attr}] if hasattr({key}, "{attr}") else [])')
            index += 1
            continue
        group = [a for a, other in chosen[index:] if other == loop]
        index += len(group)
        if len(group) == 1:
            out.append(f"*{key}.{group[0]}")
        else:
            lists = ", ".join(f"{key}.{a}" for a in group)
            out.append(f"*(v for made in zip({lists}) for v in made)")
    return out
