# numeric, separate processes
# An actor-critic agent builds its eval and target networks with the same private methods,
# called twice from __init__ with other arguments (DDPG's `_build_a(s, scope, trainable)`);
# one builder returns several values. Each call runs the method's body in place, and the
# target networks' collections list their variables in TF1's creation order, trainable or not.
import numpy as np
import tensorflow as tf

TAU = 0.5


class DDPG(object):
    def __init__(self, a_dim, s_dim):
        self.a_dim, self.s_dim = a_dim, s_dim
        self.S, self.S_, self.R = self._build_inputs()
        with tf.variable_scope('Actor'):
            self.a = self._build_a(self.S, scope='eval', trainable=True)
            a_ = self._build_a(self.S_, scope='target', trainable=False)
        with tf.variable_scope('Critic'):
            q = self._build_c(self.S, self.a, scope='eval', trainable=True)
            q_ = self._build_c(self.S_, a_, scope='target', trainable=False)
        self.ae_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='Actor/eval')
        self.at_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='Actor/target')
        self.ce_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='Critic/eval')
        self.ct_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='Critic/target')
        self.soft_replace = [tf.assign(t, (1 - TAU) * t + TAU * e)
                             for t, e in zip(self.at_params + self.ct_params, self.ae_params + self.ce_params)]
        td_error = tf.reduce_mean(tf.square(self.R + 0.9 * q_ - q))
        self.ctrain = tf.train.GradientDescentOptimizer(0.01).minimize(td_error, var_list=self.ce_params)
        self.atrain = tf.train.GradientDescentOptimizer(0.01).minimize(-tf.reduce_mean(q), var_list=self.ae_params)
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def _build_inputs(self):
        s = tf.placeholder(tf.float32, [None, self.s_dim], 's')
        s_ = tf.placeholder(tf.float32, [None, self.s_dim], 's_')
        r = tf.placeholder(tf.float32, [None, 1], 'r')
        return s, s_, r

    def _build_a(self, s, scope, trainable):
        with tf.variable_scope(scope):
            net = tf.layers.dense(s, 4, activation=tf.nn.relu, name='l1', trainable=trainable,
                                  kernel_initializer=tf.constant_initializer(0.1))
            a = tf.layers.dense(net, self.a_dim, activation=tf.nn.tanh, name='a', trainable=trainable,
                                kernel_initializer=tf.constant_initializer(0.2))
            return tf.multiply(a, 2.0, name='scaled_a')

    def _build_c(self, s, a, scope, trainable):
        with tf.variable_scope(scope):
            w1_s = tf.get_variable('w1_s', [self.s_dim, 4], initializer=tf.constant_initializer(0.3),
                                   trainable=trainable)
            w1_a = tf.get_variable('w1_a', [self.a_dim, 4], initializer=tf.constant_initializer(-0.1),
                                   trainable=trainable)
            net = tf.nn.relu(tf.matmul(s, w1_s) + tf.matmul(a, w1_a))
            return tf.layers.dense(net, 1, trainable=trainable, kernel_initializer=tf.constant_initializer(0.5))

    def learn(self, bs, ba, br, bs_):
        self.sess.run(self.soft_replace)
        self.sess.run(self.atrain, {self.S: bs})
        self.sess.run(self.ctrain, {self.S: bs, self.a: ba, self.R: br, self.S_: bs_})

    def choose_action(self, s):
        return self.sess.run(self.a, {self.S: s[np.newaxis, :]})[0]

    def target_critic(self):
        return self.sess.run(self.ct_params)


agent = DDPG(2, 3)
rng = np.random.RandomState(0)
for step in range(5):
    agent.learn(rng.rand(8, 3).astype(np.float32), rng.rand(8, 2).astype(np.float32),
                rng.rand(8, 1).astype(np.float32), rng.rand(8, 3).astype(np.float32))
print(np.round(agent.choose_action(np.ones(3, np.float32)), 5))
print([np.round(v, 5).tolist() for v in agent.target_critic()])
# output
# numeric, separate processes
# An actor-critic agent builds its eval and target networks with the same private methods,
# called twice from __init__ with other arguments (DDPG's `_build_a(s, scope, trainable)`);
# one builder returns several values. Each call runs the method's body in place, and the
# target networks' collections list their variables in TF1's creation order, trainable or not.
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


TAU = 0.5


class DDPG(object):
    def __init__(self, a_dim, s_dim):
        self.a_dim, self.s_dim = a_dim, s_dim
        l1 = tf.keras.layers.Dense(units=4, activation=tf.nn.relu, name='l1', trainable=True, kernel_initializer=tf.constant_initializer(0.1))
        self.l1 = l1
        l1.build((None, self.s_dim))
        a_4 = tf.keras.layers.Dense(units=self.a_dim, activation=tf.nn.tanh, name='a', trainable=True, kernel_initializer=tf.constant_initializer(0.2))
        self.a_4 = a_4
        a_4.build((None, 4))
        l1_2 = tf.keras.layers.Dense(units=4, activation=tf.nn.relu, name='l1', trainable=False, kernel_initializer=tf.constant_initializer(0.1))
        self.l1_2 = l1_2
        l1_2.build((None, self.s_dim))
        a_5 = tf.keras.layers.Dense(units=self.a_dim, activation=tf.nn.tanh, name='a', trainable=False, kernel_initializer=tf.constant_initializer(0.2))
        self.a_5 = a_5
        a_5.build((None, 4))
        w1_s = tf.Variable(tf.constant_initializer(0.3)([self.s_dim, 4]), name='w1_s', trainable=True)
        self.w1_s = w1_s
        w1_a = tf.Variable(tf.constant_initializer(-0.1)([self.a_dim, 4]), name='w1_a', trainable=True)
        self.w1_a = w1_a
        dense = tf.keras.layers.Dense(units=1, trainable=True, kernel_initializer=tf.constant_initializer(0.5))
        self.dense = dense
        dense.build((None, 4))
        w1_s_2 = tf.Variable(tf.constant_initializer(0.3)([self.s_dim, 4]), name='w1_s', trainable=False)
        self.w1_s_2 = w1_s_2
        w1_a_2 = tf.Variable(tf.constant_initializer(-0.1)([self.a_dim, 4]), name='w1_a', trainable=False)
        self.w1_a_2 = w1_a_2
        dense_2 = tf.keras.layers.Dense(units=1, trainable=False, kernel_initializer=tf.constant_initializer(0.5))
        self.dense_2 = dense_2
        dense_2.build((None, 4))
        self.ae_params = [*l1.variables, *a_4.variables]
        self.at_params = [*l1_2.variables, *a_5.variables]
        self.ce_params = [w1_s, w1_a, *dense.variables]
        self.ct_params = [w1_s_2, w1_a_2, *dense_2.variables]
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
        self.optimizer = optimizer
        optimizer_2 = tf.keras.optimizers.SGD(learning_rate=0.01)
        self.optimizer_2 = optimizer_2

    @tf.function
    def run_soft_replace(self):
        soft_replace = [t.assign((1 - TAU) * t + TAU * e)
                             for t, e in zip(self.at_params + self.ct_params, self.ae_params + self.ce_params)]
        return soft_replace

    def compute_a(self, S):
        net = self.l1(S)
        a_2 = self.a_4(net)
        a = tf.multiply(a_2, 2.0, name='scaled_a')
        return a

    def compute_q(self, S, a):
        net_3 = tf.nn.relu(tf.matmul(S, self.w1_s) + tf.matmul(a, self.w1_a))
        q = self.dense(net_3)
        return q

    @tf.function
    def run_atrain(self, S):
        S = tf.cast(S, tf.float32)
        with tf.GradientTape(persistent=True) as tape:
            a = self.compute_a(S)
            q = self.compute_q(S, a)
            variables = self.ae_params
            gradients = tape.gradient(-tf.reduce_mean(q), variables)
            self.optimizer_2.apply_gradients(zip(gradients, variables))

    @tf.function
    def run_ctrain(self, S, a, R, S_):
        S = tf.cast(S, tf.float32)
        a = tf.cast(a, tf.float32)
        R = tf.cast(R, tf.float32)
        S_ = tf.cast(S_, tf.float32)
        with tf.GradientTape() as tape:
            net_2 = self.l1_2(S_)
            a_3 = self.a_5(net_2)
            a_ = tf.multiply(a_3, 2.0, name='scaled_a')
            q = self.compute_q(S, a)
            net_4 = tf.nn.relu(tf.matmul(S_, self.w1_s_2) + tf.matmul(a_, self.w1_a_2))
            q_ = self.dense_2(net_4)
            td_error = tf.reduce_mean(tf.square(R + 0.9 * q_ - q))
        variables = self.ce_params
        gradients = tape.gradient(td_error, variables)
        self.optimizer.apply_gradients(zip(gradients, variables))

    @tf.function
    def run_a(self, S):
        S = tf.cast(S, tf.float32)
        a = self.compute_a(S)
        return a

    def learn(self, bs, ba, br, bs_):
        call_compiled(self.run_soft_replace)
        self.run_atrain(S=tf.cast(bs, tf.float32))
        self.run_ctrain(S=tf.cast(bs, tf.float32), a=ba, R=tf.cast(br, tf.float32), S_=tf.cast(bs_, tf.float32))

    def choose_action(self, s):
        return self.run_a(S=tf.cast(s[np.newaxis, :], tf.float32)).numpy()[0]

    def target_critic(self):
        return tf.nest.map_structure(lambda value: value.numpy(), self.ct_params)


agent = DDPG(2, 3)
rng = np.random.RandomState(0)
for step in range(5):
    agent.learn(rng.rand(8, 3).astype(np.float32), rng.rand(8, 2).astype(np.float32),
                rng.rand(8, 1).astype(np.float32), rng.rand(8, 3).astype(np.float32))
print(np.round(agent.choose_action(np.ones(3, np.float32)), 5))
print([np.round(v, 5).tolist() for v in agent.target_critic()])
