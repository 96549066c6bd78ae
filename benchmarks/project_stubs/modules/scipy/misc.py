"""``scipy.misc.imread`` / ``imsave`` / ``imresize``: reading has no data here; saving writes nothing."""


def imread(path, *args, **kwargs):
    raise OSError(f"project stub: scipy.misc.imread({path!r}): no image files in this run")


def imsave(path, image, *args, **kwargs):
    return None


def imresize(image, size, *args, **kwargs):
    raise OSError("project stub: scipy.misc.imresize is not available")
