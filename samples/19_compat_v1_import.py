# Code "ported" to TF2 by switching to the compat.v1 API: it still builds a
# graph and runs it in a Session.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

a = tf.placeholder(tf.float32, shape=(None,), name="a")
k = tf.Variable(1.5, name="k")
f = k * tf.reduce_sum(tf.sin(a))
df_da, df_dk = tf.gradients(f, [a, k])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    vals = np.linspace(0.0, 1.0, 5).astype(np.float32)
    out = sess.run({"f": f, "df_da": df_da, "df_dk": df_dk}, feed_dict={a: vals})
    for key in sorted(out):
        print(key, np.round(out[key], 5))
