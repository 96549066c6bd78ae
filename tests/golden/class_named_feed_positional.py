# numeric
# A method builds its feed dict by name and passes it by position, as RL agents do
# (`sess.run([train_op, loss], feed_dict)`): its keys are the class's placeholders at every run,
# so the generated method takes exactly those and compiles.
import numpy as np
import tensorflow as tf


class Agent(object):
    def __init__(self, sess, n_features, lr=0.1):
        self.sess = sess
        self.s = tf.placeholder(tf.float32, [1, n_features], "state")
        self.td = tf.placeholder(tf.float32, None, name="td")
        w = tf.Variable(tf.fill([n_features, 1], 0.5))
        self.value = tf.reduce_sum(tf.matmul(self.s, w))
        self.loss = tf.square(self.value - self.td)
        self.train_op = tf.train.GradientDescentOptimizer(lr).minimize(self.loss)

    def learn(self, s, td):
        s = s[np.newaxis, :]
        feed_dict = {self.s: s, self.td: td}
        _, loss = self.sess.run([self.train_op, self.loss], feed_dict)
        return loss


sess = tf.Session()
agent = Agent(sess, 3)
sess.run(tf.global_variables_initializer())
for step in range(3):
    print(step, np.round(agent.learn(np.arange(3.0) / (step + 1), 1.0), 5))
# output
# numeric
# A method builds its feed dict by name and passes it by position, as RL agents do
# (`sess.run([train_op, loss], feed_dict)`): its keys are the class's placeholders at every run,
# so the generated method takes exactly those and compiles.
import numpy as np
import tensorflow as tf


def to_numpy(fetched):
    """The fetched tensors as numpy values, in the fetches' structure (None for ops), as sess.run gave them."""
    if isinstance(fetched, dict):
        return type(fetched)((key, to_numpy(value)) for key, value in fetched.items())
    if isinstance(fetched, (list, tuple)):
        values = [to_numpy(value) for value in fetched]
        return type(fetched)(*values) if hasattr(fetched, "_fields") else type(fetched)(values)
    return None if fetched is None else fetched.numpy()


class Agent(object):
    def __init__(self, n_features, lr=0.1):
        w = tf.Variable(tf.fill([n_features, 1], 0.5))
        self.w = w
        optimizer = tf.keras.optimizers.SGD(learning_rate=lr)
        self.optimizer = optimizer

    @tf.function
    def run_train_op_loss(self, s, td):
        s = tf.cast(s, tf.float32)
        td = tf.cast(td, tf.float32)
        with tf.GradientTape() as tape:
            value = tf.reduce_sum(tf.matmul(s, self.w))
            loss = tf.square(value - td)
        gradients = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(gradients, [self.w]))
        return [None, loss]

    def learn(self, s, td):
        s = s[np.newaxis, :]
        feed_dict = {'s': s, 'td': td}
        _, loss = to_numpy(self.run_train_op_loss(**feed_dict))
        return loss


agent = Agent(3)
for step in range(3):
    print(step, np.round(agent.learn(np.arange(3.0) / (step + 1), 1.0), 5))
