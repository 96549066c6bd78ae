"""What the program model knows about the things graph code calls, and what a run fetches.

A call the analysis cannot see into (a function passed in as a parameter, one imported from
another package, a method of an object of unknown type) may create variables, placeholders or
ops of its own. Moving such a call into a generated run function, as the rewrite does with graph
code, would run it at every step instead of once at build time. So when per-run values flow into
an unknown callable, or a run fetches or feeds a value the model does not know, the scope is
blocked and the file stays in compat mode, with the reason at the line.
"""
from __future__ import annotations

import builtins
from typing import Iterator, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.escapes import escaped_reads
from tf_migrate.analysis.expression_kinds import variable_members
from tf_migrate.analysis.statement_facts import returns_tensors, single
from tf_migrate.analysis.binding_times import changed_outside, changed_parameters, free_reads, global_writes
from tf_migrate.analysis.dangling_updates import dangling_update, optimizer_step_inside
from tf_migrate.analysis.symbols import all_calls, callee_name, reads, symbol_key, writes
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames, dotted_name

_BUILTINS = frozenset(dir(builtins))
# Kinds of values whose methods the model knows (tensor methods, layer calls, optimizer methods...).
_KNOWN_RECEIVERS = {pm.PLACEHOLDER, pm.VARIABLE, pm.VARIABLES, pm.TENSOR, pm.TENSORS, pm.GRADS_AND_VARS, pm.OP,
                    pm.INIT, pm.OPTIMIZER, pm.EAGER, pm.ITERATOR, pm.SAVER, pm.LAYER, pm.STRUCT, pm.AVERAGER,
                    pm.METRIC, pm.QUEUE}
# Methods of Python lists, dicts and sets: they hold what they are given.
_CONTAINER_METHODS = {"append", "extend", "insert", "update", "add", "setdefault", "pop", "get", "items", "keys",
                      "values", "index", "count", "copy"}
# Kinds a fetch may name: values a run can compute or read.
_CALLABLE_VALUES = (pm.LAYER, pm.METRIC)  # values whose calls the analysis knows
_FETCHABLE = _KNOWN_RECEIVERS - {pm.OPTIMIZER, pm.ITERATOR, pm.SAVER, pm.LAYER, pm.AVERAGER, pm.METRIC, pm.QUEUE}


def unknown_callee(call: cst.Call, scope: "pm.Scope", names: TFNames) -> Optional[str]:
    """Why the analysis cannot see into what ``call`` calls (None: it can)."""
    if names.call_name(call) is not None:
        return None  # TensorFlow's API
    func = call.func
    if isinstance(func, cst.Name):
        name = func.value
        if name in scope.local_callables:
            return None
        module = names.aliases.get(name)
        if module is not None:
            return None if module.split(".")[0] in api.HOST_MODULES else f"`{name}` is imported from `{module}`"
        if scope.kind(name) in (pm.LAYER, pm.METRIC) or (name in _BUILTINS and name not in scope.symbols):
            return None
        if name in scope.params:
            return f"`{name}` is a parameter: a callable passed in"
        return f"`{name}` is not a function defined in this file"
    if isinstance(func, cst.Attribute):
        if callee_name(call) in scope.local_callables and callee_name(call) in names.imported:
            return None  # ``model.f(x)``: a function of a module of the tree imported whole, summarized
        receiver = func.value
        key = symbol_key(receiver)
        if key == "self":
            bound = f"self.{func.attr.value}"
            if bound in scope.symbols and scope.kind(bound) not in _CALLABLE_VALUES \
                    and bound not in scope.local_callables:
                return f"`{bound}` is a value __init__ binds, not a method of the class"
            return None  # the class's own methods: the class analysis checks those that build graphs
        if key is not None and (scope.kind(key) in _KNOWN_RECEIVERS
                                or (key in scope.symbols and func.attr.value in _CONTAINER_METHODS)):
            return None
        if isinstance(receiver, cst.Subscript) and scope.kind(symbol_key(receiver.value) or "") in _KNOWN_RECEIVERS:
            return None  # weights['h1'].assign(...): a method of an item of a container of graph values it knows
        if isinstance(receiver, cst.Attribute) and receiver.attr.value in ("shape", "dtype") \
                and scope.kind(symbol_key(receiver.value) or "") in _KNOWN_RECEIVERS:
            return None  # x.shape.as_list(), x.dtype.is_floating: TensorShape's and DType's own methods
        dotted = dotted_name(receiver)
        if dotted is not None:
            module = names.aliases.get(dotted.split(".")[0])
            if module is not None:
                top = module.split(".")[0]
                return None if top in api.HOST_MODULES else f"`{dotted}.{func.attr.value}` comes from `{module}`"
        if isinstance(receiver, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.List,
                                 cst.Tuple, cst.Dict)):
            return None  # "{}".format(...), [..].index(...)
        if isinstance(receiver, cst.Call) and unknown_callee(receiver, scope, names) is None:
            return None  # tf.shape(x).numpy-style chains on a known result
        return f"`{code(receiver)}` is an object the analysis does not know"
    if isinstance(func, cst.Lambda):
        return None
    return f"`{code(func)}` is computed at run time"


def per_run_inputs(call: cst.Call, scope: "pm.Scope") -> Optional[str]:
    """The first per-run value (placeholder or graph tensor) ``call`` is given, if any."""
    parts = [arg.value for arg in call.args]
    if isinstance(call.func, cst.Attribute):
        parts.append(call.func.value)
    for part in parts:
        for key in sorted(reads(part)):
            if scope.deferred(key):
                return key
    return None


def fetch_leaves(fetch: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The values a ``sess.run`` fetch structure names (lists, tuples, dicts, nested)."""
    if isinstance(fetch, (cst.List, cst.Tuple)):
        for element in fetch.elements:
            yield from fetch_leaves(element.value)
    elif isinstance(fetch, cst.Dict):
        for element in fetch.elements:
            if isinstance(element, cst.DictElement):
                yield from fetch_leaves(element.value)
            else:
                yield element.value
    else:
        yield fetch


def is_container_type(value: Optional[cst.BaseExpression], names: TFNames) -> bool:
    """``collections.namedtuple("P", [...])``: a class whose instances only hold what they are given."""
    if not isinstance(value, cst.Call):
        return False
    dotted = dotted_name(value.func) or ""
    head, _, rest = dotted.partition(".")
    full = names.aliases.get(head, head) + ("." + rest if rest else "")
    return full in ("collections.namedtuple", "typing.NamedTuple")


def kept_members(scope: "pm.Scope", names: TFNames):
    """class name -> the members of its objects that stay attributes of the converted class (its variables); none
    known for another module's class (its runs ask it, analysis/imported_runs)."""
    return lambda owner: variable_members(scope.class_defs[owner], names) if owner in scope.class_defs else frozenset()


def _made_by(scope: "pm.Scope", key: str) -> Optional[cst.BaseExpression]:
    """The value the statement binding ``key`` (last, alone) assigns it (None: not such a statement)."""
    symbol = scope.symbols.get(key)
    if symbol is None or not 0 <= symbol.index < len(scope.statements):
        return None
    target, value = single(scope.statements[symbol.index].node)
    return value if target is not None and symbol_key(target) == key else None


def unknown_fetch(leaf: cst.BaseExpression, scope: "pm.Scope", kind_of, names: TFNames) -> Optional[str]:
    """Why the model does not know what the fetch ``leaf`` is (None: it does)."""
    if isinstance(leaf, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return None  # fetch by name: blocked with its own reason
    if isinstance(leaf, cst.Attribute) and isinstance(leaf.value, cst.Name) and not _bound_member(leaf, scope):
        owner = scope.instances.get(leaf.value.value)
        if leaf.value.value in scope.object_graphs:
            return (f"`{code(leaf)}` is a member of a `{owner}` that only a run of the object's own members runs (an "
                    "op, or a value its class has no method for)")
        if owner is not None and owner in scope.class_defs and scope.kind(leaf.value.value) is not None:
            if leaf.attr.value in variable_members(scope.class_defs[owner], names):
                return None
            return f"`{code(leaf)}` is a per-run member of a `{owner}`, local to its generated methods"
    key = symbol_key(leaf)
    made_by = _made_by(scope, key) if key is not None else leaf
    if isinstance(made_by, cst.Call) and names.call_name(made_by) in api.SPARSE_RESULTS:
        return (f"`{code(leaf)}` is a sparse tensor ({names.call_name(made_by)}): TF1 gave a SparseTensorValue of "
                "numpy arrays, which the conversion has no form for")
    if key is not None:
        kind = scope.kind(key)
        if kind in _FETCHABLE:
            return None
        if kind is None:
            return f"`{key}` is not a graph value the analysis knows here"
        return f"`{key}` holds a {kind} value, not a graph value the analysis knows"
    if kind_of(leaf) is not None:
        return None
    if isinstance(leaf, cst.Call):  # a namedtuple or other container built around fetches
        problems = [unknown_fetch(inner, scope, kind_of, names) for arg in leaf.args
                    for inner in fetch_leaves(arg.value)]
        return next((p for p in problems if p), None) if leaf.args else f"`{code(leaf)}` is not a graph value"
    return f"`{code(leaf)}` is not a graph value the analysis knows"


def _bound_member(leaf: cst.Attribute, scope: "pm.Scope") -> bool:
    """``model.loss``, a member the scope knows as its own value (analysis/object_members)."""
    symbol = scope.symbols.get(f"{leaf.value.value}.{leaf.attr.value}")
    return symbol is not None and leaf.value.value in scope.object_graphs


def unknown_feed_key(key_expr: cst.BaseExpression, scope: "pm.Scope") -> Optional[str]:
    """Why a feed dict key is not a value the model knows (None: it is)."""
    key = symbol_key(key_expr)
    if key is None:
        return f"`{code(key_expr)}` is not a placeholder or tensor the analysis knows"
    symbol = scope.symbols.get(key)
    if symbol is not None and 0 <= symbol.index < len(scope.statements):
        _, value = single(scope.statements[symbol.index].node)
        if symbol_key(value) is not None:  # alias = c: feeding alias replaces c's tensor for the run in TF1
            return f"`{key}` is a second name for `{symbol_key(value)}`; a feed of it replaces that tensor"
    kind = scope.kind(key)
    if kind in (pm.PLACEHOLDER, pm.TENSOR, pm.EAGER, pm.STRUCT, pm.VARIABLE):
        return None
    return f"`{key}` is not a placeholder or tensor the analysis knows here"


def record_callables(st: "pm.Statement", targets, value, scope: "pm.Scope", names: TFNames) -> None:
    """What a statement binds that calls may name: lambdas, namedtuple types, instances of local classes."""
    if isinstance(value, cst.Lambda) or is_container_type(value, names) or (
            isinstance(value, cst.Name) and value.value in scope.params and value.value in scope.local_callables):
        scope.local_callables.update(st.defines)  # (self.f = f, a parameter known to hold a TF function)
    if isinstance(value, cst.Lambda) and len(st.defines) == 1:
        scope.function_reads.setdefault(st.defines[0], set()).update(free_reads(value))
    for key in st.defines:
        scope.instances.pop(key, None)
    if isinstance(value, cst.Call) and targets is not None and len(st.defines) == 1:
        if isinstance(value.func, cst.Name) and value.func.value in scope.class_defs:
            scope.instances[st.defines[0]] = value.func.value  # an object of a local class
        elif dotted_name(value.func) in names.tree_helpers.graph_classes and "." not in st.defines[0]:
            scope.instances[st.defines[0]] = dotted_name(value.func)  # ... of another module's (imported_runs)


def check_knowledge(st: "pm.Statement", calls, scope: "pm.Scope", names: TFNames, kind_of, block) -> None:
    """Block where per-run values go into a callable the analysis cannot see into, or a run names unknown values."""
    sites = {id(site.call) for site in st.run_sites}
    for call in calls:
        if id(call) in sites:
            continue
        name = callee_name(call)
        if name in names.imported and name in scope.opaque_functions:  # a helper of the tree bound to TF1's graph
            block(call, f"`{name}` {scope.opaque_functions[name]}: what it builds here (variables TF1 would list "
                        "and train, ops, graph state) is not known")
            continue
        key = next(iter(sorted(escaped_reads(call, st.run_sites, scope))), None)
        if key is None:
            continue
        why = unknown_callee(call, scope, names)
        if isinstance(call.func, cst.Name) and call.func.value in scope.variable_classes:
            why = f"`{call.func.value}` creates variables in its methods, built on per-run values"
        if why is None and callee_name(call) in scope.opaque_functions:
            why = f"`{callee_name(call)}` {scope.opaque_functions[callee_name(call)]}"
        if why is not None:
            block(call, f"graph value `{key}` goes into a call the analysis cannot see into ({why}); "
                        "it may build variables or ops of its own")
    for site in st.run_sites:
        if site.instance is not None:
            continue  # planned in its class's scope
        for verb, why in unknown_run_values(site, scope, kind_of, names):
            block(site.call, f"sess.run {verb} a value the analysis does not know: {why}")


def unknown_run_values(site, scope: "pm.Scope", kind_of, names: TFNames, literals=None) -> List[Tuple[str, str]]:
    """("fetches" or "feeds", why) for each fetch and feed key of the run the model does not know (``literals``:
    the feed's dict literals, by default the run's own)."""
    found = [("fetches", why) for why in (unknown_fetch(leaf, scope, kind_of, names) for leaf in fetch_leaves(
        site.fetch)) if why is not None]
    if literals is None:
        literals = [site.feed] if isinstance(site.feed, cst.Dict) else []
    for element in (element for literal in literals for element in literal.elements):
        why = unknown_feed_key(element.key, scope) if isinstance(element, cst.DictElement) else \
            "a feed dict unpacked into another"
        if why is not None:
            found.append(("feeds", why))
    return found


def summarize_definition(node, body_calls, scope: "pm.Scope", names: TFNames) -> None:
    """The function summary of a ``def`` or ``class``: callable here; creates variables (itself or through the
    functions and classes it calls, so helpers are summarized before their callers, as Python defines them);
    returns TF ops' results."""
    scope.local_callables.add(node.name.value)
    if isinstance(node, cst.FunctionDef):
        scope.function_reads.setdefault(node.name.value, set()).update(free_reads(node))
        for name in sorted(global_writes(node) | changed_outside(node)):
            scope.global_writers.setdefault(name, node.name.value)
    if isinstance(node, cst.ClassDef):
        scope.class_defs[node.name.value] = node
    creates_variables = makes_variables(body_calls, names, scope.variable_functions | scope.variable_classes)
    if isinstance(node, cst.FunctionDef) and creates_variables:
        scope.variable_functions.add(node.name.value)
    elif isinstance(node, cst.ClassDef) and creates_variables:
        scope.variable_classes.add(node.name.value)
    if isinstance(node, cst.FunctionDef):
        effect = next(filter(None, (python_effect(c, scope, names) for c in body_calls)), None)
        if effect is None and not creates_variables:
            effect = _outside_change(node)
        if effect is not None:
            scope.function_effects[node.name.value] = effect
        dropped = dangling_update(node, scope.function_updates)
        if dropped is not None:
            scope.function_updates[node.name.value] = dropped
        step = optimizer_step_inside(body_calls, scope.function_steps)
        if step is not None:
            scope.function_steps[node.name.value] = step
    if isinstance(node, cst.FunctionDef) and returns_tensors(node, names):
        scope.tensor_functions.add(node.name.value)
    elif isinstance(node, cst.FunctionDef) and not creates_variables and returns_tensors(node, names, structures=True):
        scope.structure_functions.add(node.name.value)
    opaque = next(filter(None, (_imported_callee(c, scope, names) for c in body_calls)), None)
    if opaque is not None:
        scope.opaque_functions[node.name.value] = opaque


def makes_variables(calls, names: TFNames, makers=frozenset()) -> bool:
    """Whether one of ``calls`` makes variables: a variable constructor, a Keras layer with weights, or one of
    ``makers`` (the scope's functions and classes that do)."""
    return any(names.call_name(c) in api.VARIABLE_CONSTRUCTORS or api.is_keras_layer_with_variables(names.call_name(c))
               or callee_name(c) in makers for c in calls)


def method_effects(cls: cst.ClassDef, names: TFNames) -> Tuple[Tuple[str, str], ...]:
    """(``self.m``, what it does) for the methods of ``cls`` that act in Python when called: print, draw Python or
    numpy random numbers, change the object (``self.trace.append(i)``) or what they do not own. Graph code of
    ``__init__`` calling one, or giving it to TF's control flow (``tf.while_loop(c, self.step, ...)``), did that
    once when TF1 built; a generated method's trace does it again. Methods that make variables are left to the
    rules that place them."""
    found = []
    empty = pm.Scope([], {}, set(), [], [], [])
    for method in cls.body.body:
        if not isinstance(method, cst.FunctionDef) or method.name.value == "__init__":
            continue
        calls = all_calls(method.body)
        if makes_variables(calls, names):
            continue
        effect = next(filter(None, (python_effect(c, empty, names) for c in calls)), None)
        changed = sorted({key for key in writes(method.body) if key.startswith("self.")})
        if effect is None and changed:
            effect = f"changes `{changed[0]}`"
        if effect is None:
            effect = _outside_change(method)
        if effect is not None:
            found.append((f"self.{method.name.value}", effect))
    return tuple(found)


def _outside_change(function: cst.FunctionDef) -> Optional[str]:
    """What ``function`` changes that it does not own (``trace.append(i)`` of a module list, ``global count``),
    which graph code calling it (a ``while_loop`` body, a ``cond`` branch, a helper) did once, when TF1 built it
    (a function computing it would do it at each trace). Functions that make variables are left to the rules
    that place their variables (their registries: ``weights[name] = w``)."""
    changed = sorted(global_writes(function) | changed_outside(function))
    if changed:
        return f"changes `{changed[0]}`, which it does not own"
    given = changed_parameters(function)
    return f"changes `{given[0]}`, an object it is given" if given else None


def _imported_callee(call: cst.Call, scope: "pm.Scope", names: TFNames) -> Optional[str]:
    """Why a call inside a function body goes where the analysis cannot see: into another module's
    code (``conv2d`` of ``libs.connections``), or into a local function that does."""
    if names.call_name(call) is not None:
        return None
    if callee_name(call) in scope.opaque_functions:
        return f"calls `{callee_name(call)}`, which {scope.opaque_functions[callee_name(call)]}"
    why = unknown_callee(call, scope, names) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
    if why is not None and (" is imported from " in why or " comes from " in why):
        return "calls " + why.replace(" is imported from ", ", imported from ").replace(" comes from ", ", from ")
    return None


# Python calls that act when they run (output, random state, files): what they do.
_EFFECT_CALLS = {"print": "prints", "open": "opens a file", "input": "reads input"}
_EFFECT_MODULES = {"numpy.random": "draws numpy random numbers", "random": "draws random numbers"}
# A generator of its own (`np.random.RandomState(0).randn(3)`): its draws change no shared state.
_GENERATORS = {"RandomState", "default_rng", "Generator", "SeedSequence", "PCG64", "MT19937", "Random"}


def python_effect(call: cst.Call, scope: "pm.Scope", names: TFNames) -> Optional[str]:
    """What ``call`` does in Python that TF1 graph code did once, when it was built (``print(...)``,
    ``np.random.randn(3)``, a function of the scope that does such things, or such a function given to TF's
    control flow to build its branches or body); None: nothing known."""
    dotted = dotted_name(call.func)
    if dotted is None:
        return None
    if (names.call_name(call) or "").rpartition(".")[2] in api.FUNCTION_TAKING_OPS:
        given = next((dotted_name(arg.value) for arg in call.args
                      if dotted_name(arg.value) in scope.function_effects), None)
        if given is not None:
            return f"gives `{dotted}` the function `{given}`, which {scope.function_effects[given]}"
    if dotted in scope.function_effects:
        return f"calls `{dotted}`, which {scope.function_effects[dotted]}"
    if dotted == "print" and any(arg.keyword is not None and arg.keyword.value == "file" for arg in call.args):
        return None  # a diagnostic to another stream (`file=sys.stderr`), not the program's output
    if dotted in _EFFECT_CALLS and dotted not in names.aliases and dotted not in scope.local_callables:
        return f"{_EFFECT_CALLS[dotted]} (`{dotted}(...)`)"
    head, _, rest = dotted.partition(".")
    full = names.aliases.get(head)
    if full is None or not rest:
        return None
    module, _, function = f"{full}.{rest}".rpartition(".")
    if module in _EFFECT_MODULES and function not in _GENERATORS:
        return f"{_EFFECT_MODULES[module]} (`{dotted}(...)`)"
    return None
