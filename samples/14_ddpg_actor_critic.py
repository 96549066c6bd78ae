# The actor/critic update of DDPG as popular TF1 implementations write it:
# the critic gives dQ/da, the actor applies -dQ/da through tf.gradients and
# divides by the batch size because tf.gradients sums over the batch.
import numpy as np
import tensorflow as tf

STATE_DIM, ACTION_DIM, BATCH = 3, 2, 8


class Actor(object):
    def __init__(self, sess, learning_rate):
        self.sess = sess
        self.inputs = tf.placeholder(tf.float32, [None, STATE_DIM])
        with tf.variable_scope("actor"):
            w_init = tf.random_uniform_initializer(-0.3, 0.3, seed=1)
            self.w = tf.get_variable("w", [STATE_DIM, ACTION_DIM], initializer=w_init)
            self.b = tf.get_variable("b", [ACTION_DIM], initializer=tf.zeros_initializer())
        self.out = tf.tanh(tf.matmul(self.inputs, self.w) + self.b)
        self.network_params = tf.trainable_variables(scope="actor")

        # provided by the critic
        self.action_gradient = tf.placeholder(tf.float32, [None, ACTION_DIM])
        self.unnormalized_actor_gradients = tf.gradients(self.out, self.network_params, -self.action_gradient)
        self.actor_gradients = list(map(lambda x: tf.div(x, BATCH), self.unnormalized_actor_gradients))
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
            w_init = tf.random_uniform_initializer(-0.3, 0.3, seed=2)
            w = tf.get_variable("w", [STATE_DIM + ACTION_DIM, 1], initializer=w_init)
        self.out = tf.matmul(tf.concat([self.inputs, self.action], axis=1), w)
        self.predicted_q_value = tf.placeholder(tf.float32, [None, 1])
        self.loss = tf.reduce_mean(tf.square(self.predicted_q_value - self.out))
        self.optimize = tf.train.AdamOptimizer(learning_rate).minimize(self.loss)
        self.action_grads = tf.gradients(self.out, self.action)

    def train(self, inputs, action, predicted_q_value):
        return self.sess.run([self.loss, self.optimize], feed_dict={
            self.inputs: inputs, self.action: action, self.predicted_q_value: predicted_q_value})

    def action_gradients(self, inputs, actions):
        return self.sess.run(self.action_grads, feed_dict={self.inputs: inputs, self.action: actions})


with tf.Session() as sess:
    actor = Actor(sess, 0.01)
    critic = Critic(sess, 0.01)
    sess.run(tf.global_variables_initializer())
    rng = np.random.RandomState(0)
    for step in range(5):
        s_batch = rng.randn(BATCH, STATE_DIM)
        target_q = rng.randn(BATCH, 1)
        a_batch = actor.predict(s_batch)
        loss, _ = critic.train(s_batch, a_batch, target_q)
        grads = critic.action_gradients(s_batch, actor.predict(s_batch))
        actor.train(s_batch, grads[0])
        print("step %d critic loss %.5f" % (step, loss))
    print("actor w:\n", np.round(sess.run(actor.w), 4))
