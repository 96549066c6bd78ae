"""``bunch.Bunch`` (stub set ``bunch``): a dict whose keys are also attributes."""


class Bunch(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        self[name] = value
