"""``gym.spaces.Discrete`` and ``Box``, with their own seeded generators."""
import numpy


class Discrete:
    def __init__(self, n):
        self.n = n
        self.shape = ()
        self.dtype = numpy.int64
        self._rng = numpy.random.RandomState(0)

    def sample(self):
        return int(self._rng.randint(self.n))

    def seed(self, seed=None):
        self._rng = numpy.random.RandomState(seed)
        return [seed]

    def contains(self, x):
        return 0 <= int(x) < self.n

    def __repr__(self):  # gym's, so that programs printing a space print the same text in every run
        return f"Discrete({self.n})"


class Box:
    def __init__(self, low, high, shape=None, dtype=numpy.float32):
        shape = shape if shape is not None else numpy.shape(low)
        self.low = numpy.broadcast_to(numpy.asarray(low, dtype), shape).copy()
        self.high = numpy.broadcast_to(numpy.asarray(high, dtype), shape).copy()
        self.shape, self.dtype = tuple(shape), dtype
        self._rng = numpy.random.RandomState(0)

    def sample(self):
        low = numpy.where(numpy.isfinite(self.low), self.low, -1.0)
        high = numpy.where(numpy.isfinite(self.high), self.high, 1.0)
        return self._rng.uniform(low, high).astype(self.dtype)

    def seed(self, seed=None):
        self._rng = numpy.random.RandomState(seed)
        return [seed]

    def contains(self, x):
        return bool(numpy.all(x >= self.low) and numpy.all(x <= self.high))

    def __repr__(self):
        return f"Box{self.shape}"
