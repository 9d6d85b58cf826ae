"""How often one page may send: a token bucket per connection, so that a flood from one page cannot stall the others."""

import time

MESSAGES_PER_SECOND = 20.0  # a person clicks or steps through a record far slower
BURST = 60  # a page that reconnects sends its game, analysis and run at once


class RateLimit:
    """allow() is True for a message within the rate; the messages refused since the last one allowed are
    counted, so that the page hears of them once, not once each."""

    def __init__(self, rate: float = MESSAGES_PER_SECOND, burst: int = BURST, clock=time.monotonic):
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens = float(burst)
        self._last = clock()
        self.refused = 0  # since the page was last told

    def allow(self) -> bool:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self.refused += 1
        return False
