"""Methods that build a graph and run it in a session they open themselves (``fit`` of a scikit-learn-like model
class): each converts as a function scope whose parameters include ``self`` (analysis/session_methods)."""
from __future__ import annotations

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import assert_same_output, run_legacy, run_migrated

PROGRAM = """import numpy as np
import tensorflow as tf


class HiddenLayer(object):
    def __init__(self, M1, M2):
        W = np.random.randn(M1, M2) * np.sqrt(2.0 / M1)
        self.W = tf.Variable(W.astype(np.float32))
        self.b = tf.Variable(np.zeros(M2).astype(np.float32))
        self.params = [self.W, self.b]

    def forward(self, X):
        return tf.nn.relu(tf.matmul(X, self.W) + self.b)


class ANN(object):
    def __init__(self, hidden_layer_sizes):
        self.hidden_layer_sizes = hidden_layer_sizes

    def fit(self, X, Y, lr=1e-2, epochs=5, batch_sz=10):
        X = X.astype(np.float32)
        Y = Y.astype(np.int64)
        N, D = X.shape
        K = len(set(Y))
        self.hidden_layers = []
        M1 = D
        for M2 in self.hidden_layer_sizes:
            h = HiddenLayer(M1, M2)
            self.hidden_layers.append(h)
            M1 = M2
        W = np.random.randn(M1, K) * np.sqrt(2.0 / M1)
        self.W = tf.Variable(W.astype(np.float32))
        self.b = tf.Variable(np.zeros(K).astype(np.float32))
        inputs = tf.placeholder(tf.float32, shape=(None, D), name='inputs')
        labels = tf.placeholder(tf.int64, shape=(None,), name='labels')
        logits = self.forward(inputs)
        cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=labels))
        train_op = tf.train.MomentumOptimizer(lr, momentum=0.9).minimize(cost)
        prediction = self.predict(inputs)
        n_batches = N // batch_sz
        costs = []
        init = tf.global_variables_initializer()
        with tf.Session() as session:
            session.run(init)
            for i in range(epochs):
                for j in range(n_batches):
                    Xbatch = X[j*batch_sz:(j*batch_sz+batch_sz)]
                    Ybatch = Y[j*batch_sz:(j*batch_sz+batch_sz)]
                    session.run(train_op, feed_dict={inputs: Xbatch, labels: Ybatch})
                c = session.run(cost, feed_dict={inputs: X, labels: Y})
                p = session.run(prediction, feed_dict={inputs: X})
                costs.append(c)
                print("epoch", i, "cost", c, "accuracy", np.mean(p == Y))
        return costs

    def forward(self, X):
        Z = X
        for h in self.hidden_layers:
            Z = h.forward(Z)
        return tf.matmul(Z, self.W) + self.b

    def predict(self, X):
        return tf.argmax(self.forward(X), 1)


def main():
    np.random.seed(0)
    X = np.random.randn(60, 5)
    Y = (X[:, 0] + X[:, 1] > 0).astype(np.int32) + (X[:, 2] > 0.5).astype(np.int32)
    model = ANN([8, 6])
    costs = model.fit(X, Y)
    print(len(costs))


if __name__ == '__main__':
    main()
"""


def test_a_fit_method_opening_its_session_converts_in_place():
    result = migrate_source(PROGRAM, "ann.py")
    assert result.outcome == "eager", result.compat_reason
    new = result.new_source
    fit = new.split("    def fit(", 1)[1].split("    def forward(", 1)[0]
    assert "Session" not in new and "placeholder" not in new
    assert "        def run_train_op(inputs, labels):\n" in fit  # its run functions are defined in it
    assert "variables = [*(v for obj in self.hidden_layers for v in (obj.W, obj.b)), self.W, self.b]" in fit
    assert "call_compiled(run_train_op, inputs=Xbatch, labels=Ybatch)" in fit
    assert "    def predict(self, X):\n        return tf.argmax(self.forward(X), 1)\n" in new  # its helpers stay
    assert_same_output(run_legacy(PROGRAM), run_migrated(new))


@pytest.mark.parametrize("change, reason", [
    (("    def predict(self, X):\n        return tf.argmax(self.forward(X), 1)",
      "    def predict(self, X):\n        return tf.argmax(tf.matmul(self.forward(X), tf.Variable(tf.eye(3))), 1)"),
     "`predict`, a helper of the graph `fit` builds, makes variables or placeholders: TF1 made them at each call"),
    (("    def predict(self, X):",
      "    def score(self, X):\n        with tf.Session() as session:\n"
      "            session.run(tf.global_variables_initializer())\n"
      "            return session.run(self.forward(tf.constant(X)))\n\n    def predict(self, X):"),
     "`fit` and `score` each open a session on the object's graph"),
    (("        logits = self.forward(inputs)\n", "        self.logits = logits = self.forward(inputs)\n"),
     "`fit` keeps the per-run value `self.logits` on the object"),
    (("def main():\n", "scale = tf.Variable(2.0)\n\n\ndef main():\n"),
     "`fit` opens a session whose initializer run reset `scale`, a variable of the code around the class"),
], ids=["a helper making variables", "two methods opening sessions", "a per-run value kept on the object",
        "a variable of the module the method's initializer reset"])
def test_what_a_session_method_cannot_convert_keeps_the_file_compat(change, reason):
    source = PROGRAM.replace(*change)
    assert source != PROGRAM
    result = migrate_source(source, "ann.py")
    assert result.outcome == "compat"
    assert reason in result.compat_reason


def test_a_session_kept_on_the_object_is_no_scope_of_the_method():
    source = PROGRAM.replace("        with tf.Session() as session:\n", "        session = tf.Session()\n"
                             "        self.session = session\n        if True:\n")
    result = migrate_source(source, "ann.py")
    assert result.outcome == "compat"
    assert "graph built in method `fit`" in result.compat_reason
