"""Stands in for ``tensorflow.examples`` (gone from TF 2): see ``tutorials/mnist/input_data.py``."""
