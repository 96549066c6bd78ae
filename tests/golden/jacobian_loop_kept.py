# numeric
# Per-element loops that are not a plain Jacobian stay loops: the eager tape
# still computes one gradient per element, the same values (an info finding
# suggests jacobian()).
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [3])
y = tf.sin(x) * tf.reduce_sum(x)

squares = []
for i in range(3):
    squares.append(tf.gradients(y[i] * y[i], x)[0])
squares = tf.stack(squares)

rows = [tf.gradients(y[i], x)[0] for i in range(3)]
first_two = tf.stack(rows[:2])

with tf.Session() as sess:
    s, f = sess.run([squares, first_two], {x: [0.1, 0.2, 0.3]})
    print(np.round(s, 5))
    print(np.round(f, 5))
# output
# numeric
# Per-element loops that are not a plain Jacobian stay loops: the eager tape
# still computes one gradient per element, the same values (an info finding
# suggests jacobian()).
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


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def run_squares_first_two(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sin(x) * tf.reduce_sum(x)
        squares = []
        for i in range(3):
            squares.append(tape.gradient(y[i] * y[i], [x])[0])
        squares = tf.stack(squares)
        rows = [tape.gradient(y[i], [x])[0] for i in range(3)]
    first_two = tf.stack(rows[:2])
    return [squares, first_two]


s, f = to_numpy(run_squares_first_two(x=[0.1, 0.2, 0.3]))
print(np.round(s, 5))
print(np.round(f, 5))
