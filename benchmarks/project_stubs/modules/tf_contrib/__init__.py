"""``tensorflow.contrib`` (stub set ``contrib``): the few contrib APIs the projects use, on tf.compat.v1.

TF 2 removed contrib, so without this the legacy run of these projects cannot start. Both runs
get the same stub; it is built on ``tensorflow.compat.v1`` so it works under either run.
"""
# Code reaches them as attributes too (tf.contrib.layers.xavier_initializer), so all load with the package.
from . import layers, learn, legacy_seq2seq, rnn, slim  # noqa: E402,F401
