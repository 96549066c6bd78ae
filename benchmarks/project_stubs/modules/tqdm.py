"""``tqdm.tqdm`` (stub set ``tqdm``): the iterable itself, no progress bar (it would write to stderr only)."""


def tqdm(iterable=None, *args, **kwargs):
    return iterable if iterable is not None else range(0)
