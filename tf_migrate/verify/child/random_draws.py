"""Shared random draws for ``tf_migrate.verify``: the rule, inside each program's process.

TensorFlow's random ops give different values in graph and eager mode, even with
the same seeds. In both runs ``install`` replaces the kernels that every public
random entry point ends in (``gen_random_ops``, the stateless ops that Keras 3
uses, and the stateful ops of ``tf.random.Generator``), so ``tf.random_normal``,
``tf.random.uniform``, ``truncated_normal``, initializers, dropout and generators
all draw from numpy instead. TF seeds play no part.

Which values a draw gets (the *draw key*, logged with every draw)
    * its **class**: ``purpose`` (``init`` when an initializer drew it, ``dropout``
      when a dropout did, else ``random``: read from TF's and Keras' own frames on
      the stack), ``distribution`` and a **shape key**: the whole static shape for
      initializers (weights have fixed shapes), the shape without its first
      dimension otherwise (a batch dimension is ``?`` in a TF1 graph and a number
      in eager code);
    * its **index** ``n`` within the class: an eager call is the n-th draw of its
      class. A graph op (legacy graph, or a ``tf.function`` trace) is a *site*;
      the class's sites are numbered ``c = 0 .. m-1`` in build order, and the
      ``e``-th evaluation of site ``c`` draws index ``e * m + c``: a dropout op
      evaluated at every step of a TF1 loop draws the same values as the
      migrated program's dropout called once a step, eager or compiled (a site
      built after its class was first evaluated draws the next index instead,
      see ``_Sites.graph_index``, unless it is one of a graph built anew after
      ``tf.reset_default_graph()``: that graph's sites start their own pattern);
    * the concrete shape, which the values are drawn in.

    TF1 makes a session's kernels anew: a *seeded* graph op (an op seed, or a graph
    seed, set) evaluated in a later session draws its first session's values again,
    in the same order (logged as ``redraw``, which ``draw_match`` does not count);
    an unseeded one draws new values, as it does at each evaluation in one session.

    Sites are identified by the program's own frames on the stack where they were
    built and their count there within one graph, so a ``tf.function`` traced
    again (a new batch size, the variable-creating first trace) reuses its sites
    instead of adding some. Draws of other classes (other shapes, other purposes)
    never shift each other: ops may be built in another order across classes.

A shuffle (``tf.random.shuffle``, ``tf.random_shuffle``) gathers its input
along a permutation drawn the same way (distribution ``shuffle``). The
log-uniform candidate sampler (``nce_loss`` and ``sampled_softmax_loss``'s
default) draws its candidates the same way too (distribution ``log_uniform``,
keyed by ``num_sampled``, ``range_max`` and ``unique``), with TF's expected
counts. Ops whose
values are not shared (multinomial, gamma, Poisson, full-range integers,
``tf.data`` shuffles and ``tf.train.shuffle_batch``'s ``RandomShuffleQueue``) are logged as ``unshared`` when built; ``draw_match`` decides whether
the two runs' draws match.
"""

import inspect
import sys
import weakref

if __package__:  # imported as tf_migrate.verify.child.random_draws (tests); a verify child loads it by path and
    from . import draw_values  # gives it the values module in ``install``
else:
    draw_values = None

_SHARED = {
    # module: {function: (distribution, names of its extra value arguments)}
    "gen_random_ops": {
        "random_standard_normal": ("normal", ()),
        "random_uniform": ("uniform", ()),
        "truncated_normal": ("truncated_normal", ()),
        "random_uniform_int": ("uniform_int", ("minval", "maxval")),
    },
    "gen_stateless_random_ops": {
        "stateless_random_normal": ("normal", ()),
        "stateless_random_uniform": ("uniform", ()),
        "stateless_truncated_normal": ("truncated_normal", ()),
        "stateless_random_uniform_int": ("uniform_int", ("minval", "maxval")),
    },
    "gen_stateless_random_ops_v2": {
        "stateless_random_normal_v2": ("normal", ()),
        "stateless_random_uniform_v2": ("uniform", ()),
        "stateless_truncated_normal_v2": ("truncated_normal", ()),
        "stateless_random_uniform_int_v2": ("uniform_int", ("minval", "maxval")),
    },
    "gen_stateful_random_ops": {
        "stateful_standard_normal_v2": ("normal", ()),
        "stateful_uniform": ("uniform", ()),
        "stateful_truncated_normal": ("truncated_normal", ()),
        "stateful_uniform_int": ("uniform_int", ("minval", "maxval")),
    },
}
_SHUFFLES = {"gen_random_ops": "random_shuffle", "gen_stateless_random_ops_v2": "stateless_shuffle"}
_UNSHARED = {
    "gen_random_ops": (
        "multinomial", "random_gamma", "random_poisson_v2",
        "parameterized_truncated_normal",
    ),
    "gen_stateless_random_ops": (
        "stateless_multinomial", "stateless_random_binomial", "stateless_random_poisson",
        "stateless_parameterized_truncated_normal",
    ),
    "gen_stateless_random_ops_v2": (
        "stateless_random_uniform_full_int_v2", "stateless_random_gamma_v3",
    ),
    "gen_stateful_random_ops": ("stateful_uniform_full_int", "stateful_random_binomial"),
    # candidate samplers other than the log-uniform one (shared, see _Sites.sampler_op)
    "gen_candidate_sampling_ops": (
        "uniform_candidate_sampler", "learned_unigram_candidate_sampler",
        "fixed_unigram_candidate_sampler", "thread_unsafe_unigram_candidate_sampler", "all_candidate_sampler",
    ),
    # tf.data shuffles seed from TF's op seeds, which graph and eager number differently
    "gen_dataset_ops": (
        "shuffle_dataset", "shuffle_dataset_v2", "shuffle_dataset_v3", "shuffle_and_repeat_dataset",
        "shuffle_and_repeat_dataset_v2",
    ),
}
_INIT_FILES = ("init_ops", "initializers")


def _in_loop(graph):
    """Whether ops built now sit in a while loop, whose iterations may run in any order."""
    context = graph._get_control_flow_context()
    while context is not None:
        if context.IsWhileContext():
            return True
        context = context.outer_context
    while graph is not None:
        name = getattr(graph, "name", "")  # a FuncGraph's; a plain Graph has none
        if "while_body" in name or "while_cond" in name:
            return True
        graph = getattr(graph, "outer_graph", None)
    return False


def _permutation_kernel(shape, dtype):
    """The signature ``random_op`` reads a shuffle's permutation length and dtype from."""


def _purpose(frame, user_files):
    """``init``, ``dropout`` or ``random``: what TF or Keras code asked for this draw."""
    while frame is not None:
        code = frame.f_code
        if not code.co_filename.startswith(user_files):
            if "dropout" in code.co_name.lower() or code.co_filename.endswith("dropout.py"):
                return "dropout"
            if any(part in code.co_filename for part in _INIT_FILES) or "initializer" in code.co_name:
                return "init"
        frame = frame.f_back
    return "random"


def _shape_key(purpose, dims):
    """The part of a shape a draw class is keyed by (``None`` for unknown dimensions or rank)."""
    if dims is None:
        return None
    if purpose == "init" or not dims:
        return tuple(dims)
    return ("?",) + tuple(dims[1:])


class _Class:
    """The bookkeeping of one draw class."""

    def __init__(self):
        self.sites = []  # site identities, in build order
        self.evaluations = {}  # site identity -> evaluations so far
        self.m = None  # sites when the class's graph sites were first evaluated; later ones are late
        self.start = 0  # the first of the m sites in ``sites`` (a graph built after a reset starts anew)
        self.base = 0  # the first index of the m sites' draws
        self.next = 0  # the index after the highest drawn so far
        self.late = False  # a late site was evaluated: every draw takes the next index from then on


class _Sites:
    def __init__(self, tf, log):
        self.tf = tf
        self.log = log
        self.classes = {}  # class -> _Class
        self.built = weakref.WeakKeyDictionary()  # graph -> {(class, stack): sites built there}
        self.plain_graph = {}  # site identity -> weak reference to the tf.Graph (not a function's) it was built in
        self.session = None  # the number of the TF1 session whose run is on (see ``track_sessions``)
        self.first_session = {}  # seeded site identity -> (its first session, the indices it drew there)
        self.session_evaluations = {}  # (seeded site identity, session) -> its evaluations there

    def session_redraw(self, identity):
        """The index a seeded graph op draws again in a later session, else None: TF1 makes a session's kernels
        anew, so a seeded op's sequence starts over (``w = tf.Variable(tf.random_normal(..., seed=1))``
        initialized in one session and then in another gets the same values twice)."""
        if self.session is None:
            return None
        first, drawn = self.first_session.setdefault(identity, (self.session, []))
        key = (identity, self.session)
        e = self.session_evaluations[key] = self.session_evaluations.get(key, 0) + 1
        return drawn[e - 1] if first != self.session and e <= len(drawn) else None

    def note_session_draw(self, identity, n):
        first, drawn = self.first_session.get(identity, (None, None))
        if first is not None and first == self.session:
            drawn.append(n)

    def _draw_class(self, distribution, dims):
        purpose = _purpose(sys._getframe(2), self.log.user_files)
        return (purpose, distribution, _shape_key(purpose, dims))

    def _class(self, draw_class):
        return self.classes.setdefault(draw_class, _Class())

    def eager_index(self, draw_class):
        bookkeeping = self._class(draw_class)
        n = bookkeeping.next
        bookkeeping.next = n + 1
        return n

    def graph_site(self, draw_class, graph):
        """The identity of a site built now in ``graph`` (the same for each trace of a function)."""
        stack = self.log.stack()
        counts = self.built.setdefault(graph, {})
        k = counts.get((draw_class, stack), 0)
        counts[(draw_class, stack)] = k + 1
        identity = (draw_class, stack, k)
        sites = self._class(draw_class).sites
        if identity not in sites:
            sites.append(identity)
            if not getattr(graph, "building_function", True):
                self.plain_graph[identity] = weakref.ref(graph)
        return identity

    def graph_index(self, identity):
        """``base + e * m + c`` for the e-th evaluation of site c of m; a late site draws the next index.

        A site built after its class was first evaluated (an evaluation function
        traced after training, a notebook that builds and runs op after op) is
        late: it cannot join the ``e * m + c`` pattern without moving the indices
        drawn so far, so from its first evaluation on every draw of the class
        takes the next index, as eager calls do.
        """
        bookkeeping = self._class(identity[0])
        if bookkeeping.m is None:
            bookkeeping.m, bookkeeping.base = len(bookkeeping.sites), bookkeeping.next
        c = bookkeeping.sites.index(identity) - bookkeeping.start
        if not bookkeeping.late and c >= bookkeeping.m and self._fresh_graph(bookkeeping):
            # A graph built anew (after tf.reset_default_graph()) is a new pattern from the next index:
            # its initializer evaluates its sites in no defined order, as the first graph's did.
            bookkeeping.start += bookkeeping.m
            bookkeeping.m, bookkeeping.base = len(bookkeeping.sites) - bookkeeping.start, bookkeeping.next
            bookkeeping.evaluations = {}
            c = bookkeeping.sites.index(identity) - bookkeeping.start
        bookkeeping.late = bookkeeping.late or not 0 <= c < bookkeeping.m
        if not bookkeeping.late:
            e = bookkeeping.evaluations.get(identity, 0)
            bookkeeping.evaluations[identity] = e + 1
            n = bookkeeping.base + e * bookkeeping.m + c
        else:
            n = bookkeeping.next
        bookkeeping.next = max(bookkeeping.next, n + 1)
        return n

    def _fresh_graph(self, bookkeeping):
        """Whether every site after the current pattern was built in one plain graph none of its sites are in."""
        pattern = bookkeeping.sites[bookkeeping.start:bookkeeping.start + bookkeeping.m]
        after = bookkeeping.sites[bookkeeping.start + bookkeeping.m:]
        graphs = {id(self._graph_of(site)) for site in after}
        fresh = self._graph_of(after[0]) if after else None
        return (fresh is not None and len(graphs) == 1
                and all(self._graph_of(site) is not fresh for site in pattern))

    def _graph_of(self, site):
        reference = self.plain_graph.get(site)
        return reference() if reference is not None else None

    def random_op(self, distribution, extra_names, original):
        tf = self.tf
        from tensorflow.python.framework import tensor_util
        from tensorflow.python.ops import script_ops

        signature = inspect.signature(original)
        log = self.log

        def op(*args, **kwargs):
            arguments = signature.bind(*args, **kwargs)
            arguments.apply_defaults()
            shape = arguments.arguments["shape"]
            extra = [arguments.arguments[name] for name in extra_names]
            dtype = tf.convert_to_tensor(extra[0]).dtype if extra else tf.as_dtype(arguments.arguments["dtype"])
            np_dtype = dtype.as_numpy_dtype
            if tf.executing_eagerly():
                concrete = tuple(int(d) for d in tf.reshape(shape, [-1]).numpy())
                draw_class = self._draw_class(distribution, concrete)
                n = self.eager_index(draw_class)
                log.write(event="draw", draw_class=list(draw_class), n=n, shape=list(concrete),
                          where=log.where(), graph=False)
                extra_values = [tf.convert_to_tensor(e).numpy() for e in extra]
                values = draw_values.values((*draw_class, n), concrete, np_dtype, extra_values)
                return tf.constant(values, dtype=dtype)
            shape_tensor = tf.convert_to_tensor(shape)
            static = tensor_util.constant_value_as_shape(shape_tensor)
            draw_class = self._draw_class(distribution, static.as_list() if static.rank is not None else None)
            graph = tf.compat.v1.get_default_graph()
            identity = self.graph_site(draw_class, graph)
            where, in_loop = log.where(), _in_loop(graph)

            seeded = bool(arguments.arguments.get("seed") or arguments.arguments.get("seed2"))

            def draw(shape_values, *extra_values):
                concrete = tuple(int(d) for d in shape_values.reshape(-1))
                n = self.session_redraw(identity) if seeded else None
                if n is not None:  # the values it drew in its first session: no new draw
                    log.write(event="redraw", draw_class=list(draw_class), n=n, shape=list(concrete), where=where)
                    return draw_values.values((*draw_class, n), concrete, np_dtype, extra_values)
                n = self.graph_index(identity)
                if seeded:
                    self.note_session_draw(identity, n)
                log.write(event="draw", draw_class=list(draw_class), n=n, shape=list(concrete),
                          where=where, graph=True, loop=in_loop)
                return draw_values.values((*draw_class, n), concrete, np_dtype, extra_values)

            out = script_ops.numpy_function(draw, [shape_tensor, *extra], dtype, stateful=True)
            out.set_shape(static)
            return out

        op.__wrapped__ = original
        return op

    def shuffle_op(self, original):
        """A shuffle along the first dimension: a shared permutation, drawn like the values above."""
        tf = self.tf
        draw = self.random_op("shuffle", (), _permutation_kernel)

        def op(value, *args, **kwargs):
            value = tf.convert_to_tensor(value)
            permutation = draw(shape=tf.shape(value)[:1], dtype=tf.int64)
            return tf.gather(value, permutation)

        op.__wrapped__ = original
        return op

    def sampler_op(self, original):
        """The log-uniform candidate sampler, its candidates drawn from a shared index like ``random_op``'s."""
        tf = self.tf
        from tensorflow.python.ops import script_ops

        signature, log = inspect.signature(original), self.log

        def op(*args, **kwargs):
            arguments = signature.bind(*args, **kwargs)
            arguments.apply_defaults()
            true_classes = tf.convert_to_tensor(arguments.arguments["true_classes"], tf.int64)
            num_sampled, unique = int(arguments.arguments["num_sampled"]), bool(arguments.arguments["unique"])
            range_max = int(arguments.arguments["range_max"])
            draw_class = self._draw_class("log_uniform", [None, num_sampled, range_max, int(unique)])

            def draw(n, classes):
                return draw_values.log_uniform_candidates((*draw_class, n), classes, num_sampled, unique,
                                                          range_max)

            if tf.executing_eagerly():
                n = self.eager_index(draw_class)
                log.write(event="draw", draw_class=list(draw_class), n=n, shape=[num_sampled],
                          where=log.where(), graph=False)
                candidates, true_expected, sampled_expected = draw(n, true_classes.numpy())
                return (tf.constant(candidates), tf.constant(true_expected), tf.constant(sampled_expected))
            graph = tf.compat.v1.get_default_graph()
            identity = self.graph_site(draw_class, graph)
            where, in_loop = log.where(), _in_loop(graph)

            def graph_draw(classes):
                n = self.graph_index(identity)
                log.write(event="draw", draw_class=list(draw_class), n=n, shape=[num_sampled],
                          where=where, graph=True, loop=in_loop)
                return draw(n, classes)

            outputs = script_ops.numpy_function(graph_draw, [true_classes], [tf.int64, tf.float32, tf.float32],
                                                stateful=True)
            outputs[0].set_shape([num_sampled])
            outputs[1].set_shape(true_classes.shape)
            outputs[2].set_shape([num_sampled])
            return tuple(outputs)

        op.__wrapped__ = original
        return op

    def unshared_op(self, name, original):
        def op(*args, **kwargs):
            self.log.write(event="unshared", op=name, where=self.log.where())
            return original(*args, **kwargs)

        op.__wrapped__ = original
        return op


def track_sessions(sites):
    """Numbers each TF1 session on its first run and keeps ``sites.session`` the one whose run is on."""
    from tensorflow.python.client import session

    run, numbers = session.BaseSession.run, iter(range(1, 1 << 62))

    def running(sess, *args, **kwargs):
        outer = sites.session
        number = sess.__dict__.get("_tf_migrate_draw_session")
        if number is None:  # the session's first run
            number = sess.__dict__["_tf_migrate_draw_session"] = next(numbers)
        sites.session = number
        try:
            return run(sess, *args, **kwargs)
        finally:
            sites.session = outer

    running.__wrapped__ = run
    session.BaseSession.run = running


def install(tf, log, values, sessions=True):
    """Routes every random kernel of this process through shared numpy draws (``values``: the sibling module
    ``draw_values``, which gives each draw its values; ``sessions``: number TF1's sessions, see ``track_sessions``)."""
    import importlib

    global draw_values
    draw_values = values
    sites = _Sites(tf, log)
    if sessions:
        track_sessions(sites)
    for module_name, functions in _SHARED.items():
        module = importlib.import_module("tensorflow.python.ops." + module_name)
        for name, (distribution, extra_names) in functions.items():
            setattr(module, name, sites.random_op(distribution, extra_names, getattr(module, name)))
    for module_name, name in _SHUFFLES.items():
        module = importlib.import_module("tensorflow.python.ops." + module_name)
        setattr(module, name, sites.shuffle_op(getattr(module, name)))
    from tensorflow.python.ops import gen_candidate_sampling_ops

    sampler = gen_candidate_sampling_ops.log_uniform_candidate_sampler
    gen_candidate_sampling_ops.log_uniform_candidate_sampler = sites.sampler_op(sampler)
    for module_name, names in _UNSHARED.items():
        module = importlib.import_module("tensorflow.python.ops." + module_name)
        for name in names:
            if hasattr(module, name):
                setattr(module, name, sites.unshared_op(name, getattr(module, name)))
    # tf.train.shuffle_batch's queue: filled by threads, in an order no seed fixes
    from tensorflow.python.ops import data_flow_ops

    queue = data_flow_ops.RandomShuffleQueue
    queue.__init__ = sites.unshared_op("RandomShuffleQueue", queue.__init__)
