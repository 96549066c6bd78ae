# numeric
import numpy as np
import tensorflow as tf


def build(x):
    # a pure graph function: no variables
    return tf.nn.relu(x) * 2.0


def main():
    inputs = tf.placeholder(tf.float32, [None])
    outputs = build(inputs)
    with tf.Session() as sess:
        print(sess.run(outputs, {inputs: np.array([-1.0, 2.0])}))


if __name__ == "__main__":
    main()
# output
# numeric
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


def build(x):
    # a pure graph function: no variables
    return tf.nn.relu(x) * 2.0


def main():

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def run_outputs(inputs):
        outputs = build(inputs)
        return outputs

    print(to_numpy(run_outputs(inputs=np.array([-1.0, 2.0]))))


if __name__ == "__main__":
    main()
