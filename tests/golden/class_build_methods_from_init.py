# numeric
# A model whose __init__ calls private methods that build the graph, once: their bodies are
# what __init__ builds, and the class converts as one that builds its graph in __init__.
import numpy as np
import tensorflow as tf


class Agent(object):
    def __init__(self, sess, lr):
        self.sess = sess
        self.lr = lr
        self._build_net()
        self.loss = self._build_loss()

    def _build_net(self):
        self.s = tf.placeholder(tf.float32, [None, 3])
        self.target = tf.placeholder(tf.float32, [None, 1])
        w = tf.Variable(tf.fill([3, 1], 0.5))
        self.q = tf.matmul(self.s, w)

    def _build_loss(self):
        squared = tf.square(self.target - self.q)
        return tf.reduce_mean(squared)

    def learn(self, s, target):
        return self.sess.run(self.loss, {self.s: s, self.target: target})


sess = tf.Session()
agent = Agent(sess, 0.1)
sess.run(tf.global_variables_initializer())
print(np.round(agent.learn(np.ones((2, 3)), np.zeros((2, 1))), 5))
# output
# numeric
# A model whose __init__ calls private methods that build the graph, once: their bodies are
# what __init__ builds, and the class converts as one that builds its graph in __init__.
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


class Agent(object):
    def __init__(self, lr):
        self.lr = lr
        w = tf.Variable(tf.fill([3, 1], 0.5))
        self.w = w

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
    def run_loss(self, s, target):
        q = tf.matmul(s, self.w)
        squared = tf.square(target - q)
        loss = tf.reduce_mean(squared)
        return loss

    def learn(self, s, target):
        return call_compiled(self.run_loss, s=s, target=target).numpy()


agent = Agent(0.1)
print(np.round(agent.learn(np.ones((2, 3)), np.zeros((2, 1))), 5))
