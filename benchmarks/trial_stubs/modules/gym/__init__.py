"""A minimal, seeded, offline ``gym`` (stub set ``gym``) with the old 4-tuple API.

``gym.make(id)`` knows ``CartPole-v0``/``v1``, ``Pendulum-v0``/``v1``,
``MountainCar-v0`` and ``FrozenLake-v0``/``v1`` (4x4, slippery), each with the
classic dynamics, rewards, spaces and episode limits (200 steps, 500 for
CartPole-v1; ``env.unwrapped`` has no limit, as in gym). ``reset()`` returns
the observation and ``step(a)`` ``(observation, reward, done, info)``;
``render``, ``close`` and ``wrappers.Monitor`` do nothing. Each environment
draws from its own ``RandomState(0)`` (``env.seed(s)`` reseeds it), so both runs
of a program see the same episodes when they act the same.

Step budget: the 1,001st ``step`` call of a process ends the program with
``SystemExit(0)`` (a note goes to stderr), so RL scripts that train for
thousands of episodes finish in time; both runs stop at the same step.
"""
import math
import sys

import numpy

from gym import error, spaces, wrappers  # noqa: F401

STEP_BUDGET = 1000
_steps = [0]
__version__ = "0.0-public-trial-stub"


class _Spec:
    def __init__(self, env_id, max_episode_steps):
        self.id, self.max_episode_steps = env_id, max_episode_steps


class Env:
    """The shared part: seeding, the episode limit, ``unwrapped``, rendering."""

    reward_range = (-float("inf"), float("inf"))
    metadata = {"render.modes": []}

    def __init__(self, env_id, limit):
        self.spec = _Spec(env_id, limit)
        self._limit, self._elapsed = limit, 0
        self.np_random = numpy.random.RandomState(0)
        self.unwrapped = _Unlimited(self)

    def seed(self, seed=None):
        self.np_random = numpy.random.RandomState(seed)
        return [seed]

    def reset(self):
        self._elapsed = 0
        return self._reset()

    def step(self, action):
        _steps[0] += 1
        if _steps[0] > STEP_BUDGET:
            print(f"public trial: gym stub step budget ({STEP_BUDGET} steps) reached; stopping", file=sys.stderr)
            sys.stdout.flush()
            raise SystemExit(0)
        observation, reward, done, info = self._step(action)
        self._elapsed += 1
        if self._limit is not None and self._elapsed >= self._limit:
            done = True
        return observation, reward, done, info

    def render(self, *args, **kwargs):
        return None

    def close(self):
        pass


class _Unlimited:
    """``env.unwrapped``: the same environment without the episode limit."""

    def __init__(self, env):
        self._env = env

    def __getattr__(self, name):
        return getattr(self._env, name)

    @property
    def unwrapped(self):
        return self

    def reset(self):
        return self._env._reset()

    def step(self, action):
        limit, self._env._limit = self._env._limit, None
        try:
            return self._env.step(action)
        finally:
            self._env._limit = limit


class CartPole(Env):
    x_threshold = 2.4  # gym's attributes, read by reward-shaping drivers
    theta_threshold_radians = 12 * 2 * math.pi / 360

    def __init__(self, env_id, limit):
        super().__init__(env_id, limit)
        high = numpy.array([4.8, numpy.finfo(numpy.float32).max, 0.42, numpy.finfo(numpy.float32).max])
        self.action_space = spaces.Discrete(2)
        self.observation_space = spaces.Box(-high, high)
        self.state = None

    def _reset(self):
        self.state = self.np_random.uniform(-0.05, 0.05, size=(4,))
        return numpy.array(self.state)

    def _step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if int(action) == 1 else -10.0
        cos, sin = math.cos(theta), math.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sin) / 1.1
        theta_acc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos ** 2 / 1.1))
        x_acc = temp - 0.05 * theta_acc * cos / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * x_acc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * theta_acc
        self.state = (x, x_dot, theta, theta_dot)
        done = abs(x) > self.x_threshold or abs(theta) > self.theta_threshold_radians
        return numpy.array(self.state), 1.0, bool(done), {}


class Pendulum(Env):
    def __init__(self, env_id, limit):
        super().__init__(env_id, limit)
        self.action_space = spaces.Box(-2.0, 2.0, shape=(1,))
        self.observation_space = spaces.Box(numpy.array([-1.0, -1.0, -8.0]), numpy.array([1.0, 1.0, 8.0]))
        self.state = None

    def _reset(self):
        self.state = self.np_random.uniform(low=[-math.pi, -1.0], high=[math.pi, 1.0])
        return self._observation()

    def _observation(self):
        theta, theta_dot = self.state
        return numpy.array([math.cos(theta), math.sin(theta), theta_dot])

    def _step(self, action):
        theta, theta_dot = self.state
        u = float(numpy.clip(numpy.asarray(action, dtype=float).ravel()[0], -2.0, 2.0))
        normalized = ((theta + math.pi) % (2 * math.pi)) - math.pi
        cost = normalized ** 2 + 0.1 * theta_dot ** 2 + 0.001 * u ** 2
        theta_dot = theta_dot + (-3 * 10.0 / 2 * math.sin(theta + math.pi) + 3.0 * u) * 0.05
        theta = theta + theta_dot * 0.05
        self.state = numpy.array([theta, numpy.clip(theta_dot, -8.0, 8.0)])
        return self._observation(), -cost, False, {}


class MountainCar(Env):
    def __init__(self, env_id, limit):
        super().__init__(env_id, limit)
        self.action_space = spaces.Discrete(3)
        self.observation_space = spaces.Box(numpy.array([-1.2, -0.07]), numpy.array([0.6, 0.07]))
        self.state = None

    def _reset(self):
        self.state = numpy.array([self.np_random.uniform(-0.6, -0.4), 0.0])
        return numpy.array(self.state)

    def _step(self, action):
        position, velocity = self.state
        velocity = float(numpy.clip(velocity + (int(action) - 1) * 0.001 + math.cos(3 * position) * -0.0025,
                                    -0.07, 0.07))
        position = float(numpy.clip(position + velocity, -1.2, 0.6))
        if position == -1.2 and velocity < 0:
            velocity = 0.0
        self.state = numpy.array([position, velocity])
        return numpy.array(self.state), -1.0, bool(position >= 0.5), {}


class FrozenLake(Env):
    MAP = ("SFFF", "FHFH", "FFFH", "HFFG")

    def __init__(self, env_id, limit):
        super().__init__(env_id, limit)
        self.action_space = spaces.Discrete(4)
        self.observation_space = spaces.Discrete(16)
        self.s = 0

    def _reset(self):
        self.s = 0
        return self.s

    def _step(self, action):
        action = (int(action) + self.np_random.choice([-1, 0, 1])) % 4  # slippery: a third each way
        row, col = divmod(self.s, 4)
        row, col = [(row, col - 1), (row + 1, col), (row, col + 1), (row - 1, col)][action]
        row, col = min(max(row, 0), 3), min(max(col, 0), 3)
        self.s = row * 4 + col
        tile = self.MAP[row][col]
        return self.s, float(tile == "G"), tile in "GH", {"prob": 1.0 / 3}


_REGISTRY = {
    "CartPole-v0": (CartPole, 200), "CartPole-v1": (CartPole, 500),
    "Pendulum-v0": (Pendulum, 200), "Pendulum-v1": (Pendulum, 200),
    "MountainCar-v0": (MountainCar, 200),
    "FrozenLake-v0": (FrozenLake, 100), "FrozenLake-v1": (FrozenLake, 100),
}


def make(env_id, **kwargs):
    if env_id not in _REGISTRY:
        raise error.UnregisteredEnv(f"public-trial gym stub has no {env_id!r}; it knows {sorted(_REGISTRY)}")
    cls, limit = _REGISTRY[env_id]
    return cls(env_id, limit)
