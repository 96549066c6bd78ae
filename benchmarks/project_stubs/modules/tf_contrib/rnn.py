"""``tf.contrib.rnn``: TF1's core rnn cells under their contrib names."""
from tensorflow.compat.v1.nn.rnn_cell import (  # noqa: F401
    BasicLSTMCell, BasicRNNCell, DropoutWrapper, GRUCell, LSTMCell, LSTMStateTuple, MultiRNNCell, RNNCell)
