"""TF1 programs from a small grammar, mutations of the samples, and the invariants every run must keep.

Shared by ``tests/test_fuzz.py`` (a few hundred programs, derandomized) and
``benchmarks/fuzz_run.py`` (as many as asked). Every generator takes a
``random.Random``: a seed gives the same program again, and Hypothesis's
``st.randoms()`` can shrink the choices.

The invariants (:func:`check`), for a program written to a file and run
through ``runner.process`` the way ``tf-migrate -w`` runs it:

- nothing raises out of the engine except ``InputError`` (the runner marks
  any other exception "please report": a crash);
- a file reported failed keeps its bytes; a file written holds exactly the
  migration (nothing half-written);
- every output parses (LibCST and ``compile``); the engine's own fallback for
  output that does not parse counts too;
- running again on the output changes nothing (idempotence);
- an output reported eager has no Session or placeholder left, and no
  ``compat.v1`` name that no finding owns up to (README: RMSProp, Adadelta and
  Ftrl stay ``tf.compat.v1.train``, and so do Adam and Momentum on plain
  variables; symbols with no TF2 name are kept with a warning). Those owned are
  counted, not failed.

A fault the rewrite made that the engine's output self-check caught (the file
kept in compat mode or left as it was, with a ``self-check`` error finding) is
counted and listed as ``self-check``: the user's file is safe, but it is a bug.
"""
from __future__ import annotations

import ast
import json
import random
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from tests.fuzz_shapes import ShapedProgram, shaped_program

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.py")) + sorted((ROOT / "tests" / "golden").glob("*.py"))

# ---------------------------------------------------------------------------
# Grammar of TF1 fragments
# ---------------------------------------------------------------------------

_BASES = ["x", "y", "h", "z", "a", "b", "out", "logits", "pred", "loss", "err", "act", "feat", "t"]
_UNARY = ["tf.nn.relu", "tf.square", "tf.sigmoid", "tf.tanh", "tf.exp", "tf.abs", "tf.identity", "tf.negative"]
_REDUCE = ["tf.reduce_sum", "tf.reduce_mean", "tf.reduce_max"]
_OPTIMIZERS = [
    "tf.train.GradientDescentOptimizer({lr})", "tf.train.AdamOptimizer({lr})",
    "tf.train.AdamOptimizer(learning_rate={lr}, beta1=0.8)", "tf.train.MomentumOptimizer({lr}, 0.9)",
    "tf.train.AdagradOptimizer({lr})", "tf.train.RMSPropOptimizer({lr})",
    "tf.train.GradientDescentOptimizer(learning_rate={lr})",
]
_SCOPES = ['tf.name_scope("{n}")', 'tf.variable_scope("{n}")', 'tf.device("/cpu:0")']


class _Program:
    """Builds one program line by line, remembering what exists so later lines use it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: List[str] = []
        self.depth = 0
        self.placeholders: List[str] = []
        self.variables: List[str] = []
        self.tensors: List[str] = []
        self.ops: List[str] = []
        self.used = set()
        self.needs_collections = False

    # -- helpers ------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line if line else "")

    def name(self, base: Optional[str] = None) -> str:
        base = base or self.rng.choice(_BASES)
        for suffix in ["", *map(str, range(2, 100))]:
            if base + suffix not in self.used:
                self.used.add(base + suffix)
                return base + suffix
        raise AssertionError("out of names")

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def tensor(self) -> str:
        pool = self.tensors + self.placeholders + self.variables
        return self.rng.choice(pool) if pool else "tf.constant(1.0)"

    def expression(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth > 2 or r < 0.25:
            return self.tensor()
        if r < 0.45:
            return f"{self.rng.choice(_UNARY)}({self.expression(depth + 1)})"
        if r < 0.65:
            op = self.rng.choice(["+", "-", "*"])
            return f"{self.expression(depth + 1)} {op} {self.expression(depth + 1)}"
        if r < 0.75:
            return f"{self.expression(depth + 1)} * {self.rng.choice(['2.0', '0.5', '3', '-1.0'])}"
        if r < 0.85:
            return f"{self.rng.choice(_REDUCE)}({self.expression(depth + 1)})"
        if r < 0.92:
            return f"tf.matmul({self.expression(depth + 1)}, {self.expression(depth + 1)})"
        return f"tf.reduce_sum({self.expression(depth + 1)}, axis={self.rng.choice([0, 1, -1])})"

    def fetchable(self) -> str:
        pool = self.tensors + self.variables + self.ops
        return self.rng.choice(pool) if pool else self.tensor()

    def fetches(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth > 1 or r < 0.35:
            return self.fetchable()
        items = [self.fetches(depth + 1) for _ in range(self.rng.randint(1, 3))]
        if r < 0.6:
            return "[" + ", ".join(items) + "]"
        if r < 0.75:
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if r < 0.92:
            return "{" + ", ".join(f'"k{i}": {item}' for i, item in enumerate(items)) + "}"
        self.needs_collections = True
        return f"Pair({self.fetches(depth + 1)}, {self.fetches(depth + 1)})"

    def value(self) -> str:
        return self.rng.choice(["np.ones((4, 3), np.float32)", "np.zeros([2, 3])", "data", "1.0",
                                "[[1.0, 2.0, 3.0]]", "np.arange(6.0).reshape(2, 3)", "batch"])

    def feed(self) -> Optional[str]:
        if not self.placeholders:
            return None
        fed = self.rng.sample(self.placeholders, self.rng.randint(1, len(self.placeholders)))
        r = self.rng.random()
        if r < 0.75:
            return "{" + ", ".join(f"{p}: {self.value()}" for p in fed) + "}"
        if r < 0.9:
            return "feed"
        return "{p: v for p, v in zip([" + ", ".join(fed) + "], [" + ", ".join(self.value() for _ in fed) + "])}"

    # -- graph statements ---------------------------------------------------
    def placeholder(self) -> None:
        n = self.name(self.rng.choice(["x", "y", "inputs", "labels", "keep_prob", "lr_in"]))
        shape = self.rng.choice(["[None, 3]", "[None]", "shape=[2, 3]", "None", "(None, 3)", ""])
        dtype = self.rng.choice(["tf.float32", "tf.float32", "tf.float64", "tf.int32", "dtype=tf.float32"])
        if dtype.startswith("dtype=") and shape and not shape.startswith("shape="):
            shape = "shape=" + shape
        args = ", ".join(a for a in (dtype, shape, f'name="{n}"' if self.chance(0.4) else "") if a)
        self.emit(f"{n} = tf.placeholder({args})")
        self.placeholders.append(n)

    def variable(self) -> None:
        n = self.name(self.rng.choice(["W", "b", "w", "v", "bias", "kernel", "counter"]))
        r = self.rng.random()
        if r < 0.45:
            init = self.rng.choice(["tf.zeros([3, 3])", "tf.ones([3])", "tf.random_normal([3, 3], seed=1)",
                                    "tf.truncated_normal([3, 1], stddev=0.1)", "0.5", "np.eye(3, dtype=np.float32)"])
            extra = self.rng.choice(["", f', name="{n}"', ", trainable=False", ", dtype=tf.float32"])
            self.emit(f"{n} = tf.Variable({init}{extra})")
        elif r < 0.8:
            init = self.rng.choice(["tf.zeros_initializer()", "tf.constant_initializer(0.1)",
                                    "tf.random_normal_initializer(seed=2)", None])
            extra = f", initializer={init}" if init else ""
            self.emit(f'{n} = tf.get_variable("{n}", shape=[3, 3]{extra})')
        else:
            self.emit(f"{n} = tf.Variable(0, trainable=False)")
        self.variables.append(n)

    def computed(self) -> None:
        n = self.name()
        self.emit(f"{n} = {self.expression()}")
        self.tensors.append(n)

    def gradients(self) -> None:
        if not (self.tensors and (self.variables or self.placeholders)):
            return self.computed()
        ys = self.rng.choice(self.tensors)
        xs_pool = self.variables + self.placeholders
        xs = self.rng.sample(xs_pool, self.rng.randint(1, min(3, len(xs_pool))))
        xs_text = "[" + ", ".join(xs) + "]" if len(xs) > 1 or self.chance(0.5) else xs[0]
        extra = self.rng.choice(["", "", f", grad_ys={self.tensor()}", f", stop_gradients=[{self.tensor()}]",
                                 ", unconnected_gradients=tf.UnconnectedGradients.ZERO"])
        n = self.name("grads")
        if self.chance(0.3) and len(xs) == 1:
            self.emit(f"{n} = tf.gradients({ys}, {xs_text}{extra})[0]")
        else:
            self.emit(f"{n} = tf.gradients({ys}, {xs_text}{extra})")
        self.tensors.append(n)

    def optimizer(self) -> None:
        if not self.tensors:
            return self.computed()
        loss = self.rng.choice(self.tensors)
        opt = self.rng.choice(_OPTIMIZERS).format(lr=self.rng.choice(["0.1", "0.01", "1e-3", "lr"]))
        if "lr)" in opt or "=lr" in opt or "(lr" in opt:
            self.emit("lr = 0.05")
        n = self.name(self.rng.choice(["train_op", "train_step", "update", "step_op"]))
        r = self.rng.random()
        if r < 0.55:
            extra = self.rng.choice(["", ", global_step=global_step", f", var_list=[{self.variables[0]}]"
                                     if self.variables else ""])
            if "global_step" in extra and "global_step" not in self.used:
                self.used.add("global_step")
                self.emit("global_step = tf.Variable(0, trainable=False, name='global_step')")
            elif "global_step" in extra:
                extra = ""
            self.emit(f"{n} = {opt}.minimize({loss}{extra})")
        elif r < 0.8:
            o = self.name("opt")
            self.emit(f"{o} = {opt}")
            self.emit(f"{n} = {o}.minimize({loss})")
        else:
            o, g = self.name("opt"), self.name("grads_and_vars")
            self.emit(f"{o} = {opt}")
            self.emit(f"{g} = {o}.compute_gradients({loss})")
            if self.chance(0.5):
                self.emit(f"{g} = [(tf.clip_by_value(gr, -1.0, 1.0), v) for gr, v in {g}]")
            self.emit(f"{n} = {o}.apply_gradients({g})")
        self.ops.append(n)

    def assign(self) -> None:
        if not self.variables:
            return self.variable()
        v = self.rng.choice(self.variables)
        n = self.name(self.rng.choice(["assign_op", "bump", "reset", "inc"]))
        form = self.rng.choice([f"tf.assign({v}, {self.expression()})", f"tf.assign_add({v}, 1)",
                                f"{v}.assign({self.expression()})", f"{v}.assign_add({v} * 0.5)",
                                f"tf.assign_sub({v}, 0.1)"])
        self.emit(f"{n} = {form}")
        self.ops.append(n)

    def dropout(self) -> None:
        keep = self.rng.choice(["0.5", "keep_prob" if "keep_prob" in self.placeholders else "0.8"])
        n = self.name("drop")
        self.emit(f"{n} = tf.nn.dropout({self.tensor()}, {keep})")
        self.tensors.append(n)

    def control_flow(self) -> None:
        n = self.name()
        t = self.tensor()
        self.emit(self.rng.choice([
            f"{n} = tf.cond({t} > 0, lambda: {t} * 2.0, lambda: {t})",
            f"{n} = tf.map_fn(lambda e: e * 2.0, {t})",
            f"{n} = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)])",
        ]))
        self.tensors.append(n)

    def scoped_block(self) -> None:
        scope = self.rng.choice(_SCOPES).format(n=self.name("scope"))
        if self.ops and self.chance(0.3):
            scope = f"tf.control_dependencies([{self.rng.choice(self.ops)}])"
        self.emit(f"with {scope}:")
        self.depth += 1
        for _ in range(self.rng.randint(1, 3)):
            self.rng.choice([self.computed, self.variable, self.computed, self.gradients])()
        self.depth -= 1

    def loop_block(self) -> None:
        acc = self.name("layers")
        self.emit(f"{acc} = []")
        self.emit(f"for i in range({self.rng.randint(1, 4)}):")
        self.depth += 1
        self.emit(f"{acc}.append({self.expression()} * float(i))")
        self.depth -= 1
        n = self.name()
        self.emit(f"{n} = tf.add_n({acc})")
        self.tensors.append(n)

    def helper_function(self) -> None:
        fn = self.name(self.rng.choice(["build", "dense", "model", "forward"]))
        arg = self.name("inp")
        self.emit(f"def {fn}({arg}):")
        self.depth += 1
        if self.chance(0.3):
            self.emit('"""Builds part of the graph."""')
        self.emit(f"{'w_' + fn} = tf.Variable(tf.ones([3, 3]))")
        self.emit(f"return tf.matmul({arg}, {'w_' + fn}) + 1.0")
        self.depth -= 1
        self.emit("")
        n = self.name()
        self.emit(f"{n} = {fn}({self.tensor()})")
        self.tensors.append(n)

    def layers_or_legacy(self) -> None:
        n = self.name()
        t = self.tensor()
        self.emit(self.rng.choice([
            f"{n} = tf.layers.dense({t}, {self.rng.randint(1, 4)}, activation=tf.nn.relu)",
            f"{n} = tf.contrib.layers.flatten({t})",
            f"{n} = tf.nn.softmax_cross_entropy_with_logits_v2(labels={t}, logits={self.tensor()})",
            f"{n} = tf.clip_by_global_norm([{t}], 5.0)[0]",
            f"{n} = tf.stop_gradient({t})",
            f"{n} = tf.summary.scalar('{n}', tf.reduce_mean({t}))",
        ]))
        self.tensors.append(n)

    def saver(self) -> None:
        self.emit(f"{self.name('saver')} = tf.train.Saver()")

    def shadowing_function(self) -> None:
        """A user function whose name a generated one would take (run_<fetch>)."""
        if not self.tensors:
            return self.computed()
        self.emit(f"def run_{self.rng.choice(self.tensors)}():")
        self.emit("    return 'user code'")
        self.emit("")

    def python_noise(self) -> None:
        self.emit(self.rng.choice([
            "# a comment between graph statements", f"{self.name('n')} = 3", "",
            f"{self.name('cfg')} = {{'epochs': 2, 'lr': 0.1}}", f"print('building', {self.rng.randint(0, 9)})",
            f"{self.name('s')} = 1; {self.name('q')} = 2", f"{self.name('longname')} = (1 +\n    2)",
            f"assert {self.rng.randint(1, 3)} > 0",
        ]))

    def graph_statement(self) -> None:
        self.rng.choices(
            [self.placeholder, self.variable, self.computed, self.gradients, self.optimizer, self.assign,
             self.dropout, self.control_flow, self.scoped_block, self.loop_block, self.helper_function,
             self.python_noise, self.layers_or_legacy, self.saver, self.shadowing_function],
            weights=[3, 3, 6, 2, 2, 1.5, 0.5, 0.5, 1, 0.7, 0.7, 1.5, 0.4, 0.15, 0.3])[0]()

    # -- running --------------------------------------------------------------
    def run_call(self, sess: str) -> str:
        fetch = self.fetches()
        feed = self.feed()
        r = self.rng.random()
        if feed is None:
            return f"{sess}.run({fetch})"
        if r < 0.7:
            return f"{sess}.run({fetch}, feed_dict={feed})"
        return f"{sess}.run({fetch}, {feed})"

    def run_statement(self, sess: str, interactive: bool) -> None:
        r = self.rng.random()
        if interactive and r < 0.3 and (self.tensors or self.ops):
            feed = self.feed()
            arg = f"feed_dict={feed}" if feed else ""
            if self.ops and self.chance(0.4):
                self.emit(f"{self.rng.choice(self.ops)}.run({arg})")
            elif self.tensors:
                self.emit(f"print({self.rng.choice(self.tensors)}.eval({arg}))")
            return
        call = self.run_call(sess)
        r = self.rng.random()
        if r < 0.08 and self.tensors:
            fetch = self.rng.choice(self.tensors)
            self.emit(f"if ({self.name('got')} := {sess}.run({fetch})) is not None:")
            self.emit(f"    print(f\"{{{sess}.run({fetch})!r}} {{{fetch}=}}\")")
        elif r < 0.14 and self.tensors:
            fed = self.rng.choice(self.tensors)  # TF1 feeds any tensor, not only placeholders
            self.emit(f"print({sess}.run({self.fetchable()}, feed_dict={{{fed}: {self.value()}}}))")
        elif r < 0.2:
            total = self.name("total")
            self.emit(f"{total} = 0.0")
            self.emit(f"{total} += float(np.sum({call}))")
        elif r < 0.35:
            self.emit(f"print({call})")
        elif r < 0.65:
            self.emit(f"{self.name('result')} = {call}")
        elif r < 0.8:
            pair = f"[{self.fetchable()}, {self.fetchable()}]"
            feed = self.feed()
            self.emit(f"{self.name('v')}, {self.name('u')} = {sess}.run({pair}" + (f", {feed})" if feed else ")"))
        else:
            self.emit(f"for step in range({self.rng.randint(1, 5)}):")
            self.depth += 1
            self.emit(f"{self.name('val')} = {call}")
            if self.chance(0.5):
                self.emit("if step % 2 == 0:")
                self.emit("    print('step', step)")
            self.depth -= 1

    def session_block(self) -> None:
        style = self.rng.choice(["with", "with", "explicit", "interactive", "with-config", "as-default",
                                 "function"])
        sess = self.rng.choice(["sess", "session", "s"])
        if self.chance(0.3) and self.placeholders:
            self.emit("feed = {" + ", ".join(f"{p}: {self.value()}" for p in self.placeholders) + "}")
        init = self.rng.choice(["tf.global_variables_initializer()", "tf.initialize_all_variables()",
                                "tf.variables_initializer(tf.global_variables())", None])
        body = self.rng.randint(1, 4)
        if style.startswith("with"):
            config = "config=tf.ConfigProto(log_device_placement=False)" if style == "with-config" else ""
            self.emit(f"with tf.Session({config}) as {sess}:")
            self.depth += 1
            if init:
                self.emit(f"{sess}.run({init})")
            for _ in range(body):
                self.run_statement(sess, False)
            self.depth -= 1
        elif style == "explicit":
            self.emit(f"{sess} = tf.Session()")
            if init:
                self.emit(f"{sess}.run({init})")
            for _ in range(body):
                self.run_statement(sess, False)
            self.emit(f"{sess}.close()")
        elif style == "as-default":
            self.emit(f"{sess} = tf.Session()")
            self.emit(f"with {sess}.as_default():")
            self.depth += 1
            self.emit(f"{init or 'tf.global_variables_initializer()'}.run()")
            for _ in range(body):
                self.run_statement(sess, True)
            self.depth -= 1
        elif style == "function":
            fn = self.name("evaluate")
            self.emit(f"def {fn}({sess}):")
            self.depth += 1
            self.emit(f"return {self.run_call(sess)}")
            self.depth -= 1
            self.emit("")
            self.emit(f"with tf.Session() as {sess}:")
            self.emit(f"    {sess}.run(tf.global_variables_initializer())")
            self.emit(f"    print({fn}({sess}))")
        else:
            self.emit(f"{sess} = tf.InteractiveSession()")
            self.emit(f"{init or 'tf.global_variables_initializer()'}.run()")
            for _ in range(body):
                self.run_statement(sess, True)


def program(rng: random.Random, statements: Optional[int] = None) -> str:
    """A TF1 program: imports, a graph of ``statements`` statements (2-10), one or two sessions that run it."""
    p = _Program(rng)
    header = rng.choice([
        ["import numpy as np", "import tensorflow as tf"],
        ["import numpy as np", "import tensorflow as tf"],
        ["import numpy as np", "import tensorflow.compat.v1 as tf", "tf.disable_v2_behavior()"],
        ["import numpy as np", "import tensorflow.compat.v1 as tf", "tf.compat.v1.disable_eager_execution()"],
        ['"""Training script."""', "from __future__ import print_function", "import numpy as np",
         "import tensorflow as tf"],
    ])
    in_main = p.chance(0.25)
    if in_main:
        p.emit("def main():")
        p.depth = 1
    p.emit("data = np.ones((4, 3), np.float32)")
    p.emit("batch = np.arange(12.0).reshape(4, 3)")
    p.used.update({"data", "batch", "feed", "np", "tf", "i", "step", "main", "Pair", "lr", "graph"})
    own_graph = p.chance(0.12)
    if own_graph:
        p.emit("graph = tf.Graph()")
        p.emit("with graph.as_default():")
        p.depth += 1
    if p.chance(0.8):
        p.placeholder()
    if p.chance(0.1):
        n = p.name("rate")
        p.emit(f"{n} = tf.placeholder_with_default(0.5, shape=[])")
        p.placeholders.append(n)
    for _ in range(statements if statements is not None else rng.randint(2, 10)):
        p.graph_statement()
    if own_graph:
        p.depth -= 1
        p.emit("with tf.Session(graph=graph) as sess:")
        p.depth += 1
        p.emit("sess.run(tf.global_variables_initializer())" if p.variables else "pass")
        for _ in range(rng.randint(1, 3)):
            p.run_statement("sess", False)
        p.depth -= 1
    for _ in range(rng.choice([1, 1, 1, 2]) if not own_graph else rng.choice([0, 0, 1])):
        p.session_block()
    if p.chance(0.2):
        p.emit("print('done')")
    if in_main:
        p.depth = 0
        p.emit("")
        p.emit("")
        p.emit('if __name__ == "__main__":')
        p.emit("    main()")
    if p.needs_collections:
        header.insert(header.index("import numpy as np"), "import collections")
        header.append('Pair = collections.namedtuple("Pair", ["first", "second"])')
    text = "\n".join(header + [""] + p.lines) + "\n"
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    return text


# ---------------------------------------------------------------------------
# Mutations of real samples
# ---------------------------------------------------------------------------

_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_KEEP = {"tf", "np", "numpy", "tensorflow", "self", "print", "range", "len", "None", "True", "False", "import",
         "from", "as", "def", "return", "with", "for", "in", "if", "else", "elif", "while", "class", "lambda",
         "and", "or", "not", "is", "pass", "try", "except", "finally", "raise", "global", "nonlocal", "yield",
         "del", "assert", "break", "continue", "async", "await"}


def sample_source(path: Path) -> str:
    """A sample's program; for a golden file (input, ``# output``, expected), the input part."""
    return path.read_text().split("\n# output\n")[0] + "\n"


def sample_sources() -> List[str]:
    return [sample_source(path) for path in SAMPLES]


def mutate(source: str, rng: random.Random) -> str:
    """One to three edits: delete, duplicate or swap lines, or rename a variable everywhere."""
    lines = source.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["delete", "duplicate", "swap", "rename", "rename"])
        if len(lines) < 3:
            break
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            names = sorted({m.group(0) for m in _IDENT.finditer("\n".join(lines))} - _KEEP)
            if names:
                old = rng.choice(names)
                new = rng.choice(["renamed", "q", "placeholder_", "sess2", "run_" + old, old + "_2",
                                  "".join(rng.choice(string.ascii_lowercase) for _ in range(6))])
                pattern = re.compile(rf"(?<![\w.]){re.escape(old)}\b")
                lines = [pattern.sub(new, line) for line in lines]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Notebooks
# ---------------------------------------------------------------------------

def as_notebook(source: str, rng: random.Random) -> str:
    """The program split into code cells at top-level statement boundaries, with markdown and magics."""
    import nbformat

    lines = source.replace("\r\n", "\n").rstrip("\n").split("\n")
    cells, current = [], []
    for line in lines:
        top_level = line and not line[0].isspace() and not line.startswith((")", "]", "}", "else", "elif",
                                                                              "except", "finally"))
        if current and top_level and rng.random() < 0.3 and not _open_brackets("\n".join(current)):
            cells.append("\n".join(current))
            current = []
        current.append(line)
    cells.append("\n".join(current))
    nb = nbformat.v4.new_notebook()
    for index, body in enumerate(cells):
        if rng.random() < 0.2:
            nb.cells.append(nbformat.v4.new_markdown_cell(f"## Part {index}", id=f"md{index}"))
        if rng.random() < 0.15:
            body = rng.choice(["%matplotlib inline", "!echo hello", "%load_ext autoreload"]) + "\n" + body
        nb.cells.append(nbformat.v4.new_code_cell(body, id=f"code{index}"))
    return nbformat.writes(nb) + "\n"


def _open_brackets(text: str) -> bool:
    depth = 0
    for char in text:
        depth += char in "([{"
        depth -= char in ")]}"
    return depth != 0 or text.rstrip().endswith((":", "\\"))


# ---------------------------------------------------------------------------
# Invariants
# ---------------------------------------------------------------------------

OK = "ok"
INPUT_ERROR = "input-error"          # the documented refusal (syntax error, ...)
REFUSED = "refused"                  # --mode eager on a program that cannot go eager
# A fault the rewrite made that the output self-check caught: the file went compat (or, in --mode eager or
# compat, stayed as it was) with an error finding. The user's file is safe, so not a violation; still a bug.
SELF_CHECK = "self-check"
CRASH = "crash"                      # an exception escaped the engine
INTERNAL = "internal-error"          # a rule crashed; the engine kept the input
UNPARSEABLE = "unparseable-output"
NOT_IDEMPOTENT = "not-idempotent"
EAGER_LEFTOVER = "eager-leftover"    # Session / placeholder / compat.v1 in an eager output
LOST = "file-lost-or-half-written"
REJECTED_VALID = "rejected-valid-input"  # compile() accepts it, the engine calls it a syntax error
# Input LibCST parses but Python does not (``except X, e``, ``return`` outside a function): failed as it
# should, but as "internal error: output does not parse" at line 1 instead of an input error at its line.
MISREPORTED_INPUT = "invalid-input-reported-as-internal-error"
VIOLATIONS = (CRASH, INTERNAL, UNPARSEABLE, NOT_IDEMPOTENT, EAGER_LEFTOVER, LOST, REJECTED_VALID,
              MISREPORTED_INPUT, "wrong-rewrite", "compat-fails", "wrong-mode")


# Bugs the fuzzer found in code this suite does not own, each reported with a minimal reproducer
# (the strict xfail tests in tests/test_fuzz.py). The CI property tests let these through so that
# they flag new bugs only; the benchmark counts them with the rest. Remove an entry once its xfail passes.
KNOWN_ISSUES: Dict[str, Tuple[str, "re.Pattern[str]"]] = {
    # name: (verdict category, pattern of its detail). Fixed so far (their reproducers now guard them in
    # tests/test_fuzz.py): Saver kept as compat.v1 silently; Python-rejected input reported as an internal
    # error; minimize(inline loss) evaluated outside the tape; a second run of the summaries rule dropping
    # the tf.summary writes the first made; merge_all() of nothing crashing the summaries rule (KeyError).
}

@dataclass
class Verdict:
    category: str
    detail: str = ""
    outcome: str = ""
    compat_v1_kept: List[str] = field(default_factory=list)  # in an eager output, each with a finding

    @property
    def bad(self) -> bool:
        return self.category in VIOLATIONS

    @property
    def known_issue(self) -> str:
        """The name of the known issue this violation is an instance of, or ""."""
        for name, (category, pattern) in KNOWN_ISSUES.items():
            if self.category == category and pattern.search(self.detail):
                return name
        return ""


def check(folder: Path, source: str, kind: str = "py", mode: str = "auto", name: str = "prog") -> Verdict:
    """Write ``source`` under ``folder``, migrate it in place as ``tf-migrate -w`` does, check the invariants."""
    from tf_migrate import report
    from tf_migrate.runner import Options, process

    path = folder / f"{name}.{kind}"
    original = source.encode("utf-8")
    path.write_bytes(original)
    options = Options(mode=mode, write=True)
    first = process(path, options)
    after = path.read_bytes()
    errors = [f for f in first.findings if f.severity == "error"]
    if first.outcome == report.FAILED:
        if after != original:
            return Verdict(LOST, "a file reported failed was changed", first.outcome)
        return _classify_failure(source, kind, errors, first.outcome)
    if first.changed and after != first.new_source.encode("utf-8"):
        return Verdict(LOST, "the file written is not the migration reported", first.outcome)
    new = after.decode("utf-8")
    problem = _parse_problem(new, kind)
    if problem:
        return Verdict(UNPARSEABLE, problem, first.outcome)
    owned: List[str] = []
    if first.outcome == report.EAGER:
        leftover, owned = _eager_leftover(new, kind, first.findings)
        if leftover:
            return Verdict(EAGER_LEFTOVER, leftover, first.outcome)
    caught = "; ".join(f.message for f in first.findings if f.rule == "self-check")[:600]
    verdict = Verdict(SELF_CHECK, caught, first.outcome, owned) if caught else Verdict(OK, "", first.outcome, owned)
    if not first.changed:
        return verdict  # the same input again: the same answer
    second = process(path, options)
    if second.outcome == report.FAILED:
        detail = "; ".join(f.message for f in second.findings if f.severity == "error")
        return Verdict(NOT_IDEMPOTENT, f"the second run failed: {detail[:300]}", first.outcome)
    if path.read_bytes() != after:
        return Verdict(NOT_IDEMPOTENT, "".join(second.diffs)[:2000], first.outcome)
    return verdict


def _classify_failure(source: str, kind: str, errors, outcome: str) -> Verdict:
    messages = [f"{f.rule}: {f.message}" for f in errors]
    text = "; ".join(messages)[:600]
    if any(f.rule == "engine" and "please report" in f.message for f in errors):
        return Verdict(CRASH, text, outcome)
    if any(f.rule == "engine" and "output does not parse" in f.message for f in errors):
        if kind == "py" and not _compiles(source):
            return Verdict(MISREPORTED_INPUT, text, outcome)
        return Verdict(UNPARSEABLE, text, outcome)
    if any(f.rule == "engine" for f in errors):
        return Verdict(INTERNAL, text, outcome)
    if any(f.rule == "input" for f in errors):
        if kind == "py" and _compiles(source):
            return Verdict(REJECTED_VALID, text, outcome)
        return Verdict(INPUT_ERROR, text, outcome)
    if any(f.rule == "self-check" for f in errors):
        return Verdict(SELF_CHECK, text, outcome)
    if errors and all(f.rule == "eager-blocker" for f in errors):
        return Verdict(REFUSED, text, outcome)
    return Verdict(INTERNAL, text or "failed without an error finding", outcome)


def _compiles(source: str) -> bool:
    try:
        compile(source, "<fuzz>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _code_texts(text: str, kind: str) -> List[str]:
    if kind == "py":
        return [text]
    import nbformat

    from tf_migrate.notebook import _mask

    nb = nbformat.reads(text, as_version=4)
    return [_mask(cell.source, []) for cell in nb.cells if cell.cell_type == "code"]


def _parse_problem(text: str, kind: str) -> str:
    import libcst as cst

    try:
        codes = _code_texts(text, kind)
    except (json.JSONDecodeError, ValueError) as error:
        return f"the notebook written is not valid: {error}"
    for code in codes:
        try:
            cst.parse_module(code)
            compile(code, "<output>", "exec", dont_inherit=True)
        except (cst.ParserSyntaxError, SyntaxError) as error:
            return f"{type(error).__name__}: {error}"[:500]
    return ""


_EAGER_FORBIDDEN = {"Session", "InteractiveSession", "placeholder", "placeholder_with_default"}
_COMPAT_V1 = re.compile(r"compat\s*\.\s*v1((?:\s*\.\s*\w+)*)")


def _eager_leftover(text: str, kind: str, findings) -> Tuple[str, List[str]]:
    """(a silent leftover, or ""; the compat.v1 names kept that a finding owns up to).

    A finding owns ``compat.v1.a.b`` when it names it or a module above it (``compat.v1.a``)."""
    said = {m.group(0) for f in findings for m in _COMPAT_V1.finditer(f.message)} - {"compat.v1"}
    owned = []
    for code in _code_texts(text, kind):
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Attribute) and node.attr in _EAGER_FORBIDDEN:
                return f"line {node.lineno}: .{node.attr}", owned
        for match in _COMPAT_V1.finditer(_code_only(code)):
            name = "compat.v1" + re.sub(r"\s+", "", match.group(1))
            if not any(name == m or name.startswith(m + ".") for m in said):
                return f"{name} kept without a finding saying so", owned
            owned.append(name)
    return "", owned


def _code_only(code: str) -> str:
    """The code's names and operators, without strings and comments."""
    import io
    import tokenize

    kinds = (tokenize.NAME, tokenize.OP)
    return " ".join(t.string for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type in kinds)


# ---------------------------------------------------------------------------
# One case per seed, the same in the tests and the benchmark
# ---------------------------------------------------------------------------

MODES = ("auto", "auto", "auto", "auto", "eager", "compat")


@dataclass(frozen=True)
class Case:
    seed: int
    origin: str  # "grammar", "shapes" or "mutation of <sample>"
    kind: str    # "py" or "ipynb"
    mode: str
    source: str


def case(seed: int) -> Case:
    """Program number ``seed``: 55% from the grammar, 15% in the shapes of real code (``tests/fuzz_shapes.py``),
    30% a mutated sample; 15% of all as notebooks."""
    rng = random.Random(seed)
    draw = rng.random()
    if draw < 0.55:
        origin, source = "grammar", program(rng)
    elif draw < 0.7:
        origin, source = "shapes", shaped_program(rng).source
    else:
        path = rng.choice(SAMPLES)
        origin, source = f"mutation of {path.relative_to(ROOT)}", mutate(sample_source(path), rng)
    kind = "ipynb" if rng.random() < 0.15 else "py"
    if kind == "ipynb":
        source = as_notebook(source, rng)
    return Case(seed, origin, kind, rng.choice(MODES), source)


# ---------------------------------------------------------------------------
# Runnable programs (tests/fuzz_shapes.py): both ways, the expected mode, same numbers
# ---------------------------------------------------------------------------

WRONG_REWRITE = "wrong-rewrite"  # the legacy program runs; its eager migration raises or prints other numbers
COMPAT_FAILS = "compat-fails"    # the legacy program runs; its compat-mode output raises or prints other numbers
WRONG_MODE = "wrong-mode"        # right numbers, but not the mode the program's features call for
LEGACY_FAILS = "legacy-fails"    # the generated program does not run under TF1 either: nothing to compare
SEMANTIC_VIOLATIONS = (CRASH, INTERNAL, UNPARSEABLE, NOT_IDEMPOTENT, WRONG_REWRITE, COMPAT_FAILS, WRONG_MODE)


def check_semantics(program: ShapedProgram) -> Verdict:
    """Run the program under TF1 graph semantics and its migration (eagerly, or compat as TF1); compare.

    The verdict's outcome is the mode the migration got; a program also has to get its expected mode
    (``ShapedProgram.expected_mode``) and keep the invariants a second run checks (parses, idempotent)."""
    from tests.twins import assert_same_output, run_compat, run_legacy, run_migrated
    from tf_migrate import migrate_source

    source = program.source
    try:
        legacy = run_legacy(source)
    except Exception as error:  # noqa: BLE001 - a generated program TF1 itself rejects
        return Verdict(LEGACY_FAILS, f"{type(error).__name__}: {str(error)[:200]}")
    try:
        result = migrate_source(source, "runnable.py")
    except Exception as error:  # noqa: BLE001 - that is the finding
        return Verdict(CRASH, f"{type(error).__name__}: {error}"[:600])
    outcome = result.outcome
    if outcome not in ("eager", "compat"):
        detail = "; ".join(f"{f.rule}: {f.message}" for f in result.findings if f.severity == "error")
        return Verdict(INTERNAL, f"outcome {outcome}: {detail}"[:600], outcome)
    problem = _parse_problem(result.new_source, "py")
    if problem:
        return Verdict(UNPARSEABLE, problem, outcome)
    wrong = WRONG_REWRITE if outcome == "eager" else COMPAT_FAILS
    try:
        migrated = (run_migrated if outcome == "eager" else run_compat)(result.new_source)
    except Exception as error:  # noqa: BLE001 - that is the finding
        return Verdict(wrong, f"the migration raises {type(error).__name__}: {str(error)[:300]}", outcome)
    try:
        assert_same_output(legacy, migrated)
    except AssertionError:
        return Verdict(wrong, f"other output: legacy {legacy[:200]!r}, migrated {migrated[:200]!r}", outcome)
    if program.expected_mode not in (None, outcome):
        reasons = "; ".join(f.message for f in result.findings if f.rule == "eager-blocker")
        return Verdict(WRONG_MODE, f"{outcome}, expected {program.expected_mode} "
                                   f"(features {', '.join(sorted(program.features))}): {reasons}"[:600], outcome)
    if migrate_source(result.new_source, "runnable.py").new_source != result.new_source:
        return Verdict(NOT_IDEMPOTENT, "a second migration changes the output", outcome)
    return Verdict(OK, "", outcome)
