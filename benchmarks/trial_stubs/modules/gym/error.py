"""``gym.error``: the exceptions programs catch."""


class Error(Exception):
    pass


class UnregisteredEnv(Error):
    pass
