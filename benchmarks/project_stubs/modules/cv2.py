"""``cv2`` (stub set ``cv2``): imported by image helpers the runs never call."""


def imread(path, *args, **kwargs):
    raise OSError(f"project stub: cv2.imread({path!r}): no image files in this run")
