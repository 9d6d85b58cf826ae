"""Mean and 95% interval across seeds: the one statistic that sweeps, reports and the results README print.

A strength claim is a mean over seeds with the interval of that mean. With three or five seeds the normal
approximation is far too narrow (1.96 against 4.30 standard errors at n = 3), so the interval is Student's
t with n - 1 degrees of freedom, computed here rather than taken from scipy, which boardlab does not need.
"""

import math
from dataclasses import dataclass
from typing import Iterable

# How every table names its interval, so that no reader has to guess.
INTERVAL_NOTE = "mean ± half-width of the 95% interval of the mean across seeds (Student t, n − 1 degrees of freedom)"


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz, Numerical Recipes' betacf)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction(a, b, x) / a
    return 1.0 - front * _continued_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p, by bisection on t_cdf (60 halvings: far below the figures printed)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"t_quantile: p must lie strictly between 0 and 1, got {p}")
    if df <= 0:
        raise ValueError(f"t_quantile: degrees of freedom must be positive, got {df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(60):
        middle = (low + high) / 2.0
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


@dataclass(frozen=True)
class Interval:
    """The mean of n values and the 95% interval of that mean; half is None for one value (no spread to go by)."""

    n: int
    mean: float
    half: float | None

    @property
    def low(self) -> float | None:
        return None if self.half is None else self.mean - self.half

    @property
    def high(self) -> float | None:
        return None if self.half is None else self.mean + self.half

    def as_dict(self) -> dict:
        return {"n": self.n, "mean": self.mean, "half": self.half, "low": self.low, "high": self.high}

    def text(self, digits: int = 1, signed: bool = False, unit: str = "") -> str:
        """'94.3 ± 2.1 (n=3)' (with unit '%': '94.3% ± 2.1 (n=3)'), or '94.3 (n=1)' without an interval."""
        sign = "+" if signed else ""
        mean = f"{self.mean:{sign}.{digits}f}{unit}"
        if self.half is None:
            return f"{mean} (n={self.n})"
        return f"{mean} ± {self.half:.{digits}f} (n={self.n})"


def mean_interval(values: Iterable[float], confidence: float = 0.95) -> Interval:
    """Mean and the Student-t interval of the mean: mean ± t(1 - (1 - confidence)/2, n - 1) · s / √n, with s the
    sample standard deviation (n - 1 in its denominator). Raises ValueError for no values."""
    xs = [float(v) for v in values]
    if not xs:
        raise ValueError("mean_interval: no values")
    n = len(xs)
    mean = math.fsum(xs) / n
    if n == 1:
        return Interval(1, mean, None)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    return Interval(n, mean, t_quantile(1.0 - (1.0 - confidence) / 2.0, n - 1) * sd / math.sqrt(n))
