"""Gymnasium's spaces when gymnasium is installed, else minimal stand-ins with the same names and behaviour."""

import numpy as np

try:  # pragma: no cover - depends on the user's machine
    from gymnasium.spaces import Box, Dict, Discrete  # noqa: F401

    HAVE_GYMNASIUM = True
except ImportError:
    HAVE_GYMNASIUM = False

    class _Space:
        def __init__(self, shape, dtype, seed=None):
            self.shape = shape
            self.dtype = np.dtype(dtype) if dtype is not None else None
            self._np_random = None
            if seed is not None:
                self.seed(seed)

        @property
        def np_random(self) -> np.random.Generator:
            if self._np_random is None:
                self.seed()
            return self._np_random

        def seed(self, seed=None):
            self._np_random = np.random.default_rng(seed)
            return [seed]

        def __contains__(self, x) -> bool:
            return self.contains(x)

    class Discrete(_Space):
        def __init__(self, n: int, seed=None, start: int = 0):
            self.n = int(n)
            self.start = int(start)
            super().__init__((), np.int64, seed)

        def sample(self, mask=None):
            if mask is not None:
                legal = np.flatnonzero(np.asarray(mask, dtype=np.int8))
                if len(legal) == 0:
                    return self.start
                return int(self.start + self.np_random.choice(legal))
            return int(self.start + self.np_random.integers(self.n))

        def contains(self, x) -> bool:
            if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
                return self.start <= int(x) < self.start + self.n
            return False

        def __repr__(self):
            return f"Discrete({self.n})"

        def __eq__(self, other):
            return isinstance(other, Discrete) and other.n == self.n and other.start == self.start

    class Box(_Space):
        def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
            shape = tuple(shape) if shape is not None else np.shape(low)
            self.low = np.full(shape, low, dtype=dtype)
            self.high = np.full(shape, high, dtype=dtype)
            super().__init__(shape, dtype, seed)

        def sample(self):
            if np.issubdtype(self.dtype, np.integer):
                return self.np_random.integers(self.low, self.high + 1, size=self.shape).astype(self.dtype)
            return self.np_random.uniform(self.low, self.high, size=self.shape).astype(self.dtype)

        def contains(self, x) -> bool:
            if not isinstance(x, np.ndarray):
                return False
            return (
                x.shape == self.shape
                and np.can_cast(x.dtype, self.dtype)
                and bool(np.all(x >= self.low))
                and bool(np.all(x <= self.high))
            )

        def __repr__(self):
            return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"

        def __eq__(self, other):
            return (
                isinstance(other, Box)
                and other.shape == self.shape
                and other.dtype == self.dtype
                and np.array_equal(other.low, self.low)
                and np.array_equal(other.high, self.high)
            )

    class Dict(_Space):
        def __init__(self, spaces: dict, seed=None):
            self.spaces = dict(spaces)
            super().__init__(None, None, seed)

        def __getitem__(self, key):
            return self.spaces[key]

        def keys(self):
            return self.spaces.keys()

        def items(self):
            return self.spaces.items()

        def seed(self, seed=None):
            super().seed(seed)
            for i, space in enumerate(self.spaces.values()):
                space.seed(None if seed is None else seed + i)
            return [seed]

        def sample(self):
            return {key: space.sample() for key, space in self.spaces.items()}

        def contains(self, x) -> bool:
            return (
                isinstance(x, dict)
                and x.keys() == self.spaces.keys()
                and all(space.contains(x[key]) for key, space in self.spaces.items())
            )

        def __repr__(self):
            return f"Dict({self.spaces!r})"
