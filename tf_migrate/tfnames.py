"""Resolve TensorFlow names however the module imported TensorFlow.

``import tensorflow as tf``, ``import tensorflow.compat.v1 as tf``,
``from tensorflow import placeholder`` and a bare ``import tensorflow`` all
reach the same symbols. :class:`TFNames` maps a CST expression such as
``tf.train.AdamOptimizer`` or ``placeholder`` to one canonical dotted name,
``"tf.train.AdamOptimizer"`` / ``"tf.placeholder"``, so rules match one table.

This is deliberately lighter than LibCST's ``QualifiedNameProvider`` (which
costs ~50 ms a file): import statements are read once and local shadowing is
ignored, a documented limitation.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Optional, Set, Tuple

import libcst as cst
from tf_migrate.traversal import visit

_PREFIXES = (
    ("tensorflow.compat.v1.", "tf."),
    ("tensorflow.compat.v2.", "tf."),
    ("tensorflow.", "tf."),
)

# TF's internal modules that tutorials import (`from tensorflow.python.framework import ops`)
# re-export public symbols under other paths; these reach the same object as the public name.
_INTERNAL_MODULES = {
    "tf.python.framework.ops.": ("reset_default_graph", "get_default_graph", "Graph", "convert_to_tensor",
                                 "control_dependencies", "device", "Tensor", "Operation", "name_scope",
                                 "get_collection", "get_collection_ref", "add_to_collection", "GraphKeys",
                                 "GraphKeys.GLOBAL_VARIABLES", "GraphKeys.TRAINABLE_VARIABLES",
                                 "GraphKeys.LOCAL_VARIABLES", "GraphKeys.UPDATE_OPS",
                                 "GraphKeys.REGULARIZATION_LOSSES", "GraphKeys.SUMMARIES"),
    "tf.python.framework.dtypes.": ("float16", "float32", "float64", "int32", "int64", "uint8", "bool",
                                    "string", "DType"),
    "tf.python.framework.constant_op.": ("constant",),
}


def dotted_name(node: cst.BaseExpression) -> Optional[str]:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    kind = type(node)  # not isinstance: LibCST's node classes are ABCs, slow to check, and final
    if kind is cst.Name:
        return node.value
    if kind is cst.Attribute:
        head = dotted_name(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


@functools.lru_cache(maxsize=8192)  # a pure function of the name; the rules ask for the same few names
def canonical(full: str) -> str:
    """Map a fully qualified TensorFlow path to the ``tf.`` form rules use."""
    if full in ("tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2"):
        return "tf"
    for prefix, short in _PREFIXES:
        if full.startswith(prefix):
            full = short + full[len(prefix):]
            break
    while full.startswith("tf.compat.v1.") or full.startswith("tf.compat.v2."):
        full = "tf." + full[len("tf.compat.v1."):]
    for module, public in _INTERNAL_MODULES.items():
        if full.startswith(module) and full[len(module):] in public:
            return "tf." + full[len(module):]
    return full


def _module_path(node: cst.BaseExpression) -> str:
    return dotted_name(node) or ""


@dataclass(frozen=True)
class ImportedFunction:
    """What the module imports from another module of the tree: the summary of one of its functions
    (made by ``analysis/imported_helpers``; the engine fills ``TFNames.imported`` when it migrates a tree)."""

    provider: str  # the provider module's path
    name: str  # the function's name there
    creates_variables: bool
    returns_tensors: bool
    opaque: str = ""  # why the importer's analysis cannot trust the summary ("" when it can)
    per_call: bool = False  # opaque only because it makes variables per call (get_variable, rnn cells)
    # A helper that makes variables, which its importer may build as a tf.Module instead (rules/helper_modules):
    # its definition in the provider, and what splitting it there needs.
    definition: Optional[cst.FunctionDef] = field(default=None, compare=False)
    provider_names: Optional["TFNames"] = field(default=None, compare=False)
    provider_makers: FrozenSet[str] = field(default=frozenset(), compare=False)  # its functions making variables
    provider_taken: FrozenSet[str] = field(default=frozenset(), compare=False)  # names bound in the provider


@dataclass(frozen=True)
class HelperClass:
    """The ``tf.Module`` form of a helper of another module of the tree, as its importer and its provider agree
    on it (``rules/helper_modules``): the importer builds ``class_name(...)`` where it called ``function(...)``,
    the provider defines the class in place of the function."""

    provider: str
    function: str
    class_name: str
    tensor_params: Tuple[str, ...]  # the arguments ``__call__`` takes
    lazy: bool  # its variables are made at its first call (they read the input's static shape)
    members: Tuple[Tuple[str, bool, int], ...]  # its variables (analysis.modules.Members)


@dataclass(frozen=True)
class ClassRun:
    """A run of the graph of a class of another module of the tree, as the class would write it (``self`` for the
    object): ``sess.run([model.loss, model.train_op], {model.x: xs})`` in ``train.py`` asks ``model.py`` for
    ``run(fetch="[self.loss, self.train_op]", feed_keys=("self.x",))``. The provider answers with the call of the
    method it generated, a template over ``ANSWER_OBJECT``, ``feed_value(i)`` and the helper markers."""

    fetch: str
    feed_keys: Tuple[str, ...]
    style: str  # RunSite.style: "run", "op_run", "eval"; or PLAIN, or a request above
    named_feed: bool = False  # the feed dict is bound to a name (its literals' keys are ``feed_keys``)

    @property
    def key(self) -> Tuple[str, Tuple[str, ...], str, bool]:
        return self.fetch, self.feed_keys, self.style, self.named_feed


# The request for the variables an object of the class makes, by TF1 name (a Saver's default list, saver-var-list):
# answered with the JSON list of [TF1 name, the attribute the object keeps it in, trainable].
VARIABLES_REQUEST = ClassRun("", (), "variables")
# The request for the trainable variables of an object of a class that makes every variable under the variable scope
# its constructor names (analysis/scoped_classes: a DQN's target-network copy filters collections by those names):
# answered with the JSON of {"parameter", "params": [[name, default code or null]], "parts": [list parts over
# ANSWER_OBJECT]} (or ``null``).
SCOPED_VARIABLES_REQUEST = ClassRun("", (), "scoped-variables")
# The request for what an object of the class holds, by attribute (analysis/object_members), for code outside the
# class that builds its own graph on the object's members: answered with the JSON of ``ObjectGraph`` (or ``null``).
MEMBERS_REQUEST = ClassRun("", (), "members")
# A request for a method computing per-run members as tensors (``fetch`` their list, ``feed_keys`` the placeholders
# they need), which the importer's own run functions call: answered as a run is.
PLAIN = "plain"
ANSWER_OBJECT = "__object__"  # the object a class run's answer is called on
ANSWER_FEED = "__feed__"  # the importer's feed dict, where it is bound to a name
ANSWER_TO_NUMPY = "__to_numpy__"  # the importer's helper turning fetched tensors into numpy values
ANSWER_CALL_COMPILED = "__call_compiled__"  # the importer's helper calling a concrete function
ANSWER_TF = "__tf__"  # the importer's name of TF (a feed converted where the call stands: ``__tf__.cast``)


def feed_value(index: int) -> str:
    """The name that stands for the ``index``-th fed value in a class run's answer."""
    return f"__feed_{index}__"


@dataclass
class TreeHelpers:
    """What the project pass tells one module of a tree, and what its rules did for the tree: helpers shared as
    tf.Module classes, and session parameters dropped across modules. One object per migration, shared by every scan
    of the module (``engine._scan``)."""

    exports: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # provider: function -> tensor params
    refused: Dict[Tuple[str, str], str] = field(default_factory=dict)  # importer: (provider, function) -> why
    requested: Dict[str, HelperClass] = field(default_factory=dict)  # importer: local function name -> its class
    exported: Dict[str, object] = field(default_factory=dict)  # provider: function -> HelperClass, or why not (str)
    classes: Dict[str, Tuple] = field(default_factory=dict)  # importer: class name -> its members
    # Sessions passed to another module of the tree (``project.session_imports``): a callable whose eager form no
    # longer takes its session parameter -> (position after ``self``, name).
    sessions_given: Dict[str, Tuple[int, str]] = field(default_factory=dict)  # importer: local name -> parameter
    # provider: class, function or ``Class#method`` -> the session parameter its eager form dropped
    sessions_dropped: Dict[str, Tuple[int, str]] = field(default_factory=dict)
    # Runs of a class's graph across modules (``project_class_runs``). Importer: local name of a class of a TF
    # module of the tree -> (provider path, class name, its methods and class attributes); the runs it asks for
    # (local class name -> {ClassRun.key -> ClassRun}); the answers (local class name -> {key -> call template})
    # and why a class answers none (local class name -> why).
    graph_classes: Dict[str, Tuple[str, str, Tuple[str, ...]]] = field(default_factory=dict)
    runs_requested: Dict[str, Dict[tuple, ClassRun]] = field(default_factory=dict)
    runs_given: Dict[str, Dict[tuple, str]] = field(default_factory=dict)
    runs_refused: Dict[str, str] = field(default_factory=dict)
    # Provider: classes every program builds passing one session, at this parameter (keyword or ``#position``).
    shared_sessions: Dict[str, str] = field(default_factory=dict)
    # Provider: class name -> the runs its importers ask for; what it answers (class -> {key -> template}).
    runs_asked: Dict[str, Tuple[ClassRun, ...]] = field(default_factory=dict)
    runs_answered: Dict[str, Dict[tuple, str]] = field(default_factory=dict)


@dataclass
class TFNames:
    """Import aliases of one module and the TensorFlow names they reach."""

    aliases: Dict[str, str] = field(default_factory=dict)  # local name -> full path
    v1_module_aliases: set = field(default_factory=set)  # names bound to tensorflow.compat.v1
    imported: Dict[str, ImportedFunction] = field(default_factory=dict)  # local name -> summary (trees only)
    single_instances: Set[str] = field(default_factory=set)  # classes of the module every program builds once
    # (class, method): the one object of a class the module builds once, its method called once by top-level code
    methods_run_once: Set[Tuple[str, str]] = field(default_factory=set)
    # How many times the module names each attribute (``run`` of ``obj.run``), computed when first asked
    attribute_counts: Callable[[], Dict[str, int]] = field(default=lambda: {})
    tree_helpers: TreeHelpers = field(default_factory=TreeHelpers)  # helpers shared as classes (trees only)
    # Plain classes of the module whose objects hold variables made in __init__ -> those variables, as
    # analysis/modules lists them (given by the engine: a class's __init__ builds such objects too).
    variable_holders: Dict[str, tuple] = field(default_factory=dict)
    variable_makers: Set[str] = field(default_factory=set)  # the module's functions that make variables
    module_classes: Set[str] = field(default_factory=set)  # the classes the module defines once, at its top level
    # Each of those -> its methods that change the object they are called on (binding_times.self_changing_methods).
    changing_methods: Dict[str, Set[str]] = field(default_factory=dict)
    # class -> {__init__ parameter -> the graph class of the object every construction passes it}
    held_parameters: Dict[str, Dict[str, str]] = field(default_factory=dict)
    # class -> the __init__ parameters every construction leaves at a TensorFlow function default (activations)
    function_parameters: Dict[str, Set[str]] = field(default_factory=dict)
    # (class statement, names, layer scopes) -> what its objects hold (analysis/object_graphs), given by the engine:
    # a module's analysis binds the members of objects of its classes with it.
    object_graph: Optional[Callable] = None
    # Classes of the module that make every variable under a variable scope their constructor names, read from the
    # input text (analysis/scoped_classes): class -> ScopedClass, given by the engine.
    scoped_classes: Dict[str, object] = field(default_factory=dict)
    # (class statement, instance, names, layer scopes) -> (the object's trainable variables as list parts, why not):
    # analysis/object_variables.object_trainable_parts, given by the engine (the class analysis depends on the
    # collections analysis that asks).
    class_variables: Optional[Callable] = None
    # class -> locals of its __init__ that code outside the class reaches through the object: the converted class
    # keeps them as attributes.
    kept_locals: Dict[str, Set[str]] = field(default_factory=dict)

    @classmethod
    def scan(cls, module: cst.Module) -> "TFNames":
        names = cls()
        visit(module, _ImportScanner(names))
        return names

    @property
    def imports_tensorflow(self) -> bool:
        return any(full == "tensorflow" or full.startswith("tensorflow.") for full in self.aliases.values())

    @property
    def tf_alias(self) -> Optional[str]:
        """The local name bound to the tensorflow package (or its compat.v1), if any."""
        for local, full in self.aliases.items():
            if full == "tensorflow":
                return local
        for local, full in self.aliases.items():
            if full in ("tensorflow.compat.v1", "tensorflow.compat.v2"):
                return local
        return None

    def qualname(self, node: cst.BaseExpression) -> Optional[str]:
        """Canonical ``tf.…`` name of ``node``, or None when it is not TensorFlow."""
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        full = self.aliases.get(head)
        if full is None:
            return None
        if not (full == "tensorflow" or full.startswith("tensorflow.")):
            return None
        return canonical(full + ("." + rest if rest else ""))

    def call_name(self, node: cst.CSTNode) -> Optional[str]:
        """Canonical name of the function a Call node calls, if TensorFlow."""
        if isinstance(node, cst.Call):
            return self.qualname(node.func)
        return None

    def is_tf(self, node: cst.BaseExpression, *names: str) -> bool:
        return self.qualname(node) in names


class _ImportScanner(cst.CSTVisitor):
    def __init__(self, names: TFNames) -> None:
        self.names = names

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = _module_path(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
                self.names.aliases[local] = full
                if full == "tensorflow.compat.v1":
                    self.names.v1_module_aliases.add(local)
            else:
                top = full.split(".")[0]
                self.names.aliases.setdefault(top, top)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        base = _module_path(node.module)
        for alias in node.names:
            name = _module_path(alias.name)
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            full = f"{base}.{name}"
            self.names.aliases[local] = full
            if full == "tensorflow.compat.v1":
                self.names.v1_module_aliases.add(local)
