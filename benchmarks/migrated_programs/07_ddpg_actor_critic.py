# A DDPG-style actor/critic update, written as popular TF1 implementations write
# it: the critic gives dQ/da, the actor feeds -dQ/da into tf.gradients as grad_ys
# and divides by the batch size because tf.gradients sums over the batch. One
# timed step is the whole update: act, train the critic, read dQ/da, train the actor.
import os
import time

import numpy as np
import tensorflow as tf

WARMUP = 20
STEPS = int(os.environ.get("BENCH_STEPS", "200"))
STATE_DIM, ACTION_DIM, N_HIDDEN, BATCH = 8, 2, 64, 64


class Actor(object):
    def __init__(self, sess, learning_rate):
        self.sess = sess
        self.inputs = tf.placeholder(tf.float32, [None, STATE_DIM])
        with tf.variable_scope("actor"):
            hidden = tf.layers.dense(self.inputs, N_HIDDEN, activation=tf.nn.relu)
            self.out = tf.layers.dense(hidden, ACTION_DIM, activation=tf.nn.tanh)
        self.network_params = tf.trainable_variables(scope="actor")
        self.action_gradient = tf.placeholder(tf.float32, [None, ACTION_DIM])
        unnormalized_gradients = tf.gradients(self.out, self.network_params, -self.action_gradient)
        self.actor_gradients = [tf.div(g, BATCH) for g in unnormalized_gradients]
        self.optimize = tf.train.AdamOptimizer(learning_rate).apply_gradients(
            zip(self.actor_gradients, self.network_params))

    def train(self, inputs, a_gradient):
        self.sess.run(self.optimize, feed_dict={self.inputs: inputs, self.action_gradient: a_gradient})

    def predict(self, inputs):
        return self.sess.run(self.out, feed_dict={self.inputs: inputs})


class Critic(object):
    def __init__(self, sess, learning_rate):
        self.sess = sess
        self.inputs = tf.placeholder(tf.float32, [None, STATE_DIM])
        self.action = tf.placeholder(tf.float32, [None, ACTION_DIM])
        with tf.variable_scope("critic"):
            hidden = tf.layers.dense(tf.concat([self.inputs, self.action], axis=1), N_HIDDEN, activation=tf.nn.relu)
            self.out = tf.layers.dense(hidden, 1)
        self.predicted_q_value = tf.placeholder(tf.float32, [None, 1])
        self.loss = tf.reduce_mean(tf.square(self.predicted_q_value - self.out))
        self.optimize = tf.train.AdamOptimizer(learning_rate).minimize(self.loss)
        self.action_grads = tf.gradients(self.out, self.action)

    def train(self, inputs, action, predicted_q_value):
        return self.sess.run([self.loss, self.optimize], feed_dict={
            self.inputs: inputs, self.action: action, self.predicted_q_value: predicted_q_value})

    def action_gradients(self, inputs, actions):
        return self.sess.run(self.action_grads, feed_dict={self.inputs: inputs, self.action: actions})


rng = np.random.RandomState(6)
batches = [
    (rng.randn(BATCH, STATE_DIM).astype(np.float32), rng.randn(BATCH, 1).astype(np.float32))
    for _ in range(8)
]

with tf.Session() as sess:
    actor = Actor(sess, 1e-4)
    critic = Critic(sess, 1e-3)
    sess.run(tf.global_variables_initializer())
    times = []
    for step in range(WARMUP + STEPS):
        s_batch, target_q = batches[step % len(batches)]
        start = time.perf_counter()
        a_batch = actor.predict(s_batch)
        critic_loss, _ = critic.train(s_batch, a_batch, target_q)
        grads = critic.action_gradients(s_batch, a_batch)
        actor.train(s_batch, grads[0])
        times.append(time.perf_counter() - start)
    print("STEP_MS %.4f" % (1000 * np.median(times[WARMUP:])))
    print("FINAL_LOSS %.6f" % critic_loss)
