"""Generate a deterministic corpus of small, varied TF1 programs for speed benchmarks.

Every program is assembled from templates written for this project (no public
code): placeholders and ``sess.run`` loops, hand-written linear / softmax / MLP
models, the five common ``tf.train`` optimizers, ``tf.gradients``, helper
functions with a ``main()``, ``InteractiveSession`` + ``.eval()``, assign ops,
dropout, clipped gradients, fetch dicts, Jacobian loops, and (about one file in
six) a construct that may keep the file in compat mode (``tf.layers``,
``tf.summary``, ``Saver``, ``variable_scope`` reuse). Import styles vary
(``tensorflow``, ``tensorflow.compat.v1``, from-imports), and so does the
amount of plain-numpy helper code around the graph, so files range from about
40 to 115 lines (71 on average). Every program runs under TF1 semantics.

The same ``seed`` always gives byte-identical files.

    python benchmarks/make_corpus.py OUT_DIR [--files 210] [--notebooks 0] [--seed 0]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import List

OPTIMIZERS = (
    ("GradientDescentOptimizer", "{lr}"),
    ("AdamOptimizer", "learning_rate={lr}"),
    ("MomentumOptimizer", "{lr}, momentum=0.9"),
    ("AdagradOptimizer", "{lr}"),
    ("RMSPropOptimizer", "{lr}"),
)
ACTIVATIONS = ("tf.nn.relu", "tf.tanh", "tf.sigmoid", "tf.nn.elu")
IMPORT_STYLES = ("plain", "plain", "plain", "plain", "future", "compat_v1", "from_imports")
TRAIN_STYLES = ("with", "with", "with", "explicit", "interactive", "main")
COMPAT_FORCERS = ("layers", "summary", "saver", "scope_reuse")

HELPERS = (
    '''def standardize(a):
    """Zero mean, unit variance per column."""
    mean = a.mean(axis=0, keepdims=True)
    std = a.std(axis=0, keepdims=True) + 1e-8
    return (a - mean) / std
''',
    '''def iterate_minibatches(inputs, targets, batch_size, rng):
    order = rng.permutation(len(inputs))
    for start in range(0, len(inputs), batch_size):
        idx = order[start:start + batch_size]
        yield inputs[idx], targets[idx]
''',
    '''def moving_average(values, window=5):
    if len(values) < window:
        return float(np.mean(values)) if values else 0.0
    return float(np.mean(values[-window:]))
''',
    '''def describe(name, array):
    array = np.asarray(array)
    print("%s: shape=%s mean=%.4f std=%.4f" % (name, array.shape, array.mean(), array.std()))
''',
    '''def train_test_split(x, y, fraction, rng):
    order = rng.permutation(len(x))
    cut = int(len(x) * fraction)
    return x[order[cut:]], y[order[cut:]], x[order[:cut]], y[order[:cut]]
''',
    '''class History(object):
    """Keeps the losses seen during training."""

    def __init__(self):
        self.values = []

    def add(self, value):
        self.values.append(float(value))

    def best(self):
        return min(self.values) if self.values else None
''',
    '''def one_hot_np(labels, depth):
    out = np.zeros((len(labels), depth), dtype=np.float32)
    out[np.arange(len(labels)), labels] = 1.0
    return out
''',
)


def _indent(lines: List[str], depth: int) -> List[str]:
    pad = "    " * depth
    return [pad + line if line else line for line in lines]


class _Program:
    """One generated TF1 program; ``render()`` gives its source."""

    def __init__(self, index: int, rng: random.Random) -> None:
        self.index = index
        self.rng = rng
        self.kind = rng.choice(("linear", "linear", "softmax", "softmax", "mlp", "mlp", "mlp_fn"))
        self.import_style = rng.choice(IMPORT_STYLES)
        self.train_style = "main" if self.kind == "mlp_fn" else rng.choice(TRAIN_STYLES)
        if self.train_style == "main" and self.kind != "mlp_fn" and rng.random() < 0.5:
            self.train_style = "with"
        self.opt_name, opt_args = rng.choice(OPTIMIZERS)
        self.lr = rng.choice((0.001, 0.01, 0.05, 0.1, 0.5))
        self.opt_args = opt_args.format(lr=self.lr)
        self.n = rng.choice((64, 100, 128, 200, 256))
        self.d = rng.randint(2, 12)
        self.classes = rng.randint(2, 6)
        self.hidden = [rng.choice((8, 16, 32, 64)) for _ in range(rng.randint(1, 3))]
        self.act = rng.choice(ACTIVATIONS)
        self.epochs = rng.choice((5, 10, 20, 50))
        self.use_get_variable = rng.random() < 0.35
        self.extras = {e for e in ("grad_norm", "minibatch", "dropout", "fetch_dict", "counter", "clip", "jacobian")
                       if rng.random() < 0.25}
        if self.kind not in ("mlp", "mlp_fn"):
            self.extras.discard("dropout")
        if self.kind != "linear":
            self.extras.discard("jacobian")
        if self.train_style == "interactive":
            self.extras -= {"fetch_dict", "minibatch"}
        self.compat = rng.choice(COMPAT_FORCERS) if rng.random() < 0.17 else None
        self.helpers = rng.sample(HELPERS, rng.randint(0, len(HELPERS)))
        self.tf = "tf"

    # -- pieces -------------------------------------------------------------------------------
    def header(self) -> List[str]:
        lines = [f'"""Generated TF1 training script #{self.index:03d}: {self.kind} model, {self.opt_name}."""']
        if self.import_style == "future":
            lines += ["from __future__ import absolute_import, division, print_function", ""]
        lines.append("import numpy as np")
        if self.import_style == "compat_v1":
            lines += ["import tensorflow.compat.v1 as tf", "", "tf.disable_v2_behavior()"]
        else:
            lines.append("import tensorflow as tf")
        if self.import_style == "from_imports":
            lines.append("from tensorflow.train import " + self.opt_name)
        lines.append("")
        return lines

    def constants(self) -> List[str]:
        lines = [f"SEED = {self.index}", f"N_SAMPLES = {self.n}", f"N_FEATURES = {self.d}"]
        if self.kind != "linear":
            lines.append(f"N_CLASSES = {self.classes}")
        lines += [f"LEARNING_RATE = {self.lr}", f"EPOCHS = {self.epochs}"]
        if "minibatch" in self.extras:
            lines.append(f"BATCH_SIZE = {self.rng.choice((16, 32))}")
        return lines + ["", ""]

    def data(self) -> List[str]:
        lines = ["rng = np.random.RandomState(SEED)",
                 "x_data = rng.randn(N_SAMPLES, N_FEATURES).astype(np.float32)"]
        if self.kind == "linear":
            lines += ["true_w = rng.randn(N_FEATURES, 1).astype(np.float32)",
                      "y_data = x_data.dot(true_w) + 0.1 * rng.randn(N_SAMPLES, 1).astype(np.float32)"]
        else:
            lines += ["proj = rng.randn(N_FEATURES, N_CLASSES)",
                      "labels = np.argmax(x_data.dot(proj), axis=1)",
                      "y_data = np.eye(N_CLASSES, dtype=np.float32)[labels]"]
        return lines + [""]

    def variable(self, name: str, shape: str, stddev: float) -> str:
        seed = self.rng.randint(1, 999)
        if self.use_get_variable:
            init = self.rng.choice((f"tf.truncated_normal_initializer(stddev={stddev}, seed={seed})",
                                    f"tf.random_normal_initializer(stddev={stddev}, seed={seed})",
                                    "tf.zeros_initializer()" if name.startswith("b") else
                                    f"tf.random_uniform_initializer(-{stddev}, {stddev}, seed={seed})"))
            return f'{name} = tf.get_variable("{name}", {shape}, initializer={init})'
        if name.startswith("b"):
            return f'{name} = tf.Variable(tf.zeros({shape}), name="{name}")'
        init = self.rng.choice(("tf.random_normal", "tf.truncated_normal"))
        return f'{name} = tf.Variable({init}({shape}, stddev={stddev}, seed={seed}), name="{name}")'

    def placeholders(self) -> List[str]:
        out = "1" if self.kind == "linear" else "N_CLASSES"
        lines = [f'X = tf.placeholder(tf.float32, [None, N_FEATURES], name="X")',
                 f'Y = tf.placeholder(tf.float32, [None, {out}], name="Y")']
        if "dropout" in self.extras:
            lines.append('keep_prob = tf.placeholder(tf.float32, name="keep_prob")')
        return lines

    def model(self) -> List[str]:
        """Graph lines from the placeholders to ``loss`` (module level or function body)."""
        lines: List[str] = []
        self.weights: List[str] = []
        if self.kind == "linear":
            lines += [self.variable("W", "[N_FEATURES, 1]", 0.1), self.variable("b", "[1]", 0.1),
                      "pred = tf.matmul(X, W) + b",
                      "loss = tf.reduce_mean(tf.square(pred - Y))"]
            self.weights = ["W", "b"]
            return lines
        sizes = ["N_FEATURES"] + ([str(h) for h in self.hidden] if self.kind != "softmax" else [])
        prev = "X"
        for i in range(len(sizes) - 1):
            lines += [self.variable(f"W{i}", f"[{sizes[i]}, {sizes[i + 1]}]", 0.1),
                      self.variable(f"b{i}", f"[{sizes[i + 1]}]", 0.1),
                      f"h{i} = {self.act}(tf.matmul({prev}, W{i}) + b{i})"]
            prev = f"h{i}"
            self.weights += [f"W{i}", f"b{i}"]
            if "dropout" in self.extras and i == len(sizes) - 2:
                lines.append(f"{prev} = tf.nn.dropout({prev}, keep_prob)")
        last = len(sizes) - 1
        lines += [self.variable(f"W{last}", f"[{sizes[-1]}, N_CLASSES]", 0.1),
                  self.variable(f"b{last}", "[N_CLASSES]", 0.1),
                  f"logits = tf.matmul({prev}, W{last}) + b{last}",
                  "loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=Y, logits=logits))",
                  "correct = tf.equal(tf.argmax(logits, 1), tf.argmax(Y, 1))",
                  "accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))"]
        self.weights += [f"W{last}", f"b{last}"]
        return lines

    def optimizer(self) -> List[str]:
        opt = self.opt_name if self.import_style == "from_imports" else f"tf.train.{self.opt_name}"
        lines = []
        if "counter" in self.extras:
            lines += ['epoch_counter = tf.Variable(0, trainable=False, name="epoch_counter")',
                      "increment_epoch = tf.assign_add(epoch_counter, 1)"]
        if "clip" in self.extras:
            lines += [f"optimizer = {opt}({self.opt_args})",
                      "grads_and_vars = optimizer.compute_gradients(loss)",
                      "clipped = [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in grads_and_vars]",
                      "train_op = optimizer.apply_gradients(clipped)"]
        elif self.rng.random() < 0.5:
            lines.append(f"train_op = {opt}({self.opt_args}).minimize(loss)")
        else:
            lines += [f"optimizer = {opt}({self.opt_args})", "train_op = optimizer.minimize(loss)"]
        if "grad_norm" in self.extras:
            params = "params" if self.kind == "mlp_fn" else "[" + ", ".join(self.weights) + "]"
            lines += [f"grads = tf.gradients(loss, {params})",
                      "grad_norm = tf.global_norm(grads)"]
        if "jacobian" in self.extras:
            lines += ["# one tf.gradients per output row: a Jacobian the slow way",
                      "rows = [tf.gradients(pred[i, 0], X)[0] for i in range(4)]"]
        return lines

    def compat_lines(self) -> List[str]:
        if self.compat == "layers":
            return ['extra = tf.layers.dense(X, 4, activation=tf.nn.relu, name="extra_dense")',
                    "extra_mean = tf.reduce_mean(extra)"]
        if self.compat == "summary":
            return ['tf.summary.scalar("loss", loss)', "merged = tf.summary.merge_all()"]
        if self.compat == "saver":
            return ["saver = tf.train.Saver()"]
        if self.compat == "scope_reuse":
            return ['with tf.variable_scope("shared"):',
                    '    shared_w = tf.get_variable("w", [N_FEATURES, 1])',
                    'with tf.variable_scope("shared", reuse=True):',
                    '    shared_again = tf.get_variable("w", [N_FEATURES, 1])',
                    "shared_out = tf.matmul(X, shared_again)"]
        return []

    def feed(self, x: str = "x_data", y: str = "y_data", train: bool = True) -> str:
        items = [f"X: {x}", f"Y: {y}"]
        if "dropout" in self.extras:
            items.append(f"keep_prob: {0.8 if train else 1.0}")
        return "{" + ", ".join(items) + "}"

    def training(self, sess: str) -> List[str]:
        """Lines that train and report, using session name ``sess`` (interactive: .run/.eval)."""
        metric = "loss" if self.kind == "linear" else "accuracy"
        lines = ["history = []", "for epoch in range(EPOCHS):"]
        body: List[str] = []
        if self.train_style == "interactive":
            body += [f"train_op.run(feed_dict={self.feed()})",
                     f"value = loss.eval(feed_dict={self.feed(train=False)})"]
        elif "minibatch" in self.extras:
            body += ["for start in range(0, N_SAMPLES, BATCH_SIZE):",
                     "    xb = x_data[start:start + BATCH_SIZE]",
                     "    yb = y_data[start:start + BATCH_SIZE]",
                     f"    {sess}.run(train_op, feed_dict={self.feed('xb', 'yb')})",
                     f"value = {sess}.run(loss, feed_dict={self.feed(train=False)})"]
        elif self.rng.random() < 0.3:
            body += [f"_, value = {sess}.run([train_op, loss], {self.feed()})"]
        else:
            body += [f"_, value = {sess}.run([train_op, loss], feed_dict={self.feed()})"]
        if "counter" in self.extras:
            body.append("increment_epoch.eval()" if self.train_style == "interactive"
                        else f"{sess}.run(increment_epoch)")
        body += ["history.append(value)",
                 "if epoch % max(1, EPOCHS // 5) == 0:",
                 '    print("epoch %d loss %.5f" % (epoch, value))']
        lines += _indent(body, 1)
        if self.train_style == "interactive":
            lines.append(f'print("final {metric}:", {metric}.eval(feed_dict={self.feed(train=False)}))')
        elif "fetch_dict" in self.extras:
            lines += [f'final = {sess}.run({{"loss": loss, "{metric}": {metric}}}, feed_dict={self.feed(train=False)})',
                      'print("final", sorted(final.items()))']
        else:
            lines.append(f'print("final {metric}:", {sess}.run({metric}, feed_dict={self.feed(train=False)}))')
        if "grad_norm" in self.extras:
            run = (f"grad_norm.eval(feed_dict={self.feed(train=False)})" if self.train_style == "interactive"
                   else f"{sess}.run(grad_norm, feed_dict={self.feed(train=False)})")
            lines.append(f'print("gradient norm:", {run})')
        if "jacobian" in self.extras:
            lines.append(f"jac = {sess}.run(rows, feed_dict={{X: x_data[:4]}})" if self.train_style != "interactive"
                         else "jac = [r.eval(feed_dict={X: x_data[:4]}) for r in rows]")
            lines.append('print("jacobian rows:", [np.round(r[i], 3).tolist() for i, r in enumerate(jac)])')
        if "counter" in self.extras:
            lines.append(f'print("epochs run:", {sess}.run(epoch_counter))' if self.train_style != "interactive"
                         else 'print("epochs run:", epoch_counter.eval())')
        weights = "params[0]" if self.kind == "mlp_fn" else self.weights[0]
        lines.append(f'print("{self.weights[0]}:", np.round({sess}.run({weights}), 3).ravel()[:5])'
                     if self.train_style != "interactive" else
                     f'print("{weights}:", np.round({weights}.eval(), 3).ravel()[:5])')
        if self.compat == "summary":
            lines.insert(0, 'writer = tf.summary.FileWriter("/tmp/tf1_corpus_logs", ' + sess + ".graph)")
            lines.append(f"writer.add_summary({sess}.run(merged, feed_dict={self.feed(train=False)}), EPOCHS)")
        elif self.compat == "saver":
            lines.append(f'saver.save({sess}, "/tmp/tf1_corpus_ckpt/model.ckpt")')
        elif self.compat == "layers":
            lines.append(f'print("extra:", {sess}.run(extra_mean, feed_dict={{X: x_data}}))')
        elif self.compat == "scope_reuse":
            lines.append(f'print("shared:", {sess}.run(shared_out, feed_dict={{X: x_data[:2]}}).ravel())')
        return lines

    # -- assembly -------------------------------------------------------------------------------
    def session_block(self, graph: List[str]) -> List[str]:
        init = "tf.global_variables_initializer()"
        if self.train_style == "with":
            return graph + ["", "with tf.Session() as sess:", f"    sess.run({init})"] + _indent(self.training("sess"), 1)
        if self.train_style == "explicit":
            return graph + ["", "sess = tf.Session()", f"sess.run({init})"] + self.training("sess") + ["sess.close()"]
        if self.train_style == "interactive":
            return ["sess = tf.InteractiveSession()"] + graph + ["", f"{init}.run()"] + self.training("sess") + [
                "sess.close()"]
        # main(): the graph is built inside the function
        return (["def main():"] + _indent(graph, 1) + ["", "    with tf.Session() as sess:",
                                                       f"        sess.run({init})"]
                + _indent(self.training("sess"), 2) + ["", "", 'if __name__ == "__main__":', "    main()"])

    def render(self) -> str:
        lines = self.header() + self.constants()
        for helper in self.helpers:
            lines += helper.rstrip("\n").splitlines() + ["", ""]
        if self.kind == "mlp_fn":
            model = self.model()
            loss_at = next(i for i, line in enumerate(model) if line.startswith("logits = "))
            lines += ["def build_model(X" + (", keep_prob" if "dropout" in self.extras else "") + "):",
                      '    """Hidden layers and logits."""']
            lines += _indent(model[:loss_at + 1], 1) + [f"    return logits, [{', '.join(self.weights)}]", "", ""]
            model_call = "logits, params = build_model(X" + (", keep_prob" if "dropout" in self.extras else "") + ")"
            graph = self.data() + self.placeholders() + [model_call] + model[loss_at + 1:]
        else:
            graph = self.data() + self.placeholders() + self.model()
        graph += self.optimizer() + self.compat_lines()
        lines += self.session_block(graph)
        return "\n".join(lines).rstrip("\n") + "\n"


def program(index: int, seed: int = 0) -> str:
    """Source of program ``index`` (deterministic)."""
    return _Program(index, random.Random(seed * 100003 + index)).render()


def notebook(index: int, seed: int = 0) -> str:
    """The same kind of program split into notebook cells at blank lines (nbformat 4 JSON)."""
    source = program(index, seed)
    chunks = [c for c in source.split("\n\n") if c.strip()]
    cells = [{"cell_type": "markdown", "id": f"md{index}", "metadata": {},
              "source": [f"# Generated TF1 notebook #{index:03d}"]}]
    for number, chunk in enumerate(chunks):
        text = chunk.strip("\n") + "\n"
        cells.append({"cell_type": "code", "execution_count": None, "id": f"c{index}-{number}", "metadata": {},
                      "outputs": [], "source": text.splitlines(True)})
    return json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                   "language": "python"}},
                       "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def build(out_dir: Path, files: int = 210, notebooks: int = 0, seed: int = 0) -> List[Path]:
    """Write the corpus under ``out_dir`` (in a few sub-folders, like a real project); return the paths."""
    written: List[Path] = []
    for index in range(files):
        path = out_dir / f"part{index % 4}" / f"train_{index:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(program(index, seed), encoding="utf-8")
        written.append(path)
    for index in range(notebooks):
        path = out_dir / "notebooks" / f"nb_{index:03d}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(notebook(files + index, seed), encoding="utf-8")
        written.append(path)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--files", type=int, default=210)
    parser.add_argument("--notebooks", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    paths = build(args.out_dir, args.files, args.notebooks, args.seed)
    lines = sum(p.read_text(encoding="utf-8").count("\n") for p in paths if p.suffix == ".py")
    print(f"{len(paths)} files ({lines} lines of .py) under {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
