"""A small synthetic MNIST with the API of TF1's ``input_data.read_data_sets``.

Served as ``tensorflow.examples.tutorials.mnist.input_data`` and as a top-level
``input_data`` (repositories ship a copy that downloads MNIST). Nothing is read
or downloaded: 550 training, 50 validation and 1,000 test examples are drawn
from a fixed numpy seed, each its class's fixed pattern mixed with part of
another class's and noise, on a blank page as MNIST's digits are (about a fifth
of the pixels inked, mean intensity 0.16, near MNIST's 0.13: dense inputs drove
tutorials with unit-variance weights to NaN), so a model learns something but
not everything (a nearest-class-mean classifier gets 89% of the test split right,
least squares 48%: tutorials that plot nine misclassified test images find them). ``train``/``validation``/``test`` have ``images``
(``(n, 784)`` float32 in [0, 1], or ``(n, 28, 28, 1)`` with ``reshape=False``,
or 0..255 with ``dtype=uint8``), ``labels`` (one-hot float64 rows, or uint8
classes), ``num_examples``, ``epochs_completed`` and ``next_batch`` (an epoch
at a time in a shuffled order, as TF1's; its own seeded generator, so the
program's numpy draws do not move it).

Step budget: the 101st ``next_batch`` call of a process ends the program with
``SystemExit(0)`` (a note goes to stderr), so tutorials that train for 20,000
steps finish in seconds; both runs stop at the same call, and what they printed
until then is compared.
"""
import collections
import sys

import numpy

TRAIN, VALIDATION, TEST = 550, 50, 1000
STEP_BUDGET = 100
_calls = [0]

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def _count_step():
    _calls[0] += 1
    if _calls[0] > STEP_BUDGET:
        print(f"public trial: MNIST stub step budget ({STEP_BUDGET} batches) reached; stopping", file=sys.stderr)
        sys.stdout.flush()
        raise SystemExit(0)


class DataSet:
    """One split: images, labels and TF1's ``next_batch``."""

    def __init__(self, images, labels, seed):
        self._images, self._labels = images, labels
        self._num_examples = images.shape[0]
        self._epochs_completed = 0
        self._index_in_epoch = 0
        self._rng = numpy.random.RandomState(seed)

    images = property(lambda self: self._images)
    labels = property(lambda self: self._labels)
    num_examples = property(lambda self: self._num_examples)
    epochs_completed = property(lambda self: self._epochs_completed)

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        _count_step()
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            rest = self._num_examples - start
            images_rest, labels_rest = self._images[start:], self._labels[start:]
            if shuffle:
                self._shuffle()
            self._index_in_epoch = batch_size - rest
            end = self._index_in_epoch
            return (numpy.concatenate((images_rest, self._images[:end]), axis=0),
                    numpy.concatenate((labels_rest, self._labels[:end]), axis=0))
        self._index_in_epoch += batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]

    def _shuffle(self):
        order = self._rng.permutation(self._num_examples)
        self._images, self._labels = self._images[order], self._labels[order]


def synthetic_digits(count, seed):
    """``count`` images (float32 in [0, 1], flat) and their classes (uint8)."""
    patterns = numpy.random.RandomState(1234).rand(10, 784) > 0.85
    rng = numpy.random.RandomState(seed)
    classes = rng.randint(0, 10, count).astype(numpy.uint8)
    other = patterns[rng.randint(0, 10, count)]
    blur = other * rng.rand(count, 1)  # part of another class's pattern
    ink = patterns[classes] | other  # strokes on a blank page, as MNIST's (about a fifth of the pixels)
    images = numpy.clip(0.4 * patterns[classes] + 0.45 * blur + 0.5 * rng.rand(count, 784), 0.0, 1.0) * ink
    return images.astype(numpy.float32), classes


def _split(count, seed, one_hot, dtype, reshape):
    images, classes = synthetic_digits(count, seed)
    if "uint8" in str(getattr(dtype, "name", dtype)):
        images = numpy.round(images * 255.0).astype(numpy.uint8)
    if not reshape:
        images = images.reshape(count, 28, 28, 1)
    labels = numpy.eye(10)[classes] if one_hot else classes
    return DataSet(images, labels, seed)


def read_data_sets(train_dir="", fake_data=False, one_hot=False, dtype="float32", reshape=True,
                   validation_size=5000, seed=None, source_url=None):
    """TF1's signature; every argument but ``one_hot``, ``dtype`` and ``reshape`` is ignored."""
    return Datasets(
        train=_split(TRAIN, 1, one_hot, dtype, reshape),
        validation=_split(VALIDATION, 2, one_hot, dtype, reshape),
        test=_split(TEST, 3, one_hot, dtype, reshape),
    )
