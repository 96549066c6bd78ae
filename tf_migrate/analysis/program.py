"""The program model: what each statement of a graph-building scope does.

A *scope* is a block of statements that builds a TF1 graph and/or runs it:
the module body, or the body of a function such as ``main()``. Each
statement gets a role:

* ``remove``  session, graph and initializer plumbing that eager code drops;
* ``keep``    plain Python, variables, optimizers and eager constants, left in place;
* ``defer``   graph ops: moved into the generated function of each run that needs them;
* ``run``     statements that run the graph: kept, their run sites rewritten.

Anything the rules cannot convert faithfully is recorded as a *blocker*
(node + reason); a scope with blockers is migrated in compat mode.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.flatten import FlatStatement
from tf_migrate.analysis.run_sites import RunSite

REMOVE, KEEP, DEFER, RUN = "remove", "keep", "defer", "run"

# Kinds of the values names hold.
PLACEHOLDER = "placeholder"
VARIABLE = "variable"
VARIABLES = "variables"  # a list/dict literal of variables
TENSOR = "tensor"
TENSORS = "tensors"  # list of tensors, e.g. tf.gradients' result
GRADS_AND_VARS = "grads_and_vars"
OP = "op"
INIT = "init"
OPTIMIZER = "optimizer"
SESSION = "session"
GRAPH = "graph"
EAGER = "eager"  # a tensor computed once, eagerly, where it was built
PYTHON = "python"
ITERATOR = "iterator"  # it = iter(dataset): built once, advanced by it.get_next() in each run that needs it
AVERAGER = "averager"  # a moving average (tf.train.ExponentialMovingAverage): built once, its apply() runs per run
QUEUE = "queue"  # a TF queue (tf.queue.FIFOQueue): built once, its enqueue and dequeue ops run per run
METRIC = "metric"  # a Keras metric standing for a TF1 streaming metric: built once, updated and read per run
SAVER = "saver"  # a checkpoint writer: built once, its save/restore are Python calls
LAYER = "layer"  # a Keras layer object: built once, owns variables created on its first call
STRUCT = "struct"  # a list/tuple/dict of per-run values, e.g. fetches = [loss, acc]

# Kinds whose values only exist inside a run: reading them elsewhere escapes.
DEFERRED_KINDS = {PLACEHOLDER, TENSOR, TENSORS, GRADS_AND_VARS, OP, STRUCT}


@dataclass
class Symbol:
    key: str
    kind: str
    index: int  # statement index where it was (last) bound
    call: Optional[cst.Call] = None  # the defining call, when there is one
    trainable: bool = True
    keras: bool = False  # optimizer already a Keras optimizer
    tf_name: str = ""  # the variable's TF1 name with its scopes ("actor/w"), for collection filters
    built: bool = False  # a layer whose variables exist from its construction (layer.build(...))
    dtype: Optional[str] = None  # "float32"..., where the program text settles it (analysis.dtypes)
    weightless: bool = False  # a Keras layer without variables (Dropout, Flatten, pooling)
    members: Tuple[Tuple[str, bool], ...] = ()  # a tf.Module's variables: (attribute, trainable), creation order
    # A placeholder or per-run member of an object of a graph class (``model.loss``): the object (object_members).
    member_of: str = ""
    mapping: bool = False  # VARIABLES held in a dict (``weights = {'h1': tf.Variable(...)}``): listed by its values
    # ... a dict filled item by item with dicts of them (``weights['recog'] = {'h1': tf.Variable(...)}``, the VAE's)
    nested: bool = False
    # ... a dict filled item by item with variables (``weights['W1'] = tf.Variable(...)`` after ``weights = {}``)
    filled: bool = False
    # An optimizer whose learning rate runs feed: (the expression, the variable its runs assign it to) (fed_rates).
    rate: Optional[Tuple[cst.BaseExpression, str]] = None
    choices: Tuple[cst.Call, ...] = ()  # an optimizer chosen by a branch: each branch's constructor (call is None)
    # A variable (or object holding some) appended to a list of variables that lists are made of (analysis/
    # covered_variables): the list. Variable lists name it through that list, as TF1 listed it, once.
    covered_by: str = ""


@dataclass
class Statement:
    index: int
    flat: FlatStatement
    role: str = KEEP
    kind: str = PYTHON
    defines: List[str] = field(default_factory=list)
    reads: Set[str] = field(default_factory=set)
    run_sites: List[RunSite] = field(default_factory=list)
    gradient: bool = False  # needs a tape (tf.gradients, minimize, compute_gradients)
    random: bool = False
    per_run_effect: bool = False  # calls an op with an effect outside the graph at each run (PER_RUN_EFFECT_OPS)
    python_effect: Optional[str] = None  # what it does in Python besides building ops (callables.python_effect)

    @property
    def node(self) -> cst.BaseStatement:
        return self.flat.node


@dataclass
class Scope:
    statements: List[Statement]
    symbols: Dict[str, Symbol]
    sessions: Set[str]
    withs: List[cst.With]
    blockers: List[Tuple[cst.CSTNode, str]]
    trainable_order: List[str]  # variable / container keys in creation order, each once (see add_trainable)
    # Expressions to swap wherever they appear (by node identity), e.g. collections -> explicit lists.
    replacements: Dict[int, cst.BaseExpression] = field(default_factory=dict)
    # Every variable / container key in creation order, non-trainable ones too (TF1's GLOBAL_VARIABLES order).
    creation_order: List[str] = field(default_factory=list)
    lazy_collections: Set[int] = field(default_factory=set)
    layer_scopes: Dict[str, str] = field(default_factory=dict)
    # Static shape/dtype reads of per-run tensors outside runs: node id -> (key, attribute, statement index).
    static_reads: Dict[int, Tuple[str, str, int]] = field(default_factory=dict)
    # Per-run tensors printed, or whose static shape/dtype is read, outside runs where a run needs feeds:
    # node id -> (key, statement index, attribute: "" for the tensor's description).
    described: Dict[int, Tuple[str, int, str]] = field(default_factory=dict)
    # Dict literals keyed by tensors a run replaces (``replace = {a: 15}``), bound to a name only passed as a
    # feed_dict: their keys name values to feed, not values read (node ids).
    feed_literals: Set[int] = field(default_factory=set)
    fed_rates: Dict[int, str] = field(default_factory=dict)  # optimizer statement id -> its fed-rate variable
    # Placeholders declared in a build-time branch (analysis/branch_placeholders): statement index -> {key: call}.
    branch_placeholders: Dict[int, Dict[str, cst.Call]] = field(default_factory=dict)
    # What each gradient statement differentiates with respect to, where the text says (analysis/fed_gradients):
    # statement index -> its Targets.
    gradient_targets: Dict[int, object] = field(default_factory=dict)
    # Functions that only open a session on this scope's graph (session_functions): def id -> their session names.
    session_functions: Dict[int, Set[str]] = field(default_factory=dict)
    is_class: bool = False
    # The value model: every binding of every key, in program order. ``symbols`` holds the last one;
    # what a statement reads is the binding visible where it stands (see :meth:`at`).
    bindings: Dict[str, List[Symbol]] = field(default_factory=dict)
    # User functions (this scope's and the enclosing ones') that create variables when called, and
    # those whose every return is a TF op's result: the function summaries graph code is checked against.
    variable_functions: Set[str] = field(default_factory=set)
    tensor_functions: Set[str] = field(default_factory=set)
    # those whose every return is a dict, list or tuple literal of TF ops' results (``{'out': out, 'layers': [...]}``)
    structure_functions: Set[str] = field(default_factory=set)
    # local functions that call into code from another module (name -> why): opaque to the analysis
    opaque_functions: Dict[str, str] = field(default_factory=dict)
    variable_classes: Set[str] = field(default_factory=set)  # classes whose methods create variables
    local_callables: Set[str] = field(default_factory=set)  # functions, classes and lambdas defined here
    # Functions (def) of this scope -> the names they read from around them when called (symbols.free_reads).
    function_reads: Dict[str, Set[str]] = field(default_factory=dict)
    # Names of this scope that a function of it binds (``global name``) or changes in place (``cfg["k"] = 7``) ->
    # that function: bound or changed when it is called.
    global_writers: Dict[str, str] = field(default_factory=dict)
    # Functions of this scope that act in Python when called (print, draw numpy random numbers...) -> what they do:
    # graph code that calls them did so once, at build time (callables.python_effect).
    function_effects: Dict[str, str] = field(default_factory=dict)
    # Functions (this scope's and the enclosing ones') that build an op changing state and drop it -> what they
    # build: TF1 never ran it, a generated function that calls them would (analysis/dangling_updates).
    function_updates: Dict[str, str] = field(default_factory=dict)
    # Functions (this scope's and the enclosing ones') that make an optimizer step inside them -> what they call: the
    # rewrite turns steps into tapes where a run computes them, not inside a function the run calls.
    function_steps: Dict[str, str] = field(default_factory=dict)
    # A class's ``__init__``: attributes of ``self`` code binds after it (``self.lr *= 0.5`` in a method, ``m.lr =``
    # outside the class) -> where (class_scope).
    later_stores: Dict[str, str] = field(default_factory=dict)
    # Functions (def) of the scopes around this one: name -> the FunctionDef.
    outer_functions: Dict[str, cst.FunctionDef] = field(default_factory=dict)
    params: Set[str] = field(default_factory=set)  # the enclosing function's parameters
    class_defs: Dict[str, cst.ClassDef] = field(default_factory=dict)  # classes defined here or around
    own_scope_blocks: Set[int] = field(default_factory=set)  # ids of main-guard blocks analysed as scopes
    instances: Dict[str, str] = field(default_factory=dict)  # key -> the local class it was built from
    # Objects given to a graph class's constructor and changed after it (analysis/later_changes): they block the
    # class's conversion even where this scope has no graph code of its own.
    object_blockers: List[Tuple[cst.CSTNode, str]] = field(default_factory=list)
    parameter_changers: Optional[Set[str]] = None  # functions that change an object given to them (later_changes)
    object_graphs: Dict[str, object] = field(default_factory=dict)  # object key -> its members (object_members)
    # The graph each statement builds in (analysis/run_graphs.statement_graphs), by statement index: empty where the
    # scope builds one graph. TF1's collections (trainable variables, the default var_list) held that graph's only.
    graphs: List[object] = field(default_factory=list)
    # Keys ever bound to a queue here (a quick test before the checks that look for a queue's uses; built_objects).
    queue_keys: Set[str] = field(default_factory=set)

    def same_graph(self, made_at: int, read_at: int) -> bool:
        """Whether what statement ``made_at`` made is in the graph statement ``read_at`` builds in."""
        if not self.graphs or made_at < 0:
            return True
        return self.graphs[min(made_at, len(self.graphs) - 1)] == self.graphs[min(read_at, len(self.graphs) - 1)]

    @property
    def is_graph_program(self) -> bool:
        """Whether this block builds a TF1 graph and runs it (else it is left alone)."""
        return bool(self.sessions) or any(
            s.run_sites or s.gradient or s.kind in (PLACEHOLDER, SESSION, INIT) for s in self.statements)

    def bind(self, symbol: Symbol) -> None:
        """Record ``symbol`` as the binding of its key at its statement (a statement reclassified replaces its own)."""
        history = self.bindings.setdefault(symbol.key, [])
        position = next((i for i, old in enumerate(history) if old.index >= symbol.index), len(history))
        if position < len(history) and history[position].index == symbol.index:
            history[position] = symbol
        else:
            history.insert(position, symbol)
        self.symbols[symbol.key] = history[-1]
        if symbol.kind == QUEUE:
            self.queue_keys.add(symbol.key)

    def add_trainable(self, keys) -> None:
        """Records keys that hold trainable variables. A key bound again (``A = tf.Variable(...)``
        in a second section of the program) stays once: readers take the binding visible where they
        stand, and a key listed twice trained that binding twice (``tape.gradient(loss, [A, A])``)."""
        keys = list(dict.fromkeys(keys))
        self.trainable_order.extend(key for key in keys if key not in self.trainable_order)
        self.add_created(keys)

    def add_created(self, keys) -> None:
        """Records keys that hold variables (trainable or not), in creation order, each once."""
        self.creation_order.extend(key for key in dict.fromkeys(keys) if key not in self.creation_order)

    def symbol_at(self, key: str, index: int) -> Optional[Symbol]:
        """The binding of ``key`` that a statement at ``index`` sees (None: not bound before it)."""
        found = None
        for symbol in self.bindings.get(key, ()):
            if symbol.index >= index:
                break
            found = symbol
        return found

    def kept_symbol_at(self, key: str, index: int) -> Optional[Symbol]:
        """The binding ``key`` holds outside the generated functions for a statement at ``index``: graph code
        that binds it again moves into those functions (where the name is local), so a variable rebound to a
        per-run tensor (``h = tf.Variable(...)``, ``h = tf.matmul(x, h)``) is still the variable there."""
        found = None
        for symbol in self.bindings.get(key, ()):
            if symbol.index >= index:
                break
            if symbol.index < 0 or symbol.index >= len(self.statements) or \
                    self.statements[symbol.index].role != DEFER:
                found = symbol
        return found

    def at(self, index: int) -> "Scope":
        """This scope as a statement at ``index`` sees it: each key holds the binding visible there."""
        visible = {}
        for key in self.bindings:
            symbol = self.symbol_at(key, index)
            if symbol is not None:
                visible[key] = symbol
        return replace(self, symbols=visible)

    def rebound(self, key: str) -> bool:
        """Whether ``key`` is bound more than once in this scope."""
        return len(self.bindings.get(key, ())) > 1

    def kind(self, key: str) -> Optional[str]:
        symbol = self.symbols.get(key)
        return symbol.kind if symbol else None

    def deferred(self, key: str) -> bool:
        return self.kind(key) in DEFERRED_KINDS


# Kinds a function scope sees from the module around it (globals built before it runs).
INHERITED_KINDS = {VARIABLE, VARIABLES, LAYER, OPTIMIZER, EAGER, AVERAGER, METRIC, QUEUE}


def nested_scope_body(node: cst.CSTNode) -> Tuple[List[cst.BaseStatement], Tuple[str, ...]]:
    """The statements and parameters of a nested scope: a function's body, or a main-guard block's."""
    params = tuple(p.name.value for p in node.params.params) if isinstance(node, cst.FunctionDef) else ()
    return list(node.body.body), params


def nested_scope_name(node: cst.CSTNode) -> str:
    return node.name.value if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else 'if __name__ == "__main__"'


class ScopeBlocked(Exception):
    """The scope has constructs a rewrite cannot convert (see its blockers)."""
