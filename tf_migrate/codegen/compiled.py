"""Compiled run functions: ``@tf.function`` with an input signature made from the fed placeholders.

TF1 built the graph once and ran it many times; the eager function that replaces a ``sess.run``
re-executes the same ops one by one from Python, 6-600x slower per step. Compiling it gives back
the graph. What a compiled function needs, and what it gets here:

* an ``input_signature`` from the placeholders: ``tf.placeholder(tf.float32, [None, 784])`` is
  ``tf.TensorSpec([None, 784], tf.float32)``. A new batch size does not retrace, and TF converts
  each argument to the spec's dtype as TF1 converted feeds (ints and float64 arrays to float32);
* tensors as results: the fetch structure is returned as tensors (``None`` for ops) and turned
  into numpy by :data:`TO_NUMPY` where the ``sess.run`` stood;
* no state created on a later trace: variables and optimizers stay where TF1 built them, and a
  single signature means a single trace, so Keras layers and optimizer slots are built once;
* a call as cheap as ``sess.run``: a run function with a full input signature is called through
  :data:`CALL_COMPILED`, which calls its one concrete function (see :func:`call_compiled_helper`).

A run stays eager (with the reason reported) where compiling would change what it does.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.slicing import RunPlan
from tf_migrate.analysis.callables import fetch_leaves
from tf_migrate.analysis.input_specs import fed_dtype, input_spec, is_flag, run_parameters
from tf_migrate.analysis.repetition import REPEATING, RepetitionDepth
from tf_migrate.analysis.symbols import symbol_key
from tf_migrate.cst.names import all_names, parameter_name
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import visit

COMPILED, EAGER_FUNCTIONS = "compiled", "eager"
FUNCTION_MODES = (COMPILED, EAGER_FUNCTIONS)
TO_NUMPY = "to_numpy"
CALL_COMPILED, COMPILED_TRACES = "call_compiled", "compiled_traces"


def to_numpy_helper(name: str = TO_NUMPY) -> str:
    """The one helper compiled output needs: what ``sess.run`` returned, from what the function returned.

    Plain recursion over the structures a fetch can have (lists, tuples, namedtuples, dicts), not
    ``tf.nest.map_structure``: that costs ~90 us a call on the benchmark machine, a fifth of a small
    training step.
    """
    return (f"\n\ndef {name}(fetched):\n"
            f"    \"\"\"The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run "
            f"gave them.\"\"\"\n"
            f"    if isinstance(fetched, dict):\n"
            f"        return type(fetched)((key, {name}(value)) for key, value in fetched.items())\n"
            f"    if isinstance(fetched, (list, tuple)):\n"
            f"        values = [{name}(value) for value in fetched]\n"
            f"        return type(fetched)(*values) if hasattr(fetched, \"_fields\") else type(fetched)(values)\n"
            f"    return None if fetched is None else fetched.numpy()\n")


def call_compiled_helper(tf: str, name: str = CALL_COMPILED, traces: str = COMPILED_TRACES) -> str:
    """The helper that calls a run function through the trace of its one concrete function.

    Calling a ``tf.function`` binds its arguments, converts them and looks its trace up in Python:
    ~0.25 ms a call on the benchmark machine, as long as a small training step. Calling its
    concrete function skips the lookup but still binds the arguments to the traced signature
    (~50 us). When no tape watches the call, ``ConcreteFunction`` runs ``inference_fn`` (the
    forward trace, ``tf.types.experimental.AtomicFunction``) on the flat tensors and the captured
    variables; the helper calls that directly (``call_preflattened``), which is what the concrete
    call would run: a run's fetches never had gradients (TF1 returned numpy), so no tape is ever
    owed one. Where a TensorFlow lacks that method, the concrete function is called. Feeds are
    converted with ``convert_to_tensor`` to the signature's dtypes, as the signature would convert
    them (and as TF1 converted feeds: float64 arrays and ints to float32), their shapes checked
    against the signature as ``sess.run`` checked feeds against the placeholders (``ValueError``),
    and passed in the order of the function's parameters. A feed the function takes no parameter for
    is a flag it was compiled for (``training = True`` in its body; the analysis saw that literal fed
    at every run of the site), and is left out. The first call is a plain call: where the trace
    creates variables (a Keras layer built on its first call) whose initializers depend on the
    inputs, ``tf.function`` falls back to initializing them in the graph, which
    ``get_concrete_function`` alone does not (``UnliftableError``). Traces are kept per
    ``tf.function`` (per object for methods) in a weak dictionary, so an object's trace goes when the
    object goes. Needs ``import inspect, weakref``.
    """
    return (f"\n\ndef {name}(function, /, **feeds):\n"
            f"    \"\"\"function(**feeds), run through the trace of its one concrete function.\"\"\"\n"
            f"    # A tf.function call binds and looks up its arguments in Python, as long as a small training step;\n"
            f"    # its trace, given tensors, runs without that.\n"
            f"    traced = {traces}.get(function)\n"
            f"    if traced is None:  # the first call traces it, and creates the state the trace makes\n"
            f"        specs = function.input_signature or ()\n"
            f"        names = list(inspect.signature(function.python_function).parameters)[-len(specs):] if specs else []\n"
            f"        fetched = function(**{{key: feeds[key] for key in names}})\n"
            f"        concrete = function.get_concrete_function()\n"
            f"        run_trace = getattr(getattr(concrete, \"inference_fn\", None), \"call_preflattened\", None)\n"
            f"        {traces}[function] = concrete, list(zip(names, specs)), run_trace\n"
            f"        return fetched\n"
            f"    concrete, parameters, run_trace = traced\n"
            f"    tensors = []\n"
            f"    for key, spec in parameters:\n"
            f"        tensor = {tf}.convert_to_tensor(feeds[key], spec.dtype)\n"
            f"        if not spec.is_compatible_with(tensor):\n"
            f"            raise ValueError(f\"Cannot feed value of shape {{tensor.shape}} for `{{key}}`, which has shape "
            f"{{spec.shape}}\")\n"
            f"        tensors.append(tensor)\n"
            f"    if run_trace is None:\n"
            f"        return concrete(*tensors)\n"
            f"    return run_trace(tensors + concrete.captured_inputs)  # what concrete(*tensors) runs when no tape watches\n"
            f"\n\n{traces} = weakref.WeakKeyDictionary()  # tf.function -> (its concrete function, its parameters, its trace)\n")


def calls_concretely(function: cst.FunctionDef, fed: List[str]) -> bool:
    """Whether calls of the generated ``function`` can go through :data:`CALL_COMPILED`: it is a
    ``tf.function`` with an input signature (or no parameters) and the call passes every parameter
    (a concrete function has no defaults: a ``placeholder_with_default`` left unfed keeps the plain call)."""
    params = [param.name.value for param in function.params.params if param.name.value != "self"]
    if not function.decorators or sorted(params) != sorted(fed):
        return False
    text = code(function.decorators[0].decorator)
    return "input_signature=" in text or not params


def signed(function: cst.FunctionDef) -> bool:
    """Whether the generated ``function`` is a ``tf.function`` with an input signature (TF converts its
    arguments, and traces it once)."""
    return bool(function.decorators) and "input_signature=" in code(function.decorators[0].decorator)


def fed_argument(value: cst.BaseExpression, symbol: Optional["pm.Symbol"], scope: "pm.Scope", names: TFNames,
                 tf: str) -> cst.BaseExpression:
    """The value a call of a compiled function without an input signature passes for a feed: converted to the
    placeholder's dtype where the call stands, as TF1's feed converted it (``np.asarray(value, dtype)``). A list
    of Python floats (a DQN's targets, ``y_batch.append(reward + gamma * q)``) passed as it is would be part of
    the trace's key: a new trace at every call, each as slow as building the graph again."""
    dtype = fed_dtype(symbol, scope, names, tf)
    if _literal(value):
        return value  # (`keep_prob=0.5`: one trace per literal the program writes, as many as its calls)
    if dtype is None or is_flag(symbol, names) or all_names(cst.parse_expression(dtype)) - {tf}:
        return value  # (a flag stays the Python bool its branches test; a dtype held by a name of the module may
        # not be readable where the call stands: in another module, answering its run)
    if "string" in dtype:
        return cst.parse_expression(f"{tf}.convert_to_tensor({code(value)}, {dtype})")
    return cst.parse_expression(f"{tf}.cast({code(value)}, {dtype})")


def _literal(value: cst.BaseExpression) -> bool:
    """A number, string or constant written at the call (``1``, ``-0.5``, ``"train"``, ``True``)."""
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    return isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)) or \
        isinstance(value, cst.Name) and value.value in ("True", "False", "None")


def runs_once(statement: cst.CSTNode, node_id: int) -> bool:
    """Whether the node of id ``node_id`` (a run), inside the module-level ``statement``, runs once: outside loops, functions,
    classes, lambdas and comprehensions (a script's or a notebook cell's one-off run).

    :data:`CALL_COMPILED` saves the per-call lookup of a ``tf.function`` from the second call on; its first
    call is the plain call. A run that runs once gains nothing from it, and reads better as a plain call."""
    if isinstance(statement, REPEATING):
        return False
    finder = _RepeatedAround(node_id)
    visit(statement, finder)
    return finder.once


class _RepeatedAround(RepetitionDepth):
    """Finds the node of id ``node_id`` and whether a loop, function, class, lambda or comprehension holds it."""

    def __init__(self, node_id: int) -> None:
        super().__init__()
        self.node_id, self.once = node_id, False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) == self.node_id:
            self.once = not self.depth
            return False
        return super().on_visit(node)


def iterator_parameters(plan: RunPlan, scope: "pm.Scope") -> List[str]:
    """The dataset iterators a compiled run function takes as arguments, in the order it reads them.

    A compiled function would capture the iterator bound when it was traced; programs bind a new one
    per epoch (``iterator = iter(dataset)``), so the call passes the one bound now. Every iterator of
    one dataset has the same type spec: one trace. The end of data still raises ``OutOfRangeError``
    out of the call, where the program catches it, and nothing after the failed ``get_next`` ran.
    """
    view = scope.at(plan.limit)  # the bindings the run site sees, whichever scope view is given
    keys: List[str] = []
    for st in plan.statements:
        keys.extend(key for key in sorted(st.reads) if view.kind(key) == pm.ITERATOR and key not in keys)
    return keys


def why_eager(plan: RunPlan, scope: "pm.Scope") -> Optional[str]:
    """Why this run's function stays eager (None: it can be compiled)."""
    if plan.open_feed:
        return "its feed dict is built at run time, so it has no input signature"
    underscored = [key for key, _ in plan.fed if parameter_name(key).startswith("_")]
    if underscored:  # TF renames such a parameter (`arg__inputs`), and the keyword call no longer binds
        return f"`{underscored[0]}` starts with an underscore, which tf.function rejects as a keyword argument"
    iterators = iterator_parameters(plan, scope)
    if iterators and (plan.fed or plan.unfed_placeholders):
        return "it advances a dataset iterator and is fed too: an iterator has no input-signature spec here"
    if any("." in key or key.startswith("_") for key in iterators):
        return f"it advances the dataset iterator `{iterators[0]}`, which is not a plain name it could take"
    for st in plan.statements:
        if st.kind == pm.PYTHON or st.role != pm.DEFER:
            return f"line {st.index} is Python, not graph code"
    for leaf in fetch_leaves(plan.site.fetch):
        key = symbol_key(leaf)
        if key is not None and scope.kind(key) in (pm.ITERATOR, pm.SAVER, pm.AVERAGER, pm.METRIC, pm.QUEUE, pm.PYTHON):
            return f"it fetches `{key}`, a Python value"
    return None


def signature(plan: RunPlan, scope: "pm.Scope", names: TFNames, tf: str
              ) -> Tuple[Optional[str], List[str], Dict[str, str]]:
    """(the ``input_signature`` list as code, or None where it cannot be written; the parameters left to Python;
    the flags the function is compiled for, name -> ``"True"`` / ``"False"``).

    A scalar bool placeholder (a ``training`` flag) stays a Python value: Keras layers branch on it in
    Python, which a symbolic tensor does not allow. Where every run of the site feeds it the same literal
    (``training: True`` in the training step), the function is compiled for that value: no parameter, and
    ``training = True`` at the top of its body, so it has a full signature and one trace, called through
    its concrete function. (A ``tf.function`` parameter with a default is a Literal TF binds at every call:
    its concrete function costs 0.9 ms a call against 0.26 ms without, measured on a 2-layer step.) A flag
    fed other values keeps the function without a signature, compiled once per flag value. Without a
    signature the function converts its arguments itself and TF traces it per input shape.
    """
    specs: List[str] = []
    python_params: List[str] = []
    specialized: Dict[str, str] = {}
    written = True
    for key, symbol in run_parameters(plan, scope, names):
        spec = input_spec(symbol, scope, names, tf)
        if is_flag(symbol, names) and key in plan.fed_bools:
            specialized[parameter_name(key)] = plan.fed_bools[key]
        elif is_flag(symbol, names):
            python_params.append(parameter_name(key))
        elif spec is None:
            written = False
        else:
            specs.append(spec)
    if python_params or not written:
        return None, python_params + list(specialized), {}
    return "[" + ", ".join(specs) + "]", [], specialized


def decorator(spec: Optional[str], tf: str) -> cst.Decorator:
    text = f"{tf}.function(input_signature={spec})" if spec not in (None, "[]") else f"{tf}.function"
    return cst.Decorator(cst.parse_expression(text))
