"""``confusion_matrix``: counts of (true class, predicted class), rows true."""
import numpy


def confusion_matrix(y_true, y_pred, labels=None):
    y_true, y_pred = numpy.asarray(y_true).ravel(), numpy.asarray(y_pred).ravel()
    if labels is None:
        labels = numpy.unique(numpy.concatenate([y_true, y_pred]))
    index = {label: i for i, label in enumerate(numpy.asarray(labels).tolist())}
    matrix = numpy.zeros((len(index), len(index)), dtype=numpy.int64)
    for true, pred in zip(y_true.tolist(), y_pred.tolist()):
        if true in index and pred in index:
            matrix[index[true], index[pred]] += 1
    return matrix
