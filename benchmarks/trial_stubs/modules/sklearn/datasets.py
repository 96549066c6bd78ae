"""Synthetic, seeded data sets with scikit-learn's return shapes.

``load_iris``, ``make_circles``, ``make_moons`` and ``fetch_mldata("MNIST original")``
(700 synthetic digits, 0..255 pixels, float classes; nothing is downloaded).
"""
import numpy


class Bunch(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def load_iris(return_X_y=False):
    """150 flowers, 50 of each of 3 classes, 4 measurements in cm around the real class means."""
    means = numpy.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])
    spread = numpy.array([0.35, 0.35, 0.3, 0.15])
    rng = numpy.random.RandomState(150)
    target = numpy.repeat(numpy.arange(3), 50)
    data = numpy.round(numpy.abs(means[target] + rng.randn(150, 4) * spread), 1)
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, target_names=numpy.array(["setosa", "versicolor", "virginica"]),
                 feature_names=["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"])


def make_circles(n_samples=100, shuffle=True, noise=None, random_state=None, factor=0.8):
    """Two concentric circles (outer class 0, inner class 1), as scikit-learn draws them."""
    rng = numpy.random.RandomState(0 if random_state is None else random_state)
    outer, inner = n_samples // 2, n_samples - n_samples // 2
    angles_out = numpy.linspace(0, 2 * numpy.pi, outer, endpoint=False)
    angles_in = numpy.linspace(0, 2 * numpy.pi, inner, endpoint=False)
    X = numpy.vstack([numpy.c_[numpy.cos(angles_out), numpy.sin(angles_out)],
                      factor * numpy.c_[numpy.cos(angles_in), numpy.sin(angles_in)]])
    y = numpy.hstack([numpy.zeros(outer, dtype=numpy.intp), numpy.ones(inner, dtype=numpy.intp)])
    if shuffle:
        order = rng.permutation(n_samples)
        X, y = X[order], y[order]
    if noise is not None:
        X = X + rng.normal(scale=noise, size=X.shape)
    return X, y


def make_moons(n_samples=100, shuffle=True, noise=None, random_state=None):
    """Two interleaving half circles (classes 0 and 1)."""
    rng = numpy.random.RandomState(0 if random_state is None else random_state)
    outer, inner = n_samples // 2, n_samples - n_samples // 2
    X = numpy.vstack([numpy.c_[numpy.cos(numpy.linspace(0, numpy.pi, outer)),
                               numpy.sin(numpy.linspace(0, numpy.pi, outer))],
                      numpy.c_[1 - numpy.cos(numpy.linspace(0, numpy.pi, inner)),
                               0.5 - numpy.sin(numpy.linspace(0, numpy.pi, inner))]])
    y = numpy.hstack([numpy.zeros(outer, dtype=numpy.intp), numpy.ones(inner, dtype=numpy.intp)])
    if shuffle:
        order = rng.permutation(n_samples)
        X, y = X[order], y[order]
    if noise is not None:
        X = X + rng.normal(scale=noise, size=X.shape)
    return X, y


def fetch_mldata(dataname, data_home=None, **kwargs):
    """Only ``"MNIST original"``: the synthetic digits of the ``input_data`` stub, 700 of them."""
    if dataname.lower() != "mnist original":
        raise OSError(f"public trial: no network; the sklearn stub only fakes 'MNIST original', not {dataname!r}")
    from tensorflow.examples.tutorials.mnist.input_data import synthetic_digits

    images, classes = synthetic_digits(700, 4)
    return Bunch(data=numpy.round(images * 255).astype(numpy.uint8), target=classes.astype(numpy.float64))
