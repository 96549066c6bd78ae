# numeric
import numpy as np
import tensorflow as tf


class Actor:
    """DDPG-style actor: applies -dQ/da through grad_ys, divided by the batch size."""

    def __init__(self, sess, batch_size):
        self.sess = sess
        self.state = tf.placeholder(tf.float32, [None, 2])
        with tf.variable_scope("actor"):
            weights = tf.Variable(np.full((2, 1), 0.5, np.float32), name="w")
        self.action = tf.tanh(tf.matmul(self.state, weights))
        self.params = tf.trainable_variables(scope="actor")
        self.action_grad = tf.placeholder(tf.float32, [None, 1])
        grads = tf.gradients(self.action, self.params, -self.action_grad)
        scaled = [g / batch_size for g in grads]
        self.train_op = tf.train.GradientDescentOptimizer(0.1).apply_gradients(zip(scaled, self.params))

    def train(self, state, action_grad):
        self.sess.run(self.train_op, {self.state: state, self.action_grad: action_grad})

    def act(self, state):
        return self.sess.run(self.action, {self.state: state})


with tf.Session() as sess:
    actor = Actor(sess, 4)
    sess.run(tf.global_variables_initializer())
    states = np.arange(8.0).reshape(4, 2) / 8.0
    for _ in range(3):
        actor.train(states, np.ones((4, 1)))
        print(actor.act(states).ravel())
# output
# numeric
import inspect
import weakref

import numpy as np
import tensorflow as tf


def call_compiled(function, /, **feeds):
    """function(**feeds), run through the trace of its one concrete function."""
    # A tf.function call binds and looks up its arguments in Python, as long as a small training step;
    # its trace, given tensors, runs without that.
    traced = compiled_traces.get(function)
    if traced is None:  # the first call traces it, and creates the state the trace makes
        specs = function.input_signature or ()
        names = list(inspect.signature(function.python_function).parameters)[-len(specs):] if specs else []
        fetched = function(**{key: feeds[key] for key in names})
        concrete = function.get_concrete_function()
        run_trace = getattr(getattr(concrete, "inference_fn", None), "call_preflattened", None)
        compiled_traces[function] = concrete, list(zip(names, specs)), run_trace
        return fetched
    concrete, parameters, run_trace = traced
    tensors = []
    for key, spec in parameters:
        tensor = tf.convert_to_tensor(feeds[key], spec.dtype)
        if not spec.is_compatible_with(tensor):
            raise ValueError(f"Cannot feed value of shape {tensor.shape} for `{key}`, which has shape {spec.shape}")
        tensors.append(tensor)
    if run_trace is None:
        return concrete(*tensors)
    return run_trace(tensors + concrete.captured_inputs)  # what concrete(*tensors) runs when no tape watches


compiled_traces = weakref.WeakKeyDictionary()  # tf.function -> (its concrete function, its parameters, its trace)


class Actor:
    """DDPG-style actor: applies -dQ/da through grad_ys, divided by the batch size."""

    def __init__(self, batch_size):
        self.batch_size = batch_size
        weights = tf.Variable(np.full((2, 1), 0.5, np.float32), name="w")
        self.weights = weights
        self.params = [weights]
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
        self.optimizer = optimizer

    def compute_action(self, state):
        action = tf.tanh(tf.matmul(state, self.weights))
        return action

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
    def run_train_op(self, state, action_grad):
        with tf.GradientTape() as tape:
            action = self.compute_action(state)
        grads = tape.gradient(action, self.params, output_gradients=-action_grad)
        scaled = [g / self.batch_size for g in grads]
        self.optimizer.apply_gradients(zip(scaled, self.params))

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def run_action(self, state):
        action = self.compute_action(state)
        return action

    def train(self, state, action_grad):
        call_compiled(self.run_train_op, state=state, action_grad=action_grad)

    def act(self, state):
        return call_compiled(self.run_action, state=state).numpy()


actor = Actor(4)
states = np.arange(8.0).reshape(4, 2) / 8.0
for _ in range(3):
    actor.train(states, np.ones((4, 1)))
    print(actor.act(states).ravel())
