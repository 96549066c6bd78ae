"""``train_test_split``, drawing from numpy's global generator when no ``random_state`` is given (as scikit-learn)."""
import numpy


def _generator(random_state):
    return numpy.random.mtrand._rand if random_state is None else numpy.random.RandomState(random_state)


def train_test_split(*arrays, test_size=None, train_size=None, random_state=None, shuffle=True, stratify=None):
    count = len(arrays[0])
    if test_size is None and train_size is None:
        test_size = 0.25
    if test_size is not None:
        test = int(numpy.ceil(test_size * count)) if isinstance(test_size, float) else int(test_size)
        train = count - test if train_size is None else (
            int(numpy.floor(train_size * count)) if isinstance(train_size, float) else int(train_size))
    else:
        train = int(numpy.floor(train_size * count)) if isinstance(train_size, float) else int(train_size)
        test = count - train
    order = _generator(random_state).permutation(count) if shuffle else numpy.arange(count)
    train_index, test_index = order[test:test + train], order[:test]
    result = []
    for array in arrays:
        array = numpy.asarray(array)
        result += [array[train_index], array[test_index]]
    return result
