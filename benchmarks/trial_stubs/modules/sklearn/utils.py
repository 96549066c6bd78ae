"""``shuffle``: the same permutation of every array (numpy's global generator unless ``random_state``)."""
import numpy

from sklearn.model_selection import _generator


def shuffle(*arrays, random_state=None, n_samples=None):
    order = _generator(random_state).permutation(len(arrays[0]))[:n_samples]
    shuffled = [numpy.asarray(array)[order] for array in arrays]
    return shuffled[0] if len(shuffled) == 1 else shuffled
