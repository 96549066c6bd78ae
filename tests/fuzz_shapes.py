"""Runnable TF1 programs in the shapes of real code, each with the features it has and the mode it should get.

The programs use float32 tensors of shape [3] (some scalars), elementwise ops and gradients only where
connected, so TF1 runs nearly all of them: ``tests/fuzz_grammar.py`` (``check_semantics``) runs one
under TF1 graph semantics and its migration under TF2 and compares what they print. Besides plain
graph statements (placeholders, variables, expressions, gradients, optimizers, assignments, name
scopes, helper functions), the grammar mixes in the shapes that broke the rewriter on real code
(issue 12). Each is a feature the program records when it has it:

  rebind               a name bound to a placeholder or tensor is later bound to another tensor (R1)
  fed-tensor           a run feeds a tensor that is not a placeholder: sess.run(b, {a: 15}) (R1)
  int-feed             an int list fed to a float32 placeholder (R1)
  unpack               tuple, list or starred unpacking of variables or tensors (R2)
  augassign            h += 1.0 on a tensor
  loop-carried         h = tf.tanh(h * w) in a for loop
  layer-callable       a lambda or small helper function used as a layer
  var-helper           a helper function that creates variables (R4)
  trainable-variables  tf.trainable_variables() read (R4)
  in-main              the graph and its sessions built in main() (R4)
  injected-callable    a class whose graph depends on a callable passed to __init__ (R3)
  class-graph          the same class with its callables written in, instances fed and fetched by attribute
  with-default         placeholder_with_default with a numpy default, fetched in a dict (R5)

and two that come with the others: ``graph-after-session`` (graph built after a first session, run in a
second one, as in R1) and ``initialized-twice`` (that second session runs the initializer again).

Expected mode (issue 12, items 2 and 3): a callable passed in makes the graph it builds unknown, so a
program with ``injected-callable`` stays compat; in every other program each value is knowable from
the source, so it goes eager, except that with ``initialized-twice`` either mode is right.

The grammar keeps a small value model, as TF1 sees the program: each binding of a name is its own
value with its inputs, so a run feeds what its fetches need and never fetches a tensor whose
placeholder no name reaches any more.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

FEATURES = ("rebind", "fed-tensor", "int-feed", "unpack", "augassign", "loop-carried", "layer-callable",
            "var-helper", "trainable-variables", "in-main", "injected-callable", "class-graph", "with-default")
COMPAT_FEATURES = frozenset({"injected-callable"})

_FLOAT = ("placeholder", "default", "variable", "tensor")  # kinds an expression may read
_FETCHED = ("variable", "tensor", "int", "list")             # kinds a run may fetch (ops alone)
_VECTORS = ["np.ones(3, np.float32)", "[1.0, 2.0, 3.0]", "np.arange(3.0)", "np.array([0.5, -1.0, 2.0], np.float32)"]
_HEAD = ["import collections", "import numpy as np", "import tensorflow as tf", "",
         'Pair = collections.namedtuple("Pair", ["first", "second"])', "", "",
         "def show(value):",
         "    print(value if value is None or isinstance(value, (dict, list, tuple)) else np.round(value, 4))",
         "", ""]


@dataclass(frozen=True)
class ShapedProgram:
    source: str
    features: FrozenSet[str]

    @property
    def expected_mode(self) -> Optional[str]:
        """compat or eager; None where either is right (a second initializer run resets trained variables: an
        eager rewrite would have to reset them too, and compat is the safe answer)."""
        if self.features & COMPAT_FEATURES:
            return "compat"
        return None if "initialized-twice" in self.features else "eager"


@dataclass
class _Value:
    kind: str                # placeholder, default, variable, tensor, int, list, op
    parents: FrozenSet[int]  # the values this one is computed from
    scalar: bool = False


class _Shapes:
    """Builds one program statement by statement, with the values each name holds at that point."""

    def __init__(self, rng: random.Random, shapes: Iterable[str], force: Iterable[str] = ()) -> None:
        self.rng = rng
        self.shapes = frozenset(shapes)
        self.force = frozenset(force)  # the features the program must have
        self.features: Set[str] = set()
        self.lines: List[str] = []
        self.prelude: List[str] = []  # module-level functions and classes, before the graph
        self.depth = 0
        self.values: List[_Value] = []
        self.bound: Dict[str, int] = {}
        self.used = {"np", "tf", "show", "step", "sess", "main", "Pair", "collections", "_"}
        self.callables: List[str] = []
        self.helpers: Dict[str, str] = {}  # what the prelude defines once: role -> name
        self.class_shape: Dict[str, Tuple[bool, bool]] = {}  # a class's role -> (own placeholder, optimizer)
        self.dict_fetch = False            # with-default: a run fetches a dict
        self.initialized = False           # a session ran the variables' initializer
        self.gradient_values: Set[int] = set()

    # -- bookkeeping ----------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line if line else "")

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def name(self, base: str) -> str:
        for suffix in ["", *map(str, range(2, 200))]:
            if base + suffix not in self.used:
                self.used.add(base + suffix)
                return base + suffix
        raise AssertionError("out of names")

    def value(self, kind: str, parents: Iterable[int] = (), scalar: bool = False) -> int:
        self.values.append(_Value(kind, frozenset(parents), scalar))
        return len(self.values) - 1

    def bind(self, name: str, vid: int, feature: str = "rebind") -> None:
        if name in self.bound and feature:
            self.features.add(feature)
        self.bound[name] = vid

    def live(self, *kinds: str) -> List[str]:
        return [n for n, v in self.bound.items() if self.values[v].kind in kinds]

    def ancestors(self, vid: int) -> Set[int]:
        seen, todo = set(), [vid]
        while todo:
            v = todo.pop()
            if v not in seen:
                seen.add(v)
                todo.extend(self.values[v].parents)
        return seen

    def variables_under(self, vid: int) -> Set[int]:
        return {v for v in self.ancestors(vid) if self.values[v].kind == "variable"}

    def differentiable(self, name: str) -> Set[int]:
        """The variables ``name`` depends on; none when it is built from a gradient (its own may be None in TF1)."""
        ancestors = self.ancestors(self.bound[name])
        return set() if ancestors & self.gradient_values else self.variables_under(self.bound[name])

    def runnable_with(self, vid: int, fed: Set[int]) -> bool:
        """TF1 can compute the value when ``fed`` is fed: every placeholder it reads is fed or cut off by a feed."""
        seen, todo = set(), [vid]
        while todo:
            v = todo.pop()
            if v in seen or v in fed:
                continue
            seen.add(v)
            if self.values[v].kind == "placeholder":
                return False
            todo.extend(self.values[v].parents)
        return True

    def allowed(self, feature: str) -> bool:
        return feature in self.shapes

    # -- expressions: (text, the values read, scalar) --------------------------
    def operand(self) -> Tuple[str, Set[int], bool]:
        pool = self.live(*_FLOAT)
        if not pool:
            return "tf.constant([1.0, 2.0, 3.0])", set(), False
        n = self.rng.choice(pool)
        return n, {self.bound[n]}, self.values[self.bound[n]].scalar

    def expression(self, depth: int = 0) -> Tuple[str, Set[int], bool]:
        r = self.rng.random()
        if depth > 2 or r < 0.3:
            return self.operand()
        if r < 0.5:
            text, reads, scalar = self.expression(depth + 1)
            if self.callables and self.chance(0.4):
                return f"{self.rng.choice(self.callables)}({text})", reads, scalar
            unary = self.rng.choice(["tf.square", "tf.sigmoid", "tf.tanh", "tf.abs", "tf.identity"])
            return f"{unary}({text})", reads, scalar
        if r < 0.75:
            (a, ra, sa), (b, rb, sb) = self.expression(depth + 1), self.expression(depth + 1)
            return f"{a} {self.rng.choice(['+', '-', '*'])} {b}", ra | rb, sa and sb
        if r < 0.9:
            text, reads, scalar = self.expression(depth + 1)
            return f"{text} * {self.rng.choice(['2.0', '0.5', '-1.0'])}", reads, scalar
        text, reads, _ = self.expression(depth + 1)
        return f"tf.reduce_sum({text}) * tf.ones([3])", reads, False

    def vector(self) -> Tuple[str, Set[int]]:
        text, reads, scalar = self.expression()
        return (f"({text}) * tf.ones([3])" if scalar else text), reads

    def computed(self, base: str = "") -> str:
        n = self.name(base or self.rng.choice(["h", "z", "a", "out", "logits", "act", "feat"]))
        text, reads, scalar = self.expression()
        if text in self.live("variable"):
            text = f"tf.identity({text})"  # a tensor, not a second name for the variable (``h += 1`` would assign)
        self.emit(f"{n} = {text}")
        self.bind(n, self.value("tensor", reads, scalar))
        return n

    # -- plain graph statements -------------------------------------------------
    def placeholder(self) -> str:
        n = self.name(self.rng.choice(["x", "inputs", "labels"]))
        self.emit(f"{n} = tf.placeholder(tf.float32, [3])")
        self.bind(n, self.value("placeholder"))
        return n

    def variable(self) -> str:
        n = self.name(self.rng.choice(["W", "b", "w", "v"]))
        init = self.rng.choice(["tf.zeros([3])", "tf.ones([3])", "np.array([0.5, -1.0, 2.0], np.float32)",
                                "tf.constant([1.0, 2.0, 3.0])"])
        self.emit(f'{n} = tf.get_variable("{n}", initializer={init})' if self.chance(0.3)
                  else f"{n} = tf.Variable({init})")
        self.bind(n, self.value("variable"))
        return n

    def gradients(self) -> None:
        pairs = [(t, v) for t in self.live("tensor") for v in self.live("variable")
                 if self.bound[v] in self.differentiable(t)]
        if not pairs:
            return self.computed()
        ys, xs = self.rng.choice(pairs)
        n = self.name("grads")
        self.emit(f"{n} = tf.gradients({ys}, [{xs}])[0]")
        self.bind(n, self.value("tensor", {self.bound[ys], self.bound[xs]}, self.values[self.bound[xs]].scalar))
        self.gradient_values.add(self.bound[n])

    def losses(self) -> List[str]:
        return [t for t in self.live("tensor") if self.differentiable(t)]

    def optimizer(self) -> None:
        losses = self.losses()
        if not losses:
            return self.computed()
        loss = self.rng.choice(losses)
        opt = self.rng.choice(["tf.train.GradientDescentOptimizer(0.1)", "tf.train.AdamOptimizer(0.1)",
                               "tf.train.MomentumOptimizer(0.1, 0.9)", "tf.train.AdagradOptimizer(0.1)"])
        n = self.name("train_op")
        if self.chance(0.5):
            total = self.name("objective")
            self.emit(f"{total} = tf.reduce_sum({loss})")
            self.bind(total, self.value("tensor", {self.bound[loss]}, True))
            loss = total
        self.emit(f"{n} = {opt}.minimize(tf.reduce_sum({loss}))")
        self.bind(n, self.value("op", {self.bound[loss]}))

    def assign(self) -> None:
        if not self.live("variable"):
            self.variable()
            return
        v = self.rng.choice(self.live("variable"))
        n = self.name("assign_op")
        self.emit(f"{n} = " + self.rng.choice([f"tf.assign({v}, {v} * 0.5)", f"tf.assign_add({v}, {v} * 0.0 + 1.0)",
                                               f"{v}.assign_sub({v} * 0.0 + 0.1)"]))
        self.bind(n, self.value("op", {self.bound[v]}))

    def scoped_block(self) -> None:
        self.emit(f"with tf.name_scope('{self.name('scope')}'):")
        self.depth += 1
        self.computed()
        self.depth -= 1

    def helper_function(self) -> None:
        fn, (arg, reads, scalar) = self.name("build"), self.operand()
        self.emit(f"def {fn}(inp):")
        self.emit("    return tf.square(inp) + 1.0")
        self.emit("")
        n = self.name("h")
        self.emit(f"{n} = {fn}({arg})")
        self.bind(n, self.value("tensor", reads, scalar))

    # -- the shapes of real code ------------------------------------------------
    def rebind(self) -> None:
        """R1: a name that held a placeholder or tensor gets another tensor; what was built from it keeps the old one."""
        pool = self.live("placeholder", "tensor") or [self.placeholder()]
        n = self.rng.choice(pool)
        old = self.bound[n]
        if self.chance(0.5):
            text = self.rng.choice([f"tf.tanh({n}) * 2.0", f"{n} * 0.5 + 1.0", f"tf.square({n}) - {n}"])
            reads, scalar = {old}, self.values[old].scalar
        else:
            text, reads, scalar = self.expression()
        self.emit(f"{n} = {text}")
        self.bind(n, self.value("tensor", reads, scalar), "rebind")

    def int_tensor(self) -> None:
        """R1: ``a = tf.add(2, 5)`` (rebinding a placeholder's name where allowed), ``b = a * 3``; fed as ints."""
        pool = self.live("placeholder") if self.allowed("rebind") else []
        a = self.rng.choice(pool) if pool and self.chance(0.6) else self.name("a")
        self.emit(f"{a} = tf.add(2, 5)")
        self.bind(a, self.value("int"), "rebind")
        b = self.name("b")
        self.emit(f"{b} = {a} * 3")
        self.bind(b, self.value("int", {self.bound[a]}))

    def constant_tensor(self) -> None:
        """A tensor computed from constants only, which a run may feed (R1)."""
        n = self.name("c")
        self.emit(f"{n} = " + self.rng.choice(["tf.add(tf.constant([1.0, 2.0, 3.0]), 0.5)",
                                               "tf.constant([2.0, 2.0, 2.0]) * 1.5", "tf.ones([3]) - 0.25"]))
        self.bind(n, self.value("tensor"))

    def unpack_variables(self) -> None:
        """R2: variables made in a comprehension or a tuple, unpacked into names (one starred)."""
        r = self.rng.random()
        if r < 0.7:
            first = self.name("w")
            if r < 0.4:
                inits = self.rng.choice([("0.5", "-0.5"), ("np.ones(3, np.float32)", "np.zeros(3, np.float32)"),
                                         ("np.array([0.5, -1.0, 2.0], np.float32)", "0.1")])
                second = self.name("b")
                self.emit(f"{first}, {second} = [tf.Variable(v) for v in ({inits[0]}, {inits[1]})]")
            else:
                inits, second = ("np.ones(3, np.float32)", "0.5"), self.name("w")
                self.emit(f"({first}, {second}) = tf.Variable({inits[0]}), tf.Variable({inits[1]})")
            for n, init in zip((first, second), inits):
                self.bind(n, self.value("variable", scalar="np." not in init))
        else:
            first, rest = self.name("w"), self.name("rest")
            self.emit(f"{first}, *{rest} = [tf.Variable(np.full(3, v, np.float32)) for v in (0.5, -1.0, 2.0)]")
            self.bind(first, self.value("variable"))
            items = []
            for index in range(2):
                self.bind(f"{rest}[{index}]", self.value("variable"))
                items.append(self.bound[f"{rest}[{index}]"])
            self.bind(rest, self.value("list", items))
        self.features.add("unpack")

    def unpack_tensors(self) -> None:
        p, q = self.name("p"), self.name("q")
        if self.chance(0.4):
            (a, ra, sa), (b, rb, sb) = self.expression(1), self.expression(1)
            self.emit(f"{p}, {q} = {a}, {b}")
            self.bind(p, self.value("tensor", ra, sa))
            self.bind(q, self.value("tensor", rb, sb))
        else:
            (a, ra), (b, rb) = self.vector(), self.vector()
            self.emit(f"{p}, {q} = " + self.rng.choice([f"tf.unstack(tf.stack([{a}, {b}]))",
                                                         f"tf.split(tf.concat([{a}, {b}], 0), 2)"]))
            self.bind(p, self.value("tensor", ra | rb))
            self.bind(q, self.value("tensor", ra | rb))
        self.features.add("unpack")

    def augassign(self) -> None:
        n = self.rng.choice(self.live("placeholder", "tensor") or [self.computed()])
        old = self.values[self.bound[n]]
        op, (operand, reads, scalar) = self.rng.choice(["+=", "-=", "*="]), self.operand()
        if self.chance(0.5):
            operand, reads, scalar = self.rng.choice(["1.0", "0.5", "2.0"]), set(), True
        self.emit(f"{n} {op} {operand}")
        self.bind(n, self.value("tensor", {self.bound[n]} | reads, old.scalar and scalar), "augassign")

    def loop_carried(self) -> None:
        n = self.rng.choice(self.live("placeholder", "tensor") or [self.computed()])
        weights = self.live("variable")
        reads = {self.bound[n]}
        if weights and self.chance(0.4):
            chosen = self.rng.sample(weights, min(len(weights), self.rng.randint(1, 2)))
            loop = self.name("weight")
            self.emit(f"for {loop} in [{', '.join(chosen)}]:")
            self.emit(f"    {n} = tf.sigmoid({n} * {loop})")
        else:
            chosen = [self.rng.choice(weights)] if weights and self.chance(0.7) else []
            self.emit(f"for _ in range({self.rng.randint(1, 3)}):")
            self.emit(f"    {n} = tf.tanh({n} * {chosen[0] if chosen else '0.5'} + 0.1)")
        reads |= {self.bound[w] for w in chosen}
        scalar = all(self.values[v].scalar for v in reads)
        self.bind(n, self.value("tensor", reads, scalar), "loop-carried")

    def layer_callable(self) -> None:
        """A lambda, an alias of a TF function or a small helper, called as a layer here and in later expressions."""
        r = self.rng.random()
        if r < 0.4:
            f = self.name("act")
            self.emit(f"{f} = lambda t: " + self.rng.choice(["tf.nn.relu(t)", "tf.tanh(t) * 0.5", "t * tf.sigmoid(t)"]))
        elif r < 0.7:
            f = self.name("layer")
            self.prelude += [f"def {f}(t, scale=0.5):", "    return tf.sigmoid(t) * scale", "", ""]
        else:
            f = self.name("act")
            self.emit(f"{f} = " + self.rng.choice(["tf.nn.relu", "tf.tanh", "tf.nn.sigmoid"]))
        self.callables.append(f)
        self.features.add("layer-callable")
        n, (text, reads, scalar) = self.name("h"), self.expression(1)
        self.emit(f"{n} = {f}({text})")
        self.bind(n, self.value("tensor", reads, scalar))

    def var_helper(self) -> None:
        """R4: a module-level function that creates a variable at every call."""
        self.features.add("var-helper")
        if self.chance(0.3):
            if "weight" not in self.helpers:
                self.helpers["weight"] = fn = self.name("make_weight")
                self.prelude += [f"def {fn}(scale):", "    return tf.Variable(np.ones(3, np.float32) * scale)", "", ""]
            n = self.name("w")
            self.emit(f"{n} = {self.helpers['weight']}({self.rng.choice(['0.5', '2.0'])})")
            self.bind(n, self.value("variable"))
            return
        if "dense" not in self.helpers:
            self.helpers["dense"] = fn = self.name("dense")
            self.prelude += [f"def {fn}(inp, scale):",
                             "    w = tf.Variable(np.array([0.5, -1.0, 2.0], np.float32) * scale)",
                             "    return inp * w + 0.1", "", ""]
        text, reads = self.vector()
        for _ in range(self.rng.randint(1, 2)):
            text = f"{self.helpers['dense']}({text}, {self.rng.choice(['1.0', '0.5', '2.0'])})"
            reads = reads | {self.value("variable")}
        n = self.name("hidden")
        self.emit(f"{n} = {text}")
        self.bind(n, self.value("tensor", reads))

    def trainable(self) -> None:
        """R4: tf.trainable_variables() read: gradients of all of them, minimize over them, or their count."""
        if not any(v.kind == "variable" for v in self.values):
            self.variable()
        every = [i for i, v in enumerate(self.values) if v.kind == "variable"]
        self.features.add("trainable-variables")
        r = self.rng.random()
        if r < 0.5:
            total, grads = self.name("penalty"), self.name("grads")
            self.emit(f"{total} = tf.add_n([tf.reduce_sum(tf.square(v)) for v in tf.trainable_variables()])")
            self.bind(total, self.value("tensor", every, True))
            if self.chance(0.5):
                tvars = self.name("tvars")
                self.emit(f"{tvars} = tf.trainable_variables()")
                self.emit(f"{grads} = tf.gradients({total}, {tvars})")
            else:
                self.emit(f"{grads} = tf.gradients({total}, tf.trainable_variables())")
            self.bind(grads, self.value("list", {self.bound[total]}))
        elif r < 0.75 and self.losses():
            loss, n = self.rng.choice(self.losses()), self.name("train_op")
            self.emit(f"{n} = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum({loss}), "
                      "var_list=tf.trainable_variables())")
            self.bind(n, self.value("op", {self.bound[loss]}))
        else:
            self.emit(self.rng.choice(['print("variables:", len(tf.trainable_variables()))',
                                       "print([v.shape.as_list() for v in tf.trainable_variables()])"]))

    def injected_class(self) -> None:
        """R3: a class whose __init__ builds graph with a callable it is given: an activation, an optimizer class."""
        self.graph_class(injected=True)

    def plain_class(self) -> None:
        """The same class with its activation and optimizer written in: every value is knowable."""
        self.graph_class(injected=False)

    def graph_class(self, injected: bool) -> None:
        role = "injected" if injected else "plain"
        if role not in self.helpers:
            self.helpers[role] = cls = self.name("Block" if injected else "Model")
            own_input, with_opt = self.chance(0.5), self.chance(0.6)
            self.class_shape[role] = own_input, with_opt
            params = ["self"] + ([] if own_input else ["inp"])
            params += (["act"] + (["make_opt"] if with_opt else [])) if injected else []
            act = "act" if injected else self.rng.choice(["tf.tanh", "tf.nn.relu", "tf.sigmoid"])
            make_opt = "make_opt" if injected else self.rng.choice(["tf.train.GradientDescentOptimizer",
                                                                    "tf.train.AdamOptimizer"])
            self.prelude += [f"class {cls}:", f"    def __init__({', '.join(params)}):"]
            if own_input:
                self.prelude.append("        self.x = tf.placeholder(tf.float32, [3])")
            self.prelude += ["        self.w = tf.Variable(np.array([0.5, -1.0, 2.0], np.float32))",
                             f"        self.out = {act}({'self.x' if own_input else 'inp'} * self.w)",
                             "        self.loss = tf.reduce_sum(tf.square(self.out - 1.0))"]
            if with_opt:
                self.prelude.append(f"        self.step = {make_opt}(0.1).minimize(self.loss)")
            self.prelude += ["", ""]
        own_input, with_opt = self.class_shape[role]
        net, args, reads = self.name("net"), [], set()
        if own_input:
            self.bind(f"{net}.x", self.value("placeholder"))
            reads = {self.bound[f"{net}.x"]}
        else:
            text, reads = self.vector()
            args.append(text)
        if injected:
            args.append(self.rng.choice(["tf.tanh", "tf.nn.relu", "tf.sigmoid", "lambda t: t * 2.0"]))
            if with_opt:
                args.append(self.rng.choice(["tf.train.GradientDescentOptimizer", "tf.train.AdamOptimizer"]))
        self.emit(f"{net} = {self.helpers[role]}({', '.join(args)})")
        self.bind(f"{net}.w", self.value("variable"))
        self.bind(f"{net}.out", self.value("tensor", reads | {self.bound[f'{net}.w']}))
        self.bind(f"{net}.loss", self.value("tensor", {self.bound[f"{net}.out"]}, True))
        if with_opt:
            self.bind(f"{net}.step", self.value("op", {self.bound[f"{net}.loss"]}))
        self.features.add("injected-callable" if injected else "class-graph")

    def with_default(self) -> None:
        """R5: placeholder_with_default with a numpy default; a later run fetches a dict."""
        n, y = self.name("x"), self.name("y")
        default = self.rng.choice(["np.ones(3, np.float32)", "np.array([1.0, 2.0, 3.0], np.float32)",
                                   "np.arange(3, dtype=np.float32)"])
        self.emit(f"{n} = tf.placeholder_with_default({default}, shape=[3])")
        self.bind(n, self.value("default"))
        operand, reads, _ = self.operand()
        text, reads = self.rng.choice([(f"{n} * 2.0", set()), (f"tf.tanh({n})", set()), (f"{n} + {operand}", reads)])
        self.emit(f"{y} = {text}")
        self.bind(y, self.value("tensor", {self.bound[n]} | reads))
        self.dict_fetch = True
        self.features.add("with-default")

    # -- choosing ----------------------------------------------------------------
    def graph_statement(self) -> None:
        table = [(self.placeholder, 2, ""), (self.variable, 3, ""), (self.computed, 6, ""), (self.gradients, 2, ""),
                 (self.optimizer, 2, ""), (self.assign, 1.5, ""), (self.scoped_block, 1, ""),
                 (self.helper_function, 0.7, ""), (self.rebind, 1, "rebind"), (self.int_tensor, 0.4, "fed-tensor"),
                 (self.constant_tensor, 0.6, "fed-tensor"), (self.unpack_variables, 0.6, "unpack"),
                 (self.unpack_tensors, 0.6, "unpack"), (self.augassign, 0.7, "augassign"),
                 (self.loop_carried, 0.6, "loop-carried"), (self.layer_callable, 0.7, "layer-callable"),
                 (self.var_helper, 0.8, "var-helper"), (self.trainable, 0.6, "trainable-variables"),
                 (self.injected_class, 0.3, "injected-callable"), (self.plain_class, 0.3, "class-graph"),
                 (self.with_default, 0.4, "with-default")]
        table = [(make, weight) for make, weight, feature in table if not feature or self.allowed(feature)]
        self.rng.choices([make for make, _ in table], weights=[weight for _, weight in table])[0]()

    def realize(self, feature: str) -> None:
        """A statement that gives the program ``feature`` (or prepares a run that will)."""
        if feature == "fed-tensor":
            self.rng.choice([self.constant_tensor, self.int_tensor])()
        elif feature == "int-feed":
            self.placeholder()
        elif feature == "unpack":
            self.rng.choice([self.unpack_variables, self.unpack_tensors])()
        elif feature not in ("in-main", "graph-after-session"):
            {"rebind": self.rebind, "augassign": self.augassign, "loop-carried": self.loop_carried,
             "layer-callable": self.layer_callable, "var-helper": self.var_helper, "trainable-variables": self.trainable,
             "injected-callable": self.injected_class, "class-graph": self.plain_class,
             "with-default": self.with_default}[feature]()

    # -- running -------------------------------------------------------------------
    def feed_value(self, name: str, force_int: bool = False) -> str:
        value = self.values[self.bound[name]]
        if value.kind == "int":
            return self.rng.choice(["15", "np.int32(4)", "-3"])
        if self.allowed("int-feed") and (force_int or self.chance(0.15)):
            self.features.add("int-feed")  # TF1 converts the ints to the fed tensor's float32
            return "3" if value.scalar else self.rng.choice(["[1, 2, 3]", "np.arange(3)"])
        return self.rng.choice(["0.5", "np.float32(2.0)"]) if value.scalar else self.rng.choice(_VECTORS)

    def feed_plan(self) -> Dict[str, str]:
        """Every placeholder a name still reaches, some defaults, and (R1) now and then a tensor fed instead."""
        feed = {}
        for n in self.live("placeholder"):
            feed[n] = self.feed_value(n, force_int="int-feed" in self.force - self.features)
        feed.update({n: self.feed_value(n) for n in self.live("default") if self.chance(0.5)})
        if self.allowed("fed-tensor"):
            candidates = [n for n in self.live("tensor", "int") if not self.variables_under(self.bound[n])]
            if candidates and ("fed-tensor" in self.force - self.features or self.chance(0.2)):
                n = self.rng.choice(candidates)
                feed[n] = self.feed_value(n)
                self.features.add("fed-tensor")
        return feed

    def fetches(self, pool: List[str], depth: int = 0) -> str:
        r = self.rng.random()
        if self.dict_fetch and depth == 0:
            self.dict_fetch = False
            return "{" + ", ".join(f'"k{i}": {n}' for i, n in enumerate(self.rng.sample(pool, min(2, len(pool))))) + "}"
        if depth > 1 or r < 0.35:
            return self.rng.choice(pool)
        items = [self.fetches(pool, depth + 1) for _ in range(self.rng.randint(1, 3))]
        if r < 0.6:
            return "[" + ", ".join(items) + "]"
        if r < 0.75:
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if r < 0.92:
            return "{" + ", ".join(f'"k{i}": {item}' for i, item in enumerate(items)) + "}"
        return f"Pair({self.fetches(pool, depth + 1)}, {self.fetches(pool, depth + 1)})"

    def run_statement(self, sess: str) -> None:
        """One sess.run; an op only alone (TF1 leaves the order of an update and a read of its variable open)."""
        feed = self.feed_plan()
        fed = {self.bound[n] for n in feed}
        ops = [n for n in self.live("op") if self.runnable_with(self.bound[n], fed)]
        pool = [n for n in self.live(*_FETCHED) if self.runnable_with(self.bound[n], fed)]
        if ops and (not pool or self.chance(0.3)):
            op = self.rng.choice(ops)
            fetch = self.rng.choice([op, f"[{op}]"])
        else:
            fetch = self.fetches(pool) if pool else "tf.constant([1.0, 2.0, 3.0])"
        feed_text = ", ".join(f"{n}: {v}" for n, v in feed.items())
        tail = "" if not feed else self.rng.choice([f", {{{feed_text}}}", f", feed_dict={{{feed_text}}}"])
        if self.allowed("unpack") and len(pool) > 1 and self.chance(0.1):
            items = self.rng.sample(pool, min(len(pool), self.rng.randint(2, 3)))
            first, rest = self.name("first"), self.name("rest")
            target = f"{first}, *{rest}" if len(items) > 2 or self.chance(0.3) else f"{first}, {rest}"
            self.emit(f"{target} = {sess}.run([{', '.join(items)}]{tail})")
            self.emit(f"show({first})")
            self.emit(f"show({rest})")
            self.features.add("unpack")
        elif self.chance(0.5):
            self.emit(f"show({sess}.run({fetch}{tail}))")
        else:
            self.emit(f"for step in range({self.rng.randint(1, 3)}):")
            self.emit(f"    show({sess}.run({fetch}{tail}))")

    def session_block(self) -> None:
        """A session; its initializer run is left out where there is no variable, now and then (R1)."""
        self.emit("with tf.Session() as sess:")
        self.depth += 1
        if any(v.kind == "variable" for v in self.values) or self.chance(0.5):
            if self.initialized:
                self.features.add("initialized-twice")
            self.emit("sess.run(tf.global_variables_initializer())")
            self.initialized = True
        for _ in range(self.rng.randint(1, 4)):
            self.run_statement("sess")
        self.depth -= 1


ALL_SHAPES = frozenset(FEATURES) | {"graph-after-session"}


def shaped_program(rng: random.Random, shapes: Iterable[str] = ALL_SHAPES, force: Iterable[str] = ()) -> ShapedProgram:
    """A TF1 program TF1 runs, drawing on the plain statements and the ``shapes`` allowed; it has those in ``force``."""
    force = tuple(force)
    p = _Shapes(rng, frozenset(shapes) | set(force), force)
    in_main = p.allowed("in-main") and ("in-main" in force or p.chance(0.3))
    phases = 2 if p.allowed("graph-after-session") and ("graph-after-session" in force or p.chance(0.3)) else 1
    base = p.depth = 1 if in_main else 0
    for phase in range(phases):
        count = rng.randint(max(3, len(force)), 9) if phase == 0 else rng.randint(1, 4)
        forced_at = dict(zip(sorted(rng.sample(range(count), len(force))), force)) if phase == 0 else {}
        for index in range(count):
            p.realize(forced_at[index]) if index in forced_at else p.graph_statement()
        p.session_block()
        p.depth = base
    if in_main:
        p.features.add("in-main")
    if phases == 2:
        p.features.add("graph-after-session")
    lines = _HEAD + p.prelude + (["def main():"] if in_main else []) + p.lines
    if in_main:
        lines += ["", "", 'if __name__ == "__main__":', "    main()"]
    return ShapedProgram("\n".join(lines) + "\n", frozenset(p.features))
