"""The ``mnist.MNIST`` class of Hvass-Labs' tutorials, on the synthetic digits.

Served as a top-level ``mnist`` (stub set ``hvass_mnist``; that repository's
``mnist.py`` downloads the data). Same attributes as the original:
``x_train``/``x_val``/``x_test`` (flat float images), ``y_*`` (one-hot),
``y_*_cls`` (classes), ``num_train``/``num_val``/``num_test``, the image-size
constants, and ``random_batch``, which draws its indices from numpy's global
generator as the original does. The data and the step budget (100
``random_batch`` calls, then ``SystemExit(0)``) are those of the
``input_data`` stub.
"""
import sys

import numpy

from tensorflow.examples.tutorials.mnist import input_data as _digits

STEP_BUDGET = 100
_calls = [0]


class MNIST:
    img_size = 28
    img_size_flat = img_size * img_size
    img_shape = (img_size, img_size)
    num_channels = 1
    img_shape_full = (img_size, img_size, num_channels)
    num_classes = 10

    def __init__(self, data_dir="data/MNIST/"):
        self.data_dir = data_dir
        self.num_train, self.num_val, self.num_test = _digits.TRAIN, _digits.VALIDATION, _digits.TEST
        self.x_train, self.y_train_cls = _digits.synthetic_digits(self.num_train, 1)
        self.x_val, self.y_val_cls = _digits.synthetic_digits(self.num_val, 2)
        self.x_test, self.y_test_cls = _digits.synthetic_digits(self.num_test, 3)
        for split in ("train", "val", "test"):
            classes = getattr(self, f"y_{split}_cls").astype(int)
            setattr(self, f"y_{split}_cls", classes)
            setattr(self, f"y_{split}", numpy.eye(self.num_classes, dtype=numpy.float32)[classes])

    def random_batch(self, batch_size=32):
        _calls[0] += 1
        if _calls[0] > STEP_BUDGET:
            print(f"public trial: MNIST stub step budget ({STEP_BUDGET} batches) reached; stopping", file=sys.stderr)
            sys.stdout.flush()
            raise SystemExit(0)
        idx = numpy.random.randint(low=0, high=self.num_train, size=batch_size)
        return self.x_train[idx], self.y_train[idx], self.y_train_cls[idx]
