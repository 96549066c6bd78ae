"""What TF1 API calls mean to the program model, by canonical name.

Canonical names are those of :mod:`tf_migrate.tfnames` (``tf.`` + the TF1
path; ``tf.compat.v1.`` stripped).
"""
from __future__ import annotations

import sys
from typing import Optional

# Checkpoint writers: kept where they are built (they hold variables, they are not graph ops).
SAVERS = {"tf.train.Saver"}
# The Keras metrics the streaming-metrics rule makes of TF1 ones (built once; updated and read per run).
KERAS_METRICS = {"tf.keras.metrics.Accuracy", "tf.keras.metrics.Mean"}

# Collections of variables: resolved to explicit lists (tf_migrate.analysis.collections).
VARIABLE_COLLECTIONS = {"tf.trainable_variables", "tf.global_variables", "tf.get_collection"}

# Keras layers without variables: nothing to wait for before their (empty) variable lists are read.
WEIGHTLESS_LAYERS = {"Dropout", "Flatten", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D",
                     "AveragePooling2D", "AveragePooling3D", "Activation", "Reshape"}

PLACEHOLDERS = {"tf.placeholder", "tf.placeholder_with_default", "tf.sparse_placeholder"}
GRAPH_SEEDS = {"tf.set_random_seed", "tf.random.set_random_seed", "tf.random.set_seed"}
# The parts of a TF1 queue pipeline (rules/_queue_survey): a function making one is the first half of its program.
QUEUE_PIPELINE_PARTS = {"tf.train.string_input_producer", "tf.train.slice_input_producer", "tf.TextLineReader",
                        "tf.TFRecordReader", "tf.FixedLengthRecordReader", "tf.WholeFileReader", "tf.train.batch",
                        "tf.train.shuffle_batch"}

SESSIONS = {"tf.Session", "tf.InteractiveSession", "tf.train.MonitoredSession",
            "tf.train.MonitoredTrainingSession", "tf.train.SingularMonitoredSession"}
# Sessions whose run() has hooks and recovery: no faithful eager form.
SESSIONS_WITH_HOOKS = {"tf.train.MonitoredSession", "tf.train.MonitoredTrainingSession",
                       "tf.train.SingularMonitoredSession"}

GRAPHS = {"tf.Graph", "tf.get_default_graph"}

INITIALIZER_OPS = {
    "tf.global_variables_initializer", "tf.initialize_all_variables",
    "tf.local_variables_initializer", "tf.initialize_local_variables",
    "tf.variables_initializer", "tf.initialize_variables", "tf.tables_initializer",
}

VARIABLE_CONSTRUCTORS = {"tf.Variable", "tf.get_variable", "tf.compat.v1.get_variable",
                         "tf.get_local_variable"}
# Keras rnn cells (what rnn-cell-steps makes of TF1 cells stepped by hand): objects that make their variables
# at their first call, as TF1's cells did; a helper's tf.Module form keeps them as members.
KERAS_RNN_CELLS = {"tf.keras.layers.SimpleRNNCell", "tf.keras.layers.LSTMCell", "tf.keras.layers.GRUCell"}

OPTIMIZER_PREFIXES = ("tf.train.", "tf.keras.optimizers.", "tf.optimizers.")
OPTIMIZER_SUFFIX = "Optimizer"
KERAS_OPTIMIZER_PREFIXES = ("tf.keras.optimizers.", "tf.optimizers.")
# Keras optimizers whose update is linear in the gradient: a gradient with repeated rows (IndexedSlices
# from a gather) gives the same step whether the rows are summed first or not. Keras' others (Adam:
# ``g * g``) square each repeated row apart, where TF1 summed them first. (A tf.compat.v1.train optimizer
# is TF1's own and sums them itself.)
LINEAR_OPTIMIZERS = {"tf.keras.optimizers.SGD", "tf.optimizers.SGD"}
# Ops whose gradient for a variable is an IndexedSlices that can repeat rows (one per id looked up).
SPARSE_GRADIENT_OPS = {"tf.gather", "tf.nn.embedding_lookup", "tf.nn.embedding_lookup_sparse", "tf.nn.nce_loss",
                       "tf.nn.sampled_softmax_loss", "tf.keras.layers.Embedding", "tf.compat.v1.gather",
                       "tf.compat.v1.nn.embedding_lookup", "tf.compat.v1.nn.nce_loss",
                       "tf.compat.v1.nn.sampled_softmax_loss"}

# APIs that build variables a Keras layer owns: TF1's layers, rnn cells and contrib layers become Keras
# layers in the output; Keras' own layers and models, estimators and feature columns build them too. A
# tf.compat.v1.train optimizer cannot update them (Keras 3 variables are not tf.Variables).
KERAS_VARIABLE_APIS = ("tf.layers", "tf.keras", "tf.nn.rnn_cell", "tf.nn.dynamic_rnn", "tf.nn.static_rnn",
                       "tf.nn.bidirectional_dynamic_rnn", "tf.nn.static_bidirectional_rnn", "tf.nn.raw_rnn",
                       "tf.nn.static_state_saving_rnn", "tf.contrib", "tf.estimator", "tf.feature_column")
# Keras namespaces that build no variables (initializers of plain tf.Variables, optimizers, losses...).
KERAS_WITHOUT_VARIABLES = ("tf.keras.optimizers", "tf.keras.initializers", "tf.keras.losses",
                           "tf.keras.activations", "tf.keras.regularizers", "tf.keras.constraints",
                           "tf.keras.datasets", "tf.keras.preprocessing", "tf.keras.utils")

# Python packages that never import TensorFlow: their functions act on Python values and build no graph
# ops or variables. The standard library (partly by hand: Python 3.9 cannot list it), then well-known
# packages.
HOST_MODULES = frozenset(getattr(sys, "stdlib_module_names", ())) | {
    "__future__", "os", "sys", "math", "time", "random", "re", "json", "collections", "itertools", "functools",
    "argparse", "pickle", "io", "shutil", "glob", "datetime", "logging", "warnings", "typing", "pathlib",
    "numpy", "scipy", "pandas", "matplotlib", "sklearn", "PIL", "cv2", "gym", "tqdm", "absl", "six", "imageio",
    "skimage", "h5py", "yaml", "pylab", "seaborn"}

# Derivative calls the tape lowers (tf_migrate.codegen.gradients).
PFOR_JACOBIAN = "tf.python.ops.parallel_for.gradients.jacobian"
PFOR_BATCH_JACOBIAN = "tf.python.ops.parallel_for.gradients.batch_jacobian"
HESSIANS = {"tf.hessians"}
GRADIENTS = {"tf.gradients", PFOR_JACOBIAN, PFOR_BATCH_JACOBIAN} | HESSIANS

# Calls whose result is an Operation: fetching one gives None.
OP_CONSTRUCTORS = {"tf.group", "tf.no_op", "tf.print", "tf.debugging.assert_equal",
                   "tf.assert_equal", "tf.debugging.Assert", "tf.Assert"}

# Ops that draw new values every time they run: never hoisted out of a run.
RANDOM_OPS = {
    "tf.random_normal", "tf.random_uniform", "tf.truncated_normal", "tf.random_shuffle",
    "tf.random_crop", "tf.multinomial", "tf.random_gamma", "tf.random_poisson",
    "tf.random.normal", "tf.random.uniform", "tf.random.truncated_normal", "tf.random.shuffle",
    "tf.random.categorical", "tf.random.gamma", "tf.random.poisson", "tf.nn.dropout",
    "tf.random.stateless_normal",
}

# Random draws outside the names above: TF1's image augmentations and samplers.
RANDOM_PREFIXES = ("tf.random.", "tf.image.random_", "tf.random_", "tf.nn.fractional_", "tf.nn.sampled_",
                   "tf.nn.nce_loss", "tf.nn.uniform_candidate_sampler", "tf.nn.log_uniform_candidate_sampler",
                   "tf.nn.learned_unigram_candidate_sampler", "tf.nn.fixed_unigram_candidate_sampler",
                   "tf.image.sample_distorted_bounding_box")
# Not draws: seeds, initializer objects (values; their variables draw when made), stateless ops (a value of
# their seed), generators (blocked as unmodelled classes).
NOT_RANDOM_PREFIXES = ("tf.random.set_seed", "tf.random.set_random_seed", "tf.random.stateless_",
                       "tf.random.Generator", "tf.random.experimental", "tf.random.get_seed",
                       "tf.random_normal_initializer", "tf.random_uniform_initializer",
                       "tf.random.normal_initializer", "tf.random.uniform_initializer")


def is_random_op(qualname: Optional[str]) -> bool:
    """A call that draws new values each time it runs (:data:`RANDOM_OPS`, :data:`RANDOM_PREFIXES`)."""
    return qualname is not None and (qualname in RANDOM_OPS or (
        qualname.startswith(RANDOM_PREFIXES) and not qualname.startswith(NOT_RANDOM_PREFIXES)))


# TF1's probability distributions (values: their parameters; their samples are draws, at each run).
DISTRIBUTIONS = ("tf.distributions.",)
DISTRIBUTION_DRAWS = {"sample", "sample_n"}

# Ops with an effect outside the graph each time they run (a Python function called, the clock read, a line
# printed): a value computed from one is made in each run that needs it, as a random draw is, never once where built.
PER_RUN_EFFECT_OPS = {"tf.py_func", "tf.numpy_function", "tf.py_function", "tf.timestamp", "tf.Print",
                      "tf.write_file", "tf.io.write_file"}

# TF ops that call a Python function to build a branch or a loop body (TF1 called it once, when it built), and
# those that call one at each run; both return results in the structure the function returns. Matched by the
# last part of the called name.
FUNCTION_TAKING_OPS = {"cond", "case", "switch_case", "while_loop", "map_fn", "scan", "foldl", "foldr",
                       "vectorized_map"}
PYTHON_FUNCTION_OPS = {"py_func", "py_function", "numpy_function"}

# Questions about the execution mode: TF1's graph program answered False, the migrated one would answer True
# outside its compiled functions (the branch they choose would change): the file stays compat, but in host code
# written for both modes (rules/eager_branches).
EXECUTION_MODE_QUERIES = {"tf.executing_eagerly", "tf.compat.v2.executing_eagerly",
                          "tf.executing_eagerly_outside_functions", "tf.inside_function"}
EAGER_SWITCHES = {"tf.enable_eager_execution", "tf.enable_v2_behavior"}  # (then TF1 answered True too)

# Module-level calls with an eager meaning (kept where they are, renamed by the tables).
EAGER_CONFIG_CALLS = {"tf.set_random_seed", "tf.random.set_seed", "tf.logging.set_verbosity",
                      "tf.debugging.set_log_device_placement"}

# TF1 APIs that act in Python when called (files, logging, flags), not graph ops: kept where they are.
HOST_CALL_PREFIXES = ("tf.gfile.", "tf.io.gfile.", "tf.logging.", "tf.flags.", "tf.app.flags.",
                      "tf.examples.",  # tensorflow.examples...input_data.read_data_sets: numpy datasets
                      "tf.config.")  # the runtime's settings (devices, threads, memory growth)

# TF ops whose value is a tuple, list or namedtuple of tensors: a fetch of one converts each member.
STRUCTURE_CALLS = {"tf.self_adjoint_eig", "tf.linalg.eigh", "tf.linalg.eig", "tf.svd", "tf.linalg.svd",
                   "tf.qr", "tf.linalg.qr", "tf.linalg.lu", "tf.nn.moments", "tf.nn.weighted_moments",
                   "tf.nn.sufficient_statistics", "tf.nn.top_k", "tf.math.top_k", "tf.unique",
                   "tf.unique_with_counts", "tf.unstack", "tf.split", "tf.meshgrid", "tf.setdiff1d",
                   "tf.nn.max_pool_with_argmax", "tf.dynamic_partition", "tf.identity_n", "tf.tuple",
                   "tf.gradients", "tf.nn.dynamic_rnn", "tf.nn.bidirectional_dynamic_rnn", "tf.nn.static_rnn",
                   "tf.nn.ctc_greedy_decoder", "tf.nn.ctc_beam_search_decoder"}

# Calls that only configure TF1 graph mode: removed from eager output.
GRAPH_MODE_CONFIG_CALLS = {"tf.reset_default_graph", "tf.disable_v2_behavior", "tf.disable_eager_execution",
                           "tf.enable_eager_execution", "tf.enable_v2_behavior", "tf.disable_resource_variables",
                           "tf.enable_resource_variables"}

# `with` contexts that only scope graph construction: unwrapped in eager output.
TRANSPARENT_CONTEXTS = {"tf.name_scope", "tf.variable_scope", "tf.device", "tf.control_dependencies",
                        "tf.Session", "tf.InteractiveSession", "tf.Graph", "tf.get_default_graph"}

# APIs with no eager equivalent in scope of these rules: the file stays in compat mode.
COMPAT_ONLY_PREFIXES = (
    "tf.contrib.", "tf.train.string_input_producer", "tf.train.input_producer", "tf.train.batch",
    "tf.train.shuffle_batch", "tf.train.slice_input_producer", "tf.train.start_queue_runners",
    "tf.train.QueueRunner", "tf.train.queue_runner.", "tf.train.add_queue_runner", "tf.train.limit_epochs",
    "tf.train.range_input_producer", "tf.train.batch_join", "tf.train.shuffle_batch_join", "tf.train.maybe_batch",
    "tf.train.maybe_shuffle_batch", "tf.train.maybe_batch_join", "tf.train.maybe_shuffle_batch_join",
    "tf.TextLineReader", "tf.TFRecordReader", "tf.WholeFileReader", "tf.RandomShuffleQueue",
    "tf.queue.RandomShuffleQueue", "tf.PriorityQueue", "tf.queue.PriorityQueue", "tf.QueueBase", "tf.queue.QueueBase",
    "tf.make_template", "tf.losses.get_total_loss", "tf.losses.get_losses", "tf.losses.add_loss",
    "tf.add_to_collection", "tf.summary.FileWriter", "tf.summary.merge_all", "tf.summary.merge",
    "tf.summary.FileWriterCache", "tf.summary.tensor_summary", "tf.summary.audio", "tf.summary.get_summary_description",
    "tf.layers.", "tf.nn.rnn_cell.", "tf.nn.dynamic_rnn", "tf.get_variable_scope",
    "tf.data.make_one_shot_iterator", "tf.data.make_initializable_iterator", "tf.data.Iterator.",
    "tf.train.exponential_decay", "tf.train.piecewise_constant", "tf.train.polynomial_decay",
    "tf.train.natural_exp_decay", "tf.train.inverse_time_decay",
    "tf.all_variables", "tf.local_variables", "tf.moving_average_variables", "tf.keras.Model", "tf.keras.Sequential",
    "tf.keras.models.", "tf.estimator.",
    "tf.foldl", "tf.foldr", "tf.sparse_placeholder",
    "tf.scatter_update", "tf.scatter_add", "tf.scatter_sub",
    "tf.train.import_meta_graph", "tf.import_graph_def", "tf.train.write_graph",
    "tf.saved_model.", "tf.python.", "tf.metrics.", "tf.metric_variables",
)


def is_optimizer_constructor(qualname: str) -> bool:
    return qualname.startswith(OPTIMIZER_PREFIXES) and (
        qualname.endswith(OPTIMIZER_SUFFIX) or qualname.startswith(KERAS_OPTIMIZER_PREFIXES)
    ) and not qualname.endswith(".schedules")


def is_keras_optimizer(qualname: str) -> bool:
    return qualname.startswith(KERAS_OPTIMIZER_PREFIXES)


def is_keras_layer_with_variables(qualname: Optional[str]) -> bool:
    """A Keras layer class whose object makes variables at its first call (``tf.keras.layers.Dense``, the rnn cells):
    every ``tf.keras.layers`` class but those known to have none (:data:`WEIGHTLESS_LAYERS`)."""
    if not qualname or not qualname.startswith("tf.keras.layers."):
        return False
    name = qualname[len("tf.keras.layers."):]
    return "." not in name and name[:1].isupper() and name not in WEIGHTLESS_LAYERS


def builds_keras_variables(qualname: str) -> bool:
    """True for APIs whose variables a Keras layer owns (KERAS_VARIABLE_APIS, their members included)."""
    def under(entry: str) -> bool:
        return qualname == entry or qualname.startswith(entry + ".")

    return any(map(under, KERAS_VARIABLE_APIS)) and not any(map(under, KERAS_WITHOUT_VARIABLES))


def is_compat_only(qualname: str) -> bool:
    """True for APIs that keep a file in compat mode (prefixes end in '.', others match exactly)."""
    if qualname in GRADIENTS:
        return False
    return any(qualname == entry or (entry.endswith(".") and qualname.startswith(entry))
               for entry in COMPAT_ONLY_PREFIXES)

# Methods that change a Python list in place (a list of variables reordered, a shape list changed).
LIST_MUTATIONS = {"append", "extend", "insert", "reverse", "sort", "pop", "remove", "clear"}

# Queues a program fills and empties by its own ops (no queue runner): built once, their ops run per run. Their
# element order is the program's own (a shuffling queue's is not: it stays compat).
QUEUES = {"tf.FIFOQueue", "tf.queue.FIFOQueue", "tf.PaddingFIFOQueue", "tf.queue.PaddingFIFOQueue"}
QUEUE_OP_METHODS = {"enqueue", "enqueue_many", "close"}  # ops: nothing to fetch (a run gives None)
QUEUE_VALUE_METHODS = {"dequeue", "dequeue_many", "dequeue_up_to", "size", "is_closed"}

# Methods of a variable that write it (run when a run fetches the op TF1 built, not when built).
VARIABLE_WRITE_METHODS = {"assign", "assign_add", "assign_sub", "scatter_update", "scatter_add", "scatter_sub",
                          "scatter_nd_update", "scatter_nd_add", "load"}

# TF1 ops whose result is a SparseTensor (a run gave a SparseTensorValue of numpy arrays).
SPARSE_RESULTS = {"tf.SparseTensor", "tf.sparse.SparseTensor", "tf.string_split", "tf.strings.split",
                  "tf.sparse_reorder", "tf.sparse.reorder", "tf.sparse_add", "tf.sparse.add", "tf.sparse_reshape",
                  "tf.sparse.reshape", "tf.sparse_retain", "tf.sparse.retain", "tf.sparse_slice", "tf.sparse.slice",
                  "tf.sparse.from_dense", "tf.sparse_concat", "tf.sparse.concat", "tf.sparse_transpose",
                  "tf.sparse.transpose", "tf.sparse_reset_shape", "tf.sparse.reset_shape", "tf.sparse_fill_empty_rows",
                  "tf.sparse.fill_empty_rows", "tf.sparse_maximum", "tf.sparse.maximum", "tf.sparse_minimum",
                  "tf.sparse.minimum", "tf.contrib.layers.dense_to_sparse", "tf.serialize_sparse"}


# TF classes whose objects the program model knows (tables above, or rules that convert them), and classes whose
# objects are plain values (shapes, specs, protos, I/O handles: their methods build no ops a run would fetch). A call
# of any other capitalised `tf.*` name builds an object the analysis has no model of: its methods may build ops
# that TF1 ran at each run where eager code runs them once, where they stand (a distribution's ``sample()``, an
# accumulator's ``take_grad()``), so the file stays compat (:func:`is_unmodelled_class`).
MODELLED_CLASSES = {
    "tf.train.Coordinator", "tf.train.ExponentialMovingAverage", "tf.train.Server", "tf.train.ClusterSpec",
    "tf.GradientTape", "tf.Module", "tf.TensorArray", "tf.Print", "tf.Assert",
    # plain values
    "tf.TensorShape", "tf.Dimension", "tf.DType", "tf.TensorSpec", "tf.IndexedSlices", "tf.SparseTensorValue",
    "tf.DeviceSpec", "tf.FixedLenFeature", "tf.VarLenFeature", "tf.FixedLenSequenceFeature", "tf.SparseFeature",
    "tf.io.FixedLenFeature", "tf.io.VarLenFeature", "tf.io.FixedLenSequenceFeature", "tf.io.SparseFeature",
    "tf.train.Example", "tf.train.SequenceExample", "tf.train.Features", "tf.train.Feature", "tf.train.FeatureList",
    "tf.train.FeatureLists", "tf.train.Int64List", "tf.train.BytesList", "tf.train.FloatList",
    "tf.Summary", "tf.summary.Summary", "tf.HistogramProto", "tf.ConfigProto", "tf.GPUOptions", "tf.GraphOptions",
    "tf.OptimizerOptions", "tf.RunOptions", "tf.RunMetadata", "tf.GraphDef", "tf.NodeDef", "tf.MetaGraphDef",
    "tf.python_io.TFRecordWriter", "tf.python_io.TFRecordOptions", "tf.io.TFRecordWriter", "tf.io.TFRecordOptions",
}
# Namespaces whose capitalised names are known or plain: Keras (its layers, metrics, initializers...), datasets
# (the dataset analyses follow their iterators), host file and flag helpers, errors.
MODELLED_CLASS_PREFIXES = ("tf.keras.", "tf.data.", "tf.initializers.", "tf.errors.", "tf.raw_ops.") \
    + DISTRIBUTIONS + HOST_CALL_PREFIXES


def is_unmodelled_class(qualname: str) -> bool:
    """True for a call of a capitalised ``tf.*`` name (a class, or a method of one: ``tf.train.Example.FromString``)
    that no table models (:data:`MODELLED_CLASSES`)."""
    parts = qualname.split(".")
    capital = next((i for i, part in enumerate(parts) if i and part[:1].isupper()), None)
    if parts[0] != "tf" or capital is None or qualname.startswith(MODELLED_CLASS_PREFIXES):
        return False
    cls = ".".join(parts[:capital + 1])
    return not (cls in MODELLED_CLASSES or cls in SESSIONS or cls in SAVERS or cls in GRAPHS or cls in QUEUES
                or cls in VARIABLE_CONSTRUCTORS or cls in KERAS_METRICS or cls in SPARSE_RESULTS
                or is_optimizer_constructor(cls) or is_compat_only(cls))
