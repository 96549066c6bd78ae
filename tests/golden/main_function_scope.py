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


def build(x):
    # a pure graph function: no variables
    return tf.nn.relu(x) * 2.0


def main():

    def run_outputs(inputs):
        inputs = tf.cast(inputs, tf.float32)
        outputs = build(inputs)
        return outputs.numpy()
    print(run_outputs(inputs=np.array([-1.0, 2.0])))


if __name__ == "__main__":
    main()
