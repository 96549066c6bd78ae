import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * x
print(tape.gradient(y, x).numpy())
