"""Part of the ``tensorflow.examples`` stand-in."""
