# tf.InteractiveSession installs itself as the default session, so tensors can
# be evaluated with .eval() and ops run with .run(), as in the old
# "Deep MNIST for experts" tutorial.
import numpy as np
import tensorflow as tf

sess = tf.InteractiveSession()

x = tf.placeholder(tf.float32, shape=[None, 3])
y_ = tf.placeholder(tf.float32, shape=[None, 1])
w = tf.Variable(np.array([[1.0], [-2.0], [0.5]], dtype=np.float32))
b = tf.Variable(0.25)
y = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.square(y - y_))
train_step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

tf.global_variables_initializer().run()

rng = np.random.RandomState(0)
batch = rng.rand(4, 3).astype(np.float32)
target = batch.sum(axis=1, keepdims=True)
print("y =", y.eval(feed_dict={x: batch}).ravel())

for i in range(5):
    train_step.run(feed_dict={x: batch, y_: target})
    print("step %d loss %.5f" % (i, loss.eval(feed_dict={x: batch, y_: target})))

# evaluating an assign tensor performs the assignment
double_b = tf.assign(b, b * 2)
print("b doubled:", double_b.eval(), "then", double_b.eval())
print("w =", np.round(w.eval().ravel(), 5))
sess.close()
